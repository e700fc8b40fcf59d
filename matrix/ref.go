package matrix

import (
	"fmt"
	"strconv"
	"strings"
)

// Extension items check host guarantees that no numbered item of the seed
// covers. Their IDs start at ExtensionBase+1, so that they sort after the
// seed's items and never renumber them; they are shown as a prefix letter
// and their rank ("R1" is ID 101).
const (
	// SeedItems is the number of the seed's items (1–54).
	SeedItems = 54
	// ExtensionBase is the ID before the first extension item.
	ExtensionBase = 100
	// researchPrefix is the reference prefix of the research items.
	researchPrefix = "R"
	// FormatBase is the ID before the first project-format item: PF01 is
	// ID 201.
	FormatBase = 200
	// formatPrefix is the reference prefix of the project-format items.
	formatPrefix = "PF"
)

// Ref is how the item is named to people: its number for a seed item
// ("13"), its prefix and rank for an extension item ("R1" for ID 101).
func (it Item) Ref() string { return RefOf(it.ID) }

// RefOf is the reference of item id (see Item.Ref).
func RefOf(id int) string {
	if id > FormatBase {
		return fmt.Sprintf("%s%02d", formatPrefix, id-FormatBase)
	}
	if id > ExtensionBase {
		return fmt.Sprintf("%s%d", researchPrefix, id-ExtensionBase)
	}
	return strconv.Itoa(id)
}

// ParseRef reads an item reference, "13", "R1" or "PF01"
// (case-insensitive), and returns the item's ID. It does not check that the
// item exists.
func ParseRef(s string) (int, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), formatPrefix); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n >= 100 {
			return 0, fmt.Errorf("%q is not an item reference such as 13, R1 or PF01", s)
		}
		return FormatBase + n, nil
	}
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), researchPrefix); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n >= ExtensionBase {
			return 0, fmt.Errorf("%q is not an item reference such as 13 or R1", s)
		}
		return ExtensionBase + n, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not an item reference such as 13 or R1", s)
	}
	return n, nil
}
