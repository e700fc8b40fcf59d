package schema_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestSchema(t *testing.T) {
	suite.Run(t, "schema")
}
