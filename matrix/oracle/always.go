package oracle

import (
	"fmt"
	"strconv"
	"strings"
)

// controls checks that every declared control fired (LAB §4.16). A control
// without an entry in Observed.ControlsFired did not fire.
func (c *checker) controls() {
	declared := len(c.fx.Controls)
	fired := 0
	var unfired []string
	for i := range declared {
		if i < len(c.obs.ControlsFired) && c.obs.ControlsFired[i] {
			fired++
		} else {
			unfired = append(unfired, strconv.Itoa(i+1))
		}
	}
	if fired == declared {
		return
	}
	c.fail("controls", fmt.Sprintf("all %d controls fired", declared),
		fmt.Sprintf("%d fired; not fired: %s", fired, strings.Join(unfired, ", ")),
		fmt.Sprintf("Expected all %d fixture controls to fire, received %d.", declared, fired))
}

// checkpointIntegrity checks that every persisted checkpoint passed the
// core's integrity check (LAB §4.20).
func (c *checker) checkpointIntegrity() {
	var bad []string
	for i, cp := range c.obs.Checkpoints {
		if cp.IntegrityError != "" {
			bad = append(bad, fmt.Sprintf("checkpoint %d (%s): %s", i+1, cp.Reason, cp.IntegrityError))
		}
	}
	if len(bad) == 0 {
		return
	}
	c.fail("checkpointIntegrity", "every persisted checkpoint valid", strings.Join(bad, "; "),
		"At least one persisted checkpoint failed integrity validation.")
}
