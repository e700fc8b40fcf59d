package certificate

import (
	"fmt"
	"runtime"

	"github.com/galaxy-stack/conform/hosts/hostcmd"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

// Options override where [Verify] finds the bound files; "" takes them
// from the certificate.
type Options struct {
	// Report is the result document; by default the certificate's report
	// path, from the certificate's directory.
	Report string
	// Host is the host command line whose files are hashed; by default
	// the certified command, from the current directory.
	Host string
	// Expect is the expectations file; by default the certificate's,
	// from the certificate's directory. A certificate of a strict run
	// refuses one.
	Expect string
}

// A Change is one bound input that is not what the certificate recorded.
type Change struct {
	// Input names the input: "certificate", "harness", "os/arch",
	// "report <path>", "host <role> <path>", "matrix", "item <ref>",
	// "expectations <path>".
	Input string
	// Certified is what the certificate recorded, Found what is there
	// now.
	Certified, Found string
}

func (c Change) String() string {
	return fmt.Sprintf("%s: certified %s, found %s", c.Input, c.Certified, c.Found)
}

// A UsageError is an Options value the certificate cannot be checked with.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Verify recomputes every input certificate c, read from path, binds, and
// returns the ones that changed, in a fixed order: the certificate's own
// digest, the harness, OS and architecture, the report, the host files,
// the matrix and its items, the expectations file. Items are hashed from
// the scenarios embedded in this conform.
func Verify(path string, c *Certificate, o Options) ([]Change, error) {
	if c.Expectations.Strict && o.Expect != "" {
		return nil, &UsageError{"verify: the certificate is of a strict run (no expectations file); drop --expect"}
	}
	var ch []Change
	add := func(input, certified, found string) {
		if certified != found {
			ch = append(ch, Change{input, certified, found})
		}
	}
	if d, err := c.digest(); err != nil {
		return nil, err
	} else {
		add("certificate (its content no longer matches its digest: it was edited)", c.Digest, d)
	}
	h := reports.NewHarness()
	add("harness", harnessText(c.Harness), harnessText(h))
	add("os/arch", c.OS+"/"+c.Arch, runtime.GOOS+"/"+runtime.GOARCH)

	report := o.Report
	if report == "" {
		report = fromCert(path, c.Report.Path)
	}
	add("report "+report, c.Report.SHA256, hashOrWhy(report))

	host := o.Host
	if host == "" {
		host = c.Host.Command
	}
	ch = append(ch, hostChanges(c.Host.Files, host)...)

	add("matrix version", c.Matrix.Version, matrix.Version)
	for _, it := range c.Matrix.Items {
		id, err := matrix.ParseRef(it.Ref)
		if err != nil {
			add("item "+it.Ref, it.SHA256, "not an item reference")
			continue
		}
		now, err := ItemDigests([]int{id})
		if err != nil {
			add("item "+it.Ref, it.SHA256, "no such item in this conform")
			continue
		}
		add("item "+it.Ref+" definition", it.SHA256, now[0].SHA256)
	}

	if f := c.Expectations.File; f != nil {
		p := o.Expect
		if p == "" {
			p = fromCert(path, f.Path)
		}
		add("expectations "+p, f.SHA256, hashOrWhy(p))
	}
	return ch, nil
}

// hostChanges compares the certified host files with those of command now.
func hostChanges(certified []HostFile, command string) []Change {
	now, err := HostFiles(command)
	if err != nil {
		return []Change{{Input: "host " + command, Certified: "its files hashed", Found: err.Error()}}
	}
	var ch []Change
	key := func(f HostFile) string { return fmt.Sprintf("%s %d", f.Role, f.Word) }
	found := map[string]HostFile{}
	for _, f := range now {
		found[key(f)] = f
	}
	for _, f := range certified {
		g, ok := found[key(f)]
		delete(found, key(f))
		switch {
		case !ok:
			ch = append(ch, Change{"host " + f.Role + " " + f.Path, f.SHA256, fmt.Sprintf("no file at word %d of the command line", f.Word)})
		case g.SHA256 != f.SHA256:
			ch = append(ch, Change{"host " + f.Role + " " + g.Path, f.SHA256, g.SHA256})
		}
	}
	for _, f := range now {
		if _, extra := found[key(f)]; extra {
			ch = append(ch, Change{"host " + f.Role + " " + f.Path, fmt.Sprintf("no file at word %d of the command line", f.Word), f.SHA256})
		}
	}
	return ch
}

// hashOrWhy is the SHA-256 of the file at p, or why it cannot be read.
func hashOrWhy(p string) string {
	sum, err := hostcmd.HashFile(p)
	if err != nil {
		return "unreadable (" + err.Error() + ")"
	}
	return sum
}

// harnessText is how a change of harness is shown.
func harnessText(h reports.Harness) string {
	s := h.Name + " " + h.Version
	if h.Commit != "" {
		s += " commit " + h.Commit
	}
	if h.Modified {
		s += " (modified)"
	}
	return s
}
