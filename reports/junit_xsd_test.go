package reports

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// xsdElement is what a schema allows of one element: its children, its
// attributes (and which are required, and the pattern of a typed one),
// and whether it may hold text.
type xsdElement struct {
	children map[string]*xsdElement
	attrs    map[string]*regexp.Regexp // nil: any string
	required []string
	text     bool
}

// xsdNode is a parsed XML element of the schema file.
type xsdNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xsdNode  `xml:",any"`
}

func (n xsdNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// loadXSD reads the subset of XML Schema that testdata/junit-10.xsd uses:
// global elements of type xs:string, of a named complex type or with an
// inline one; complex types with attributes (use="required", a named
// simple type restricted by a pattern) and a sequence or choice of element
// references or local elements; mixed content. Order and occurrence
// bounds are not enforced: the only sequence of more than one particle is
// rerunType's, which conform never writes.
func loadXSD(t *testing.T, path string) map[string]*xsdElement {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var schema xsdNode
	if err := xml.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	patterns := map[string]*regexp.Regexp{}
	types := map[string]xsdNode{}
	elems := map[string]*xsdElement{}
	decls := map[string]xsdNode{}
	for _, n := range schema.Nodes {
		name := n.attr("name")
		switch n.XMLName.Local {
		case "simpleType":
			for _, r := range n.Nodes {
				for _, p := range r.Nodes {
					if p.XMLName.Local == "pattern" {
						patterns[name] = regexp.MustCompile(`^(?:` + p.attr("value") + `)$`)
					}
				}
			}
		case "complexType":
			types[name] = n
		case "element":
			elems[name] = &xsdElement{children: map[string]*xsdElement{}, attrs: map[string]*regexp.Regexp{}}
			decls[name] = n
		default:
			t.Fatalf("schema: unexpected top-level %s", n.XMLName.Local)
		}
	}
	var fill func(e *xsdElement, ct xsdNode)
	fill = func(e *xsdElement, ct xsdNode) {
		e.text = e.text || ct.attr("mixed") == "true"
		var walk func(n xsdNode)
		walk = func(n xsdNode) {
			for _, c := range n.Nodes {
				switch c.XMLName.Local {
				case "sequence", "choice":
					walk(c)
				case "element":
					if ref := c.attr("ref"); ref != "" {
						e.children[ref] = elems[ref]
						continue
					}
					local := &xsdElement{children: map[string]*xsdElement{}, attrs: map[string]*regexp.Regexp{}, text: c.attr("type") == "xs:string"}
					e.children[c.attr("name")] = local
				case "attribute":
					name := c.attr("name")
					e.attrs[name] = patterns[c.attr("type")]
					if c.attr("use") == "required" {
						e.required = append(e.required, name)
					}
				default:
					t.Fatalf("schema: unexpected %s in a complex type", c.XMLName.Local)
				}
			}
		}
		walk(ct)
	}
	for name, d := range decls {
		e := elems[name]
		switch typ := d.attr("type"); {
		case typ == "xs:string":
			e.text = true
		case typ != "":
			fill(e, types[typ])
		default:
			for _, c := range d.Nodes {
				if c.XMLName.Local == "complexType" {
					fill(e, c)
				}
			}
		}
	}
	return elems
}

// checkXSD checks an XML document against the elements of a schema; the
// root may be any global element.
func checkXSD(schema map[string]*xsdElement, doc []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var stack []*xsdElement
	var path []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			name := tok.Name.Local
			var e *xsdElement
			if len(stack) == 0 {
				e = schema[name]
			} else {
				e = stack[len(stack)-1].children[name]
			}
			where := strings.Join(append(path, name), "/")
			if e == nil {
				return fmt.Errorf("%s: element not allowed here", where)
			}
			seen := map[string]bool{}
			for _, a := range tok.Attr {
				p, ok := e.attrs[a.Name.Local]
				if !ok {
					return fmt.Errorf("%s: attribute %q not allowed", where, a.Name.Local)
				}
				if p != nil && !p.MatchString(a.Value) {
					return fmt.Errorf("%s: attribute %s=%q does not match %s", where, a.Name.Local, a.Value, p)
				}
				seen[a.Name.Local] = true
			}
			for _, r := range e.required {
				if !seen[r] {
					return fmt.Errorf("%s: required attribute %q missing", where, r)
				}
			}
			stack, path = append(stack, e), append(path, name)
		case xml.EndElement:
			stack, path = stack[:len(stack)-1], path[:len(path)-1]
		case xml.CharData:
			if len(stack) > 0 && !stack[len(stack)-1].text && len(bytes.TrimSpace(tok)) > 0 {
				return fmt.Errorf("%s: text not allowed", strings.Join(path, "/"))
			}
		}
	}
}

// The JUnit XML conform writes, for items of every status, is valid
// against Jenkins' junit-10.xsd (testdata/junit-10.xsd).
func TestJUnitValidAgainstJenkinsXSD(t *testing.T) {
	schema := loadXSD(t, "testdata/junit-10.xsd")
	d := &Document{
		SchemaVersion: SchemaVersion, Kind: KindCertify, Harness: Harness{Name: "conform", Version: "1", Commit: "abc"},
		Host: Host{Command: "./h", Name: "h", BinarySHA256: "sha256:00"}, OS: "linux", Arch: "amd64", MatrixVersion: "0.1.0",
		StartedAt: "2026-01-02T03:04:05Z", Interrupted: true,
		Items: []Item{
			{ID: 1, Ref: "1", Title: "a", Area: "workspace", Status: Passed, DurationMs: 1234567, Reason: "incident: killed"},
			{ID: 2, Ref: "2", Title: "b", Area: "workspace", Status: Failed, Reason: "boom\nmore", Repro: "conform certify --only 2"},
			{ID: 3, Ref: "3", Title: "c", Area: "tools", Status: Failed, Reason: "known", Expected: &ExpectedFailure{Reason: "r", Owner: "o", Expires: "2099-01-01", Source: "e.json:3"}},
			{ID: 4, Ref: "4", Title: "d", Area: "tools", Status: NotApplicable, Reason: "no tool"},
			{ID: 101, Ref: "R1", Title: "e", Area: "research", Status: Skipped, Reason: "skipped by request (--skip)"},
		},
	}
	d.Tally()
	run := &Document{SchemaVersion: SchemaVersion, Kind: KindRun, Harness: d.Harness, Host: d.Host, OS: "linux", Arch: "amd64",
		Items: []Item{{Fixture: "fx", File: "f.json", Status: Failed, Reason: "r"}}}
	var b bytes.Buffer
	if err := RenderJUnit(&b, d, run); err != nil {
		t.Fatal(err)
	}
	if err := checkXSD(schema, b.Bytes()); err != nil {
		t.Fatalf("the JUnit XML does not follow junit-10.xsd: %v\n%s", err, b.String())
	}
}

// The checker fails what the schema forbids: it is not a test that cannot
// fail.
func TestXSDCheckerRefuses(t *testing.T) {
	schema := loadXSD(t, "testdata/junit-10.xsd")
	for name, doc := range map[string]string{
		"testsuites@skipped": `<testsuites skipped="1"></testsuites>`,
		"no testcase name":   `<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>`,
		"bad time":           `<testsuites time="1.5s"></testsuites>`,
		"unknown element":    `<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><case/></testsuite></testsuites>`,
		"text in testcase":   `<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase name="x">hi</testcase></testsuite></testsuites>`,
		"no failures count":  `<testsuite name="s" tests="1" errors="0"></testsuite>`,
	} {
		if err := checkXSD(schema, []byte(doc)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := `<testsuites time="1,234.5"><testsuite name="s" tests="1" failures="1" errors="0" skipped="0"><properties><property name="a" value="b"/></properties><testcase name="x"><failure message="m" type="t">body</failure><system-out>o</system-out></testcase></testsuite></testsuites>`
	if err := checkXSD(schema, []byte(ok)); err != nil {
		t.Errorf("a valid document is refused: %v", err)
	}
}
