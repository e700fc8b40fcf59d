package kit

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of a property failure's reason: the minimal failing case, not
// rapid's whole log.
const (
	// caseLineRunes is the most runes of one line of the case shown.
	caseLineRunes = 240
	// caseFailureLines is the most lines of the property's failure shown.
	caseFailureLines = 16
)

// minimalCase condenses rapid's failure log to the case rapid shrank it
// to: each draw of that case as "label = value", then the property's
// failure, each line cut to caseLineRunes runes and the failure to
// caseFailureLines lines, with what was left out counted. rapid's own
// header, which repeats the failure, and its replay line, whose
// -rapid.seed is a go test flag conform does not take, are left out: the
// replay command is CONFORM_RAPID_SEED (see rapid.go).
func minimalCase(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	// The shrunk case's output follows rapid's "Failed test output:";
	// without that line the log is shown whole, still cut.
	for i, l := range lines {
		if strings.TrimSpace(l) == "Failed test output:" {
			lines = lines[i+1:]
			break
		}
	}
	var draws, failure []string
	for _, l := range lines {
		if strings.Contains(l, "-rapid.seed=") {
			continue
		}
		if draw, ok := strings.CutPrefix(strings.TrimSpace(l), "[rapid] draw "); ok {
			if label, value, ok := strings.Cut(draw, ": "); ok {
				draw = label + " = " + value
			}
			draws = append(draws, "  "+cutLine(draw))
			continue
		}
		failure = append(failure, l)
	}
	for len(failure) > 0 && strings.TrimSpace(failure[len(failure)-1]) == "" {
		failure = failure[:len(failure)-1]
	}
	var b strings.Builder
	b.WriteString("minimal failing case (rapid's shrunk draws):\n")
	if len(draws) == 0 {
		b.WriteString("  (no draws)\n")
	}
	for _, d := range draws {
		b.WriteString(d + "\n")
	}
	b.WriteString("failure:")
	for i, l := range failure {
		if i == caseFailureLines {
			b.WriteString("\n  …(" + strconv.Itoa(len(failure)-i) + " more lines)")
			break
		}
		b.WriteString("\n  " + cutLine(l))
	}
	return b.String()
}

// cutLine cuts s to caseLineRunes runes, counting what it leaves out.
func cutLine(s string) string {
	if utf8.RuneCountInString(s) <= caseLineRunes {
		return s
	}
	r := []rune(s)
	return string(r[:caseLineRunes]) + "…(" + strconv.Itoa(len(r)-caseLineRunes) + " more characters)"
}
