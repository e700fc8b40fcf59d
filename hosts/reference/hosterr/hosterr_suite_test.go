package hosterr_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestHostErr(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "hosterr")
}
