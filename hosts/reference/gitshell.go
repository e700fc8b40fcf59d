package reference

import "strings"

// gitShellLine is the command line the GitThroughShell fault hands to
// sh -c: the executable and its fixed options quoted, as a careful author
// quotes what it wrote itself, and the subcommand with its paths joined
// with spaces, unquoted.
func gitShellLine(git string, fixed, args []string) string {
	quote := func(w string) string { return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" }
	parts := []string{quote(git)}
	for _, a := range fixed {
		parts = append(parts, quote(a))
	}
	return strings.Join(append(parts, args...), " ")
}
