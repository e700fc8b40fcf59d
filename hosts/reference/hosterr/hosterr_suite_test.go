package hosterr_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestHostErr(t *testing.T) {
	suite.Run(t, "hosterr")
}
