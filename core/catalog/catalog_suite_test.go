package catalog_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestCatalog(t *testing.T) {
	suite.Run(t, "catalog")
}
