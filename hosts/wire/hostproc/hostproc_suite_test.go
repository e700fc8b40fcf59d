package hostproc_test

import (
	"encoding/json"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/internal/suite"
)

func TestHostproc(t *testing.T) {
	suite.Run(t, "Hostproc")
}

// executeParams returns valid tool/execute params for callID.
func executeParams(callID, modelName string) wire.ExecuteParams {
	return wire.ExecuteParams{CallID: callID, ModelName: modelName, Arguments: json.RawMessage(`{}`), IdempotencyKey: "k-" + callID,
		TimeoutMs: 1000, Context: wire.RunContext{RunID: "r", TaskID: "t", Mode: "auto"}}
}
