package run_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestRun(t *testing.T) {
	suite.Run(t, "core/run")
}
