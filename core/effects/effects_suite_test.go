package effects_test

import (
	"flag"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/internal/toolfacts"
)

var update = flag.Bool("update", false, "rewrite testdata/profile.golden from the core profile")

func TestEffects(t *testing.T) {
	suite.Run(t, "core/effects")
}

func loadTools() []toolfacts.Fact {
	GinkgoHelper()
	tools := toolfacts.All()
	Expect(tools).To(HaveLen(21))
	return tools
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
