package research

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestResearch(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "research")
}
