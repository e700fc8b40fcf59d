package command

import (
	"fmt"
	"os"
	"path/filepath"
)

// The package's tests never write into the user's cache: the default probe
// cache of this test binary is a directory of its own under os.TempDir().
func init() {
	userCacheDir = func() (string, error) {
		return filepath.Join(os.TempDir(), fmt.Sprintf("conform-test-cache-%d", os.Geteuid())), nil
	}
}
