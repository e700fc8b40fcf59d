package compare

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/galaxy-stack/conform/matrix/lab"
	"github.com/galaxy-stack/conform/matrix/runs"
)

// writeRepros writes, for every scenario of res whose hosts differ, a
// self-contained txtar repro into dir (runs.Repro): the scenario, headed by
// where each host first differs and the conform compare command that
// shows it again. It sets Scenario.Repro, and returns the repros it could
// not write.
func writeRepros(dir string, hosts []Host, res *Result) []error {
	var errs []error
	for i := range res.Scenarios {
		s := &res.Scenarios[i]
		if s.Equal {
			continue
		}
		rs, err := runs.Load(s.File)
		if err != nil || len(rs) != 1 {
			errs = append(errs, fmt.Errorf("%s: repro: cannot load the scenario again: %v", s.File, err))
			continue
		}
		r := rs[0]
		name := runs.ReproName(r.Fixture.Name)
		file := filepath.Join(dir, name)
		cmd := "conform compare"
		for _, h := range hosts {
			cmd += " --host " + shellWord(h.Name)
		}
		cmd += " " + shellWord(file)
		if r.Trusted {
			// conform's own scenario ran its commands uncontained; the
			// repro is a file from outside conform.
			cmd += " " + lab.AllowUncontainedFlag
		}
		var reasons []string
		if len(s.Outliers) > 0 {
			reasons = append(reasons, "outlier: "+strings.Join(s.Outliers, ", "))
		}
		for _, m := range s.Mismatches {
			line := fmt.Sprintf("%s differs from %s first at %s", m.Hosts[1], m.Hosts[0], m.Where)
			if m.Field != "" {
				line += ", field " + m.Field
			}
			reasons = append(reasons, line, "contract: "+m.Contract)
		}
		data, err := runs.Repro(r, "the hosts of the command below differ on "+r.Fixture.Name+" ("+strings.Join(s.Differ, ", ")+").", reasons, cmd)
		if err == nil {
			err = runs.WriteRepro(dir, name, data)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: repro: %w", s.File, err))
			continue
		}
		s.Repro = file
	}
	return errs
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
