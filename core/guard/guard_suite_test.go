package guard_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestGuard(t *testing.T) {
	suite.Run(t, "guard")
}
