package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ReadPIDs reads the process IDs a command wrote to file, separated by
// white space (one a line, as `echo $$ >> file` writes them). It fails
// when the file cannot be read or holds anything but positive integers.
func ReadPIDs(file string) ([]int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("%s holds %q, which is not a process ID", file, f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}
