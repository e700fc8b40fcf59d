package effects

import (
	"fmt"
	"slices"
)

// ExtensionProfileVersion is the version of the extension effect profile.
// It is versioned apart from [ProfileVersion]: an extension tool never
// changes the authority of a core canonical ID.
const ExtensionProfileVersion = "project-format/1.0.0"

// extensionProfile is the most each extension tool may attest, in
// canonical ID order: project.format may report its approval, the
// post-write state version and the files it wrote, nothing else (no
// validation, inspection or completion evidence).
var extensionProfile = []Entry{
	{"project.format", []string{CapApproval, CapStateVersion, CapWrite}, "guarded compare-and-write of the selected files; unknown outcomes carry no write evidence"},
}

// ExtensionEntries returns the extension effect profile in canonical ID
// order. The caller may modify the result.
func ExtensionEntries() []Entry { return cloneEntries(extensionProfile) }

// ExtensionCapabilities returns the allowed capabilities of the extension
// tool id, or false when id is not an extension tool conform knows.
func ExtensionCapabilities(id string) ([]string, bool) {
	return capabilitiesOf(extensionProfile, id)
}

// AssertExtensionCapabilities fails when id is a known extension tool and
// caps holds a capability its extension profile does not allow. Other IDs
// pass.
func AssertExtensionCapabilities(id string, caps []string) error {
	allowed, ok := ExtensionCapabilities(id)
	if !ok {
		return nil
	}
	for _, c := range caps {
		if !slices.Contains(allowed, c) {
			return fmt.Errorf("Extension tool %s may not declare effect capability %s.", id, c)
		}
	}
	return nil
}
