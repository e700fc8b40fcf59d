package wsfs

import "errors"

// mkfifo makes no FIFO on Windows.
func (r *Root) mkfifo(string) error {
	return errors.New("Windows has no FIFO entries")
}
