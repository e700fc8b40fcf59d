package kit_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestKit(t *testing.T) {
	suite.Run(t, "Kit")
}
