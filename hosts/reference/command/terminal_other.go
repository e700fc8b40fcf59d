//go:build !linux

package command

import (
	"errors"
	"os"
)

// openTerminal fails: the TerminalStdin fault has a pseudo-terminal only
// on Linux.
func openTerminal() (*os.File, func(), error) {
	return nil, nil, errors.New("command: no pseudo-terminal on this platform")
}
