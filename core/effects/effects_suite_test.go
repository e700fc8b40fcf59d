package effects_test

import (
	"testing"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/internal/toolfacts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestEffects(t *testing.T) {
	suite.Run(t, "core/effects")
}

func refs(tools []toolfacts.Fact) []effects.ToolRef {
	out := make([]effects.ToolRef, len(tools))
	for i, t := range tools {
		out[i] = effects.ToolRef{ID: t.ID, ModelName: t.ModelName}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// codeAndMessage extracts the code and message of an *effects.Error.
func codeAndMessage(err error) (string, string) {
	GinkgoHelper()
	Expect(err).To(HaveOccurred())
	var e *effects.Error
	Expect(err).To(BeAssignableToTypeOf(e))
	e = err.(*effects.Error)
	return e.Code, e.Message
}

// failWith asserts err is a TOOL_EXECUTION *effects.Error with message msg.
func failWith(err error, msg string) {
	GinkgoHelper()
	code, got := codeAndMessage(err)
	Expect(code).To(Equal("TOOL_EXECUTION"))
	Expect(got).To(Equal(msg))
}
