package projectformat

import (
	"fmt"
	"path"
	"slices"

	"github.com/galaxy-stack/conform/core/catalog"
)

// Extensions of the files each adapter formats.
var adapterExtensions = map[string][]string{
	catalog.AdapterRust:   {".rs"},
	catalog.AdapterPython: {".py", ".pyi"},
	catalog.AdapterGo:     {".go"},
}

// AdapterFor returns the adapter of a file extension (".rs", ".py",
// ".pyi", ".go"), or "" for any other.
func AdapterFor(ext string) string {
	for _, a := range []string{catalog.AdapterGo, catalog.AdapterPython, catalog.AdapterRust} {
		if slices.Contains(adapterExtensions[a], ext) {
			return a
		}
	}
	return ""
}

// Resolve returns the adapter a call uses: the explicit one, or for "auto"
// (or "") the one every file's extension names. It fails when a file's
// extension does not belong to the adapter or the files mix adapters.
func Resolve(adapter string, files []string) (string, error) {
	chosen := adapter
	if chosen == "" || chosen == catalog.AdapterAuto {
		chosen = ""
		for _, f := range files {
			a := AdapterFor(path.Ext(f))
			if a == "" {
				return "", fmt.Errorf("%s has no supported extension (.rs, .py, .pyi, .go)", f)
			}
			if chosen != "" && a != chosen {
				return "", fmt.Errorf("the files mix the %s and %s adapters; format them in separate calls", chosen, a)
			}
			chosen = a
		}
		return chosen, nil
	}
	exts, ok := adapterExtensions[chosen]
	if !ok {
		return "", fmt.Errorf("adapter %q is not auto, rust, python or go", adapter)
	}
	for _, f := range files {
		if !slices.Contains(exts, path.Ext(f)) {
			return "", fmt.Errorf("%s does not have an extension of the %s adapter (%v)", f, chosen, exts)
		}
	}
	return chosen, nil
}

// Admit is the capability gate of a call, applied at planning and again
// before dispatch: the host must advertise project_format_v1, and a Go
// call, explicit or inferred, also project_format_go_v1. The error says
// which flag is missing.
func Admit(flags []string, adapter string) error {
	if !slices.Contains(flags, catalog.FlagProjectFormat) {
		return fmt.Errorf("the host does not advertise %s", catalog.FlagProjectFormat)
	}
	if adapter == catalog.AdapterGo && !slices.Contains(flags, catalog.FlagProjectFormatGo) {
		return fmt.Errorf("the Go adapter needs %s as well as %s", catalog.FlagProjectFormatGo, catalog.FlagProjectFormat)
	}
	return nil
}
