package variants

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// spillScheme prefixes the reference host's spill references; its files
// live in the spill directory of the host's store directory.
const spillScheme = "conform-spill://"

// member returns the value of the member key of the object n, or nil.
func (n *node) member(key string) *node {
	for i := range n.obj {
		if n.obj[i].key == key {
			return n.obj[i].val
		}
	}
	return nil
}

// spillFiles returns the spill files a reference host's artifactRef names,
// by stream ("stdout", "stderr").
func spillFiles(storeDir, ref string) map[string]string {
	names, ok := strings.CutPrefix(ref, spillScheme)
	if !ok || storeDir == "" {
		return nil
	}
	out := map[string]string{}
	for _, n := range strings.Split(names, ",") {
		out[strings.TrimPrefix(filepath.Ext(n), ".")] = filepath.Join(storeDir, "spill", n)
	}
	return out
}

// headTail keeps, of each truncated stream, a head and a tail of the
// complete output (read back from its spill file) around a marker of its
// own, in as many bytes as the reference host kept.
func headTail(storeDir string, res, content *node) error {
	ref := res.member("artifactRef")
	if ref == nil || ref.str == nil {
		return nil
	}
	for stream, file := range spillFiles(storeDir, *ref.str) {
		kept := content.member(stream)
		full, err := os.ReadFile(file)
		if err != nil || kept == nil || kept.str == nil || len(*kept.str) >= len(full) {
			continue
		}
		marker := fmt.Sprintf("\n[... %d bytes omitted ...]\n", len(full)-len(*kept.str))
		half := max((len(*kept.str)-len(marker))/2, 1)
		s := string(full[:half]) + marker + string(full[len(full)-half:])
		kept.str = &s
	}
	return nil
}

// oneSpill moves the spill files of a call into one framed file holding
// both streams, one after the other, each under a header line giving its
// name and length, and names that file in artifactRef.
func oneSpill(storeDir string, res, _ *node) error {
	ref := res.member("artifactRef")
	if ref == nil || ref.str == nil {
		return nil
	}
	files := spillFiles(storeDir, *ref.str)
	if len(files) == 0 {
		return nil
	}
	var framed []byte
	var first string
	for _, stream := range []string{"stdout", "stderr"} {
		f, ok := files[stream]
		if !ok {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("variant one-spill-file: %w", err)
		}
		framed = fmt.Appendf(framed, "==> %s (%d bytes) <==\n", stream, len(b))
		framed = append(append(framed, b...), '\n')
		if first == "" {
			first = f
		}
	}
	out := strings.TrimSuffix(first, filepath.Ext(first)) + ".streams"
	if err := os.WriteFile(out, framed, 0o600); err != nil {
		return fmt.Errorf("variant one-spill-file: %w", err)
	}
	for _, f := range files {
		_ = os.Remove(f)
	}
	s := spillScheme + filepath.Base(out)
	ref.str = &s
	return nil
}
