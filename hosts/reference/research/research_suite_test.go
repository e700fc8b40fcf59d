package research

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestResearch(t *testing.T) {
	suite.Run(t, "research")
}
