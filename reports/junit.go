package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/galaxy-stack/conform/internal/termsafe"
)

// JUnit XML: the shape CI systems read (Jenkins, GitLab, GitHub test
// reporters). One <testsuite> per document, one <testcase> per item (per
// fixture for a run document); a failure carries the reason and the repro
// command, a not-applicable or skipped item is <skipped> with its reason.
//
// The shape follows Jenkins' junit-10.xsd (reports/testdata, checked by
// TestJUnitValidAgainstJenkinsXSD): <testsuites> carries no skipped count,
// each <testsuite> does.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// RenderJUnit writes docs as one JUnit XML file.
func RenderJUnit(w io.Writer, docs ...*Document) error {
	out := junitSuites{Name: "conform"}
	var total int64
	for _, d := range docs {
		s := junitSuite{Name: "conform " + d.Kind + " --host " + HostLabel(d), Timestamp: d.StartedAt}
		props := [][2]string{
			{"conform.version", d.Harness.Version}, {"conform.commit", d.Harness.Commit},
			{"matrix.version", d.MatrixVersion}, {"os", d.OS}, {"arch", d.Arch},
			{"host.command", d.Host.Command}, {"host.name", d.Host.Name}, {"host.version", d.Host.Version},
			{"host.binarySha256", d.Host.BinarySHA256}, {"host.toolProfile", d.Host.ToolProfile},
			{"host.promptInput", d.Host.PromptInput},
		}
		if d.Interrupted {
			props = append(props, [2]string{"interrupted", "true"})
		}
		for _, p := range props {
			if p[1] != "" {
				s.Properties = append(s.Properties, junitProperty{p[0], p[1]})
			}
		}
		var ms int64
		for _, it := range d.Items {
			c := junitCase{Name: ItemRef(it) + " " + it.Title, Classname: "conform." + it.Area, Time: seconds(it.DurationMs)}
			if it.ID == 0 {
				c.Name, c.Classname = it.Fixture, "conform.run."+it.File
			}
			switch {
			case it.Status == Failed && it.Expected != nil:
				// An expected failure does not fail the suite: it is
				// skipped, with what expects it.
				x := it.Expected
				c.Skipped = &junitSkipped{Message: fmt.Sprintf("expected failure: %s (owner %s, until %s, %s): %s", x.Reason, x.Owner, x.Expires, x.Source, FirstLine(it.Reason))}
				s.Skipped++
			case it.Status == Failed:
				body := it.Reason
				if it.Repro != "" {
					body += "\n\nrepro: " + it.Repro
				}
				c.Failure = &junitFailure{Message: FirstLine(it.Reason), Type: "failed", Body: body}
				s.Failures++
			case it.Status == NotApplicable:
				msg := it.Reason
				if !strings.HasPrefix(msg, "not applicable: ") {
					msg = "not applicable: " + msg // a certify item's reason lists its scenarios so
				}
				c.Skipped = &junitSkipped{Message: msg}
				s.Skipped++
			case it.Status == Skipped:
				c.Skipped = &junitSkipped{Message: it.Reason}
				s.Skipped++
			case it.Status == Passed:
				c.SystemOut = it.Reason // incidents a passing item reports
			}
			ms += it.DurationMs
			s.Cases = append(s.Cases, c)
		}
		s.Tests, s.Time = len(d.Items), seconds(ms)
		total += ms
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Suites = append(out.Suites, s)
	}
	out.Time = seconds(total)
	// encoding/xml escapes markup and the C0 controls; the C1 controls and
	// bidi overrides a document may hold are escaped too (termsafe).
	tw := termsafe.NewWriter(w)
	w = tw
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return tw.Flush()
}
