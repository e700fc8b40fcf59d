package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
)

// toolRow is one line of `conform tools`: the catalog's summary of a tool
// joined with the effects its host may attest and, with --schemas, its
// input and output JSON Schemas as initialize sends them.
type toolRow struct {
	catalog.Row
	Bootstrap      bool           `json:"bootstrap"`
	AllowedEffects []string       `json:"allowedEffects"`
	InputSchema    map[string]any `json:"inputSchema,omitempty"`
	OutputSchema   map[string]any `json:"outputSchema,omitempty"`
}

func toolRows(schemas bool) []toolRow {
	allowed := map[string][]string{}
	for _, e := range effects.CoreEntries() {
		allowed[e.ID] = e.Capabilities
	}
	var rows []toolRow
	for _, r := range catalog.Table() {
		row := toolRow{Row: r, Bootstrap: r.Activation == "bootstrap", AllowedEffects: allowed[r.ID]}
		if d, ok := catalog.ByID(r.ID); ok && schemas {
			row.InputSchema, row.OutputSchema = d.InputSchema, d.OutputSchema
		}
		rows = append(rows, row)
	}
	return rows
}

// hostCatalogJSON is the catalog exactly as initialize sends it: the
// `catalog` member of its params, encoded as the wire encodes it.
func hostCatalogJSON() ([]byte, error) { return json.Marshal(catalog.ForHost()) }

var _ = register(def[toolsFlags]{
	Name:      "tools",
	UsageLine: "conform tools [--json] [--schemas]",
	Short:     "list the 21 canonical tools with model names, kinds and allowed effects",
	Long: `Tools lists the core tool catalog a host is certified against: canonical ID,
model-facing name, category and mutability, risk, whether the tool is active
from the first turn (bootstrap) or activated through search_tools (lazy), and
the effects a host may attest for it (effect profile ` + effects.ProfileVersion + `).

--schemas prints the catalog exactly as initialize sends it to a host (one
line of JSON: schemaVersion, definitionBudget and the full descriptors with
their input and output JSON Schemas; hosts/wire/catalog.json is the same
value, indented). With --json, --schemas adds each tool's inputSchema and
outputSchema to its row instead. hosts/wire/tools/ documents every tool.`,
	Flags: func(fs *flag.FlagSet) *toolsFlags {
		f := &toolsFlags{}
		fs.BoolVar(&f.asJSON, "json", false, "print the catalog as JSON")
		fs.BoolVar(&f.schemas, "schemas", false, "print the catalog as initialize sends it (with --json: add the schemas to each row)")
		return f
	},
	NoArgs: true,
	Run:    runTools,
})

// toolsFlags are the flags of conform tools.
type toolsFlags struct {
	asJSON  bool
	schemas bool
}

// runTools runs conform tools.
func runTools(f *toolsFlags, _ []string, out streams) error {
	if f.schemas && !f.asJSON {
		b, err := hostCatalogJSON()
		if err != nil {
			return err
		}
		fmt.Fprintf(out.stdout, "%s\n", b)
		return nil
	}
	rows := toolRows(f.schemas)
	if f.asJSON {
		return writeJSON(out.stdout, rows)
	}
	tw := tabwriter.NewWriter(out.stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tMODEL NAME\tKIND\tRISK\tACTIVATION\tALLOWED EFFECTS")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s/%s\t%s\t%s\t%s\n", r.ID, r.ModelName, r.Category, r.Mutability, r.Risk, r.Activation, strings.Join(r.AllowedEffects, ", "))
	}
	return tw.Flush()
}
