package run

import (
	"fmt"
	"os"
	"time"

	"github.com/galaxy-stack/conform/core/faults"
)

// newExecutionID mints the id of a new execution from the injected ID
// factory (RUNTIME §3). The core fault ExecutionIDWallClock takes it from
// the wall clock and the process ID instead.
func newExecutionID(deps Deps) string {
	if faults.On(faults.ExecutionIDWallClock) {
		return fmt.Sprintf("execution-%d-%d", time.Now().UnixNano(), os.Getpid())
	}
	return deps.IDs.NewID("execution")
}
