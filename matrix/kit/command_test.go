package kit

import "testing"

// TestCommandsGoScenariosLoad loads the scenario files the commands area
// runs from Go specs rather than through scenarios(), so a broken one is
// caught on every platform, including the Windows cmd half that only a
// Windows host runs.
func TestCommandsGoScenariosLoad(t *testing.T) {
	for _, rel := range []string{
		"05-canceled-model-command/external/canceled-during-command.json",
		"53-dialect-probes/posix-sh.json",
		"53-dialect-probes/windows-cmd.json",
	} {
		if _, _, err := loadScenario(rel); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
}
