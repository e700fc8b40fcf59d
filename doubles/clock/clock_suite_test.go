package clock_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestClock(t *testing.T) {
	suite.Run(t, "clock")
}
