package reports

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/galaxy-stack/conform/internal/termsafe"
)

var (
	//go:embed html/report.html.tmpl
	htmlTemplate string
	//go:embed html/report.css
	htmlCSS string
	//go:embed html/report.js
	htmlJS string
)

var htmlFuncs = template.FuncMap{
	"ref":        ItemRef,
	"firstLine":  FirstLine,
	"join":       strings.Join,
	"secs":       func(ms int64) string { return fmt.Sprintf("%.2f", float64(ms)/1000) },
	"statusWord": statusWord,
	// oneLine keeps a repro command on its line: what the Copy button
	// copies is what the page shows, never a hidden second line that a
	// terminal would run on paste.
	"oneLine": termsafe.Line,
}

// htmlPage returns the parsed report page, parsed on first use rather than
// at package initialisation, which every conform process would pay.
var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(htmlFuncs).Parse(htmlTemplate))
})

func statusWord(s string) string {
	switch s {
	case NotApplicable:
		return "n/a"
	case "":
		return "—"
	}
	return s
}

type htmlView struct {
	Title         string
	SchemaVersion string
	CSS           template.CSS
	JS            template.JS
	Docs          []htmlDoc
	Multi         bool
	Areas         []string
	Cross         *crossTable
}

type htmlDoc struct {
	Index int
	D     *Document
	// Counts are the counts of D's items, whatever D's summary says.
	Counts    Summary
	Heading   string
	HostLabel string
	Identity  string
	Verdict   string
	Failures  []Item
	Areas     []htmlArea
}

type htmlArea struct {
	Name  string
	Items []Item
}

// crossTable is the host × item (or OS × item) table of several documents.
type crossTable struct {
	Heading string
	Columns []string
	Rows    []crossRow
}

type crossRow struct {
	Ref, Title string
	Cells      []string // one status per column, "" where the item is absent
}

// RenderHTML writes docs as one self-contained HTML page: inline CSS and
// script, no external asset, no network. Each document gets a header with
// the host's identity and counts, its failures first with copyable repro
// commands, and its items as a grid by area in status colours; filters
// select by status and area. Several documents also get a cross table:
// host × item, or OS × item when they certify one host on several systems.
func RenderHTML(w io.Writer, docs ...*Document) error {
	if len(docs) == 0 {
		return fmt.Errorf("no result document to render")
	}
	v := htmlView{SchemaVersion: SchemaVersion, CSS: template.CSS(htmlCSS), JS: template.JS(htmlJS), Multi: len(docs) > 1}
	areas := map[string]bool{}
	for i, d := range docs {
		hd := htmlDoc{Index: i, D: d, Counts: d.Counts(), HostLabel: HostLabel(d), Identity: hostIdentity(d), Heading: "conform " + d.Kind}
		switch {
		case d.Interrupted:
			hd.Verdict = "interrupted"
		case hd.Counts.Unexpected() > 0:
			hd.Verdict = Failed
		default:
			hd.Verdict = Passed
		}
		docAreas := map[string]int{} // area -> index in hd.Areas
		for _, it := range d.Items {
			if it.Status == Failed {
				hd.Failures = append(hd.Failures, it)
			}
			if !areas[it.Area] {
				areas[it.Area] = true
				v.Areas = append(v.Areas, it.Area)
			}
			k, ok := docAreas[it.Area]
			if !ok {
				k = len(hd.Areas)
				docAreas[it.Area] = k
				hd.Areas = append(hd.Areas, htmlArea{Name: it.Area})
			}
			hd.Areas[k].Items = append(hd.Areas[k].Items, it)
		}
		v.Docs = append(v.Docs, hd)
	}
	v.Title = "conform " + docs[0].Kind + ": " + HostLabel(docs[0])
	if v.Multi {
		v.Title = fmt.Sprintf("conform: %d result documents", len(docs))
		v.Cross = cross(docs)
	} else {
		v.Title += fmt.Sprintf(" — %d failed, %d passed", v.Docs[0].Counts.Failed, v.Docs[0].Counts.Passed)
	}
	// html/template escapes markup; the terminal escapes a document may
	// hold are escaped too, for whoever reads the page as text.
	tw := termsafe.NewWriter(w)
	if err := htmlPage().Execute(tw, v); err != nil {
		return err
	}
	return tw.Flush()
}

// cross builds the table of several documents: a column per document,
// named by host, or by OS/arch when every document names the same host.
func cross(docs []*Document) *crossTable {
	sameHost := true
	for _, d := range docs[1:] {
		if HostLabel(d) != HostLabel(docs[0]) {
			sameHost = false
		}
	}
	t := &crossTable{Heading: "host × item"}
	if sameHost {
		t.Heading = "OS × item"
	}
	for _, d := range docs {
		col := HostLabel(d)
		if sameHost {
			col = d.OS + "/" + d.Arch
		}
		t.Columns = append(t.Columns, col)
	}
	index := map[string]int{}
	for c, d := range docs {
		for _, it := range d.Items {
			key := ItemRef(it)
			r, ok := index[key]
			if !ok {
				r = len(t.Rows)
				index[key] = r
				t.Rows = append(t.Rows, crossRow{Ref: key, Title: it.Title, Cells: make([]string, len(docs))})
			}
			t.Rows[r].Cells[c] = it.Status
		}
	}
	keys := make(map[string]refKey, len(t.Rows))
	for _, r := range t.Rows {
		keys[r.Ref] = parseRef(r.Ref)
	}
	slices.SortStableFunc(t.Rows, func(a, b crossRow) int { return keys[a.Ref].compare(keys[b.Ref]) })
	return t
}
