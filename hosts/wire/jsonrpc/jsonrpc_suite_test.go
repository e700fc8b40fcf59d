package jsonrpc_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestJSONRPC(t *testing.T) {
	suite.Run(t, "JSONRPC")
}
