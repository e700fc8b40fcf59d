package session

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestSession(t *testing.T) {
	suite.Run(t, "session")
}
