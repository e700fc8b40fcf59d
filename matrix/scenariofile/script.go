package scenariofile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/matrix/fixture"
)

// Commands names every command a scenario script may use, in the order
// the package documentation lists them.
var Commands = []string{"resume", "conform-run", "status", "error-code", "tools", "effects", "file", "changes", "replay-hash"}

// negatable are the commands "!" may precede.
var negatable = []string{"conform-run", "status", "error-code", "tools", "effects", "file", "changes", "replay-hash"}

// checkScript parses the script's lines as testscript will run them
// (each line split by [splitArgs], a line starting with "#" a comment)
// and refuses any command that is not the harness's own: exec and every
// other testscript built-in, a [condition], a background "&", a line
// longer than maxScriptLine.
func checkScript(name, script string) ([]Line, error) {
	var out []Line
	for i, text := range strings.Split(script, "\n") {
		n := i + 1
		if strings.HasPrefix(text, "#") {
			continue
		}
		if len(text) > maxScriptLine {
			return nil, lineErr(name, n, "script line longer than %d bytes", maxScriptLine)
		}
		args, err := splitArgs(text)
		if err != nil {
			return nil, lineErr(name, n, "%v", err)
		}
		if len(args) == 0 {
			continue
		}
		l := Line{N: n, Text: text}
		if args[0] == "!" {
			l.Neg, args = true, args[1:]
		}
		if len(args) == 0 {
			return nil, lineErr(name, n, `"!" without a command`)
		}
		switch {
		case strings.HasPrefix(args[0], "["):
			return nil, lineErr(name, n, "script conditions ([...]) are not supported in scenarios")
		case args[len(args)-1] == "&":
			return nil, lineErr(name, n, "background commands (&) are not supported in scenarios")
		case !slices.Contains(Commands, args[0]):
			return nil, lineErr(name, n, "unknown script command %q: a scenario may use only the harness's commands (%s); nothing from an archive is run as a program", args[0], strings.Join(Commands, ", "))
		case l.Neg && !slices.Contains(negatable, args[0]):
			return nil, lineErr(name, n, "%q cannot be negated", args[0])
		}
		if err := checkArgs(args); err != nil {
			return nil, lineErr(name, n, "%s: %v", args[0], err)
		}
		l.Args = args
		out = append(out, l)
	}
	return out, nil
}

// checkArgs checks the arity and the fixed words of a command line.
func checkArgs(args []string) error {
	rest := args[1:]
	switch args[0] {
	case "conform-run":
		if len(rest) > 0 {
			return fmt.Errorf("takes no arguments")
		}
	case "status", "error-code":
		if len(rest) != 1 {
			return fmt.Errorf("takes exactly one argument")
		}
	case "replay-hash":
		if len(rest) > 1 {
			return fmt.Errorf("takes at most one argument")
		}
	case "file":
		if len(rest) > 0 {
			if err := fixture.CheckWorkspacePath(rest[0]); err != nil {
				return fmt.Errorf("PATH %q %v", rest[0], err)
			}
		}
		switch {
		case len(rest) == 1:
		case len(rest) == 2 && rest[1] == "absent":
		case len(rest) == 3 && (rest[1] == "equals" || rest[1] == "contains" || rest[1] == "line"):
		default:
			return fmt.Errorf("usage: file PATH [absent | equals TEXT | line TEXT | contains TEXT]")
		}
	case "resume":
		for _, a := range rest {
			switch {
			case a == "tamper", a == "fresh-host":
			case strings.HasPrefix(a, "on="):
				if v := strings.TrimPrefix(a, "on="); v != fixture.StatusPaused && v != fixture.StatusFailed {
					return fmt.Errorf("on= must be paused or failed, got %q", v)
				}
			case strings.HasPrefix(a, "max="):
				var n int
				if _, err := fmt.Sscanf(strings.TrimPrefix(a, "max="), "%d", &n); err != nil || n < 2 || n > 10 {
					return fmt.Errorf("max= must be a number of executions from 2 to 10, got %q", a)
				}
			default:
				return fmt.Errorf("unknown argument %q (want on=STATUS, tamper, fresh-host, max=N)", a)
			}
		}
	}
	return nil
}

// splitArgs splits a script line into words exactly as testscript's
// parser does (go-internal v1.16 testscript.(*TestScript).parse): words
// end at a space, a tab or a carriage return; "#" outside quotes ends the
// line, even inside a word; single quotes group text (two of them inside
// stand for one), and an empty quoted word is a word. testscript expands
// $NAME outside quotes with its own environment, which the loader cannot
// know: a "$" outside quotes is refused, so the words checked here are
// the words the commands get. A line of no words is a blank line.
func splitArgs(line string) ([]string, error) {
	var (
		args   []string
		arg    string
		start  = -1 // start of the current chunk of the word, or -1
		quoted = false
	)
	plain := func(chunk string) error {
		if strings.Contains(chunk, "$") {
			return fmt.Errorf("a script word may not expand variables: quote \"$\" as '$'")
		}
		arg += chunk
		return nil
	}
	for i := 0; ; i++ {
		if !quoted && (i >= len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '#') {
			if start >= 0 {
				if err := plain(line[start:i]); err != nil {
					return nil, err
				}
				args = append(args, arg)
				start, arg = -1, ""
			}
			if i >= len(line) || line[i] == '#' {
				return args, nil
			}
			continue
		}
		if i >= len(line) {
			return nil, fmt.Errorf("unterminated quoted argument")
		}
		if line[i] == '\'' {
			if !quoted {
				if start >= 0 {
					if err := plain(line[start:i]); err != nil {
						return nil, err
					}
				}
				start, quoted = i+1, true
				continue
			}
			if i+1 < len(line) && line[i+1] == '\'' {
				arg += line[start:i]
				start = i + 1
				i++
				continue
			}
			arg += line[start:i]
			start, quoted = i+1, false
			continue
		}
		if start < 0 {
			start = i
		}
	}
}

// hasRun reports whether the script runs the scenario itself.
func (sc *Scenario) hasRun() bool {
	for _, l := range sc.Lines {
		if l.Args[0] == "conform-run" {
			return true
		}
	}
	return false
}
