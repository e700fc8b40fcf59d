package oracle_test

import (
	"fmt"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

func ExampleCheck() {
	fx, err := fixture.Parse("fixtures/x.json", []byte(`{
	  "schemaVersion": 2, "name": "x", "task": "t",
	  "rounds": [{"content": "done", "finishReason": "stop"}],
	  "expected": {"toolSequence": ["list_files", "read_file"]}
	}`))
	if err != nil {
		panic(err)
	}
	obs := &oracle.Observed{
		Status:       oracle.StatusOf("completed"),
		ToolSequence: []string{"list_files"},
	}
	for _, f := range oracle.Check(fx, obs) {
		fmt.Println(f)
		fmt.Println(f.Message)
	}
	// Output:
	// fixtures/x.json: expected.toolSequence: expected [list_files read_file], got [list_files]
	// Expected tool sequence ["list_files","read_file"], received ["list_files"].
}
