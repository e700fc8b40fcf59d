package matrix_test

import (
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/matrix"
	_ "github.com/galaxy-stack/conform/matrix/items" // registers the items, for the package's internal tests too
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

// TestMatrix runs every item against the reference host, served by this
// test binary re-executing itself.
func TestMatrix(t *testing.T) {
	RegisterFailHandler(Fail)
	if err := matrix.UseHost(matrix.Config{Host: "reference"}); err != nil {
		t.Fatal(err)
	}
	s, r := suite.Config()
	RunSpecs(t, "Matrix against the reference host", s, r)
}
