package model_test

import (
	"testing"

	"github.com/galaxy-stack/conform/internal/suite"
)

func TestModel(t *testing.T) {
	suite.Run(t, "model")
}
