package prompt_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestPrompt(t *testing.T) {
	suite.Run(t, "core/prompt")
}
