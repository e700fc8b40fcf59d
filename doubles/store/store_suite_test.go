package store_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestStore(t *testing.T) {
	suite.Run(t, "store")
}
