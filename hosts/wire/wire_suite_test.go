package wire_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestWire(t *testing.T) {
	suite.Run(t, "Wire")
}
