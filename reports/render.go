package reports

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/galaxy-stack/conform/internal/atomicfile"
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
	return strconv.Itoa(it.ID)
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
	if d.Host.Variant != "" {
		s += " --variant " + d.Host.Variant
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
// atomically, as [WriteFile] does; the rendering goes straight to the
// temporary file, and a rendering that fails leaves path as it was.
func WriteRendered(path string, r Renderer, docs ...*Document) error {
	err := atomicfile.Write(path, reportPerm, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		if err := r(bw, docs...); err != nil {
			return fmt.Errorf("rendering: %w", err)
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("writing report %q: %w", path, err)
	}
	return nil
}
