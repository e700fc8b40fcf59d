package reports

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// ItemRef is how a result item is named in reports: its matrix ID ("13"),
// or, in a run document, its fixture.
func ItemRef(it Item) string {
	switch {
	case it.ID == 0:
		return it.Fixture
	case it.Ref != "":
		return it.Ref
	}
	return fmt.Sprint(it.ID)
}

// FirstLine is the first line of s.
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// HostLabel names the host of d in one line: the --host value with its
// mutant or core fault, then what the host says it is.
func HostLabel(d *Document) string {
	s := d.Host.Command
	if d.Host.Mutant != "" {
		s += " --mutant " + d.Host.Mutant
	}
	if d.Host.CoreFault != "" {
		s += " --core-fault " + d.Host.CoreFault
	}
	return s
}

// hostIdentity is what the host said it is: "name version", or "".
func hostIdentity(d *Document) string {
	return strings.TrimSpace(d.Host.Name + " " + d.Host.Version)
}

// A Renderer writes one or more result documents in some format.
type Renderer func(w io.Writer, docs ...*Document) error

// WriteRendered renders docs with r and writes the result to path
// atomically, as [WriteFile] does.
func WriteRendered(path string, r Renderer, docs ...*Document) error {
	var b bytes.Buffer
	if err := r(&b, docs...); err != nil {
		return fmt.Errorf("rendering %s: %w", path, err)
	}
	return writeAtomic(path, b.Bytes())
}
