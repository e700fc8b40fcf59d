package scenariofile_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix/scenariofile"
)

// manyFiles returns a scenario of n files of about 50 bytes: n/2 in
// scenario.json's initialFiles and n/2 as workspace/ files of the archive,
// in 100 directories, with names of one length and a long common prefix:
// the shape in which comparing the two lists pair by pair costs most.
func manyFiles(n int) []byte {
	var b strings.Builder
	b.WriteString("# many files\n-- scenario.json --\n" + `{"schemaVersion": 2, "name": "s", "task": "t", "rounds": [{"content": "done", "finishReason": "stop"}], "initialFiles": [`)
	for i := range n / 2 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"path": "dir%03d/file%07d.j", "content": "x"}`, i%100, i)
	}
	b.WriteString("]}\n")
	for i := range n - n/2 {
		fmt.Fprintf(&b, "-- workspace/dir%03d/file%07d.w --\nline %d\n", i%100, i, i)
	}
	return []byte(b.String())
}

// BenchmarkLoadScenario loads scenarios of 10,000 and 100,000 files (the
// default fixture.MaxFiles): the time per file must not grow with the
// count.
func BenchmarkLoadScenario(b *testing.B) {
	suite.BenchmarkParse(b, []int{10_000, 100_000}, manyFiles, func(data []byte) error {
		_, err := scenariofile.Parse("many.txtar", data)
		return err
	})
}
