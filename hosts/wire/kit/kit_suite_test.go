package kit_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestKit(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Kit")
}
