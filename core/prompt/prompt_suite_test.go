package prompt_test

import (
	"flag"
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

var update = flag.Bool("update", false, "update golden test files in testdata (the user-task golden)")

func TestPrompt(t *testing.T) {
	suite.Run(t, "core/prompt")
}
