package oracle_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestOracle(t *testing.T) {
	suite.Run(t, "oracle")
}
