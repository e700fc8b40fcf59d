package jsonrpc_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestJSONRPC(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "JSONRPC")
}
