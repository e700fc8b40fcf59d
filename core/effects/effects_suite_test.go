package effects_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
)

var update = flag.Bool("update", false, "rewrite testdata/profile.golden from the core profile")

func TestEffects(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "core/effects")
}

// toolFact is one line of testdata/tools.json: the catalog facts of
// CONTRACTS §6.2 the effect and approval rules depend on.
type toolFact struct {
	ID               string   `json:"id"`
	ModelName        string   `json:"modelName"`
	Mutability       string   `json:"mutability"`
	Risk             string   `json:"risk"`
	Transport        string   `json:"transport"`
	EnabledByDefault bool     `json:"enabledByDefault"`
	Permissions      []string `json:"permissions"`
}

func loadTools() []toolFact {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join("testdata", "tools.json"))
	Expect(err).NotTo(HaveOccurred())
	var tools []toolFact
	Expect(json.Unmarshal(data, &tools)).To(Succeed())
	Expect(tools).To(HaveLen(21))
	return tools
}

func refs(tools []toolFact) []effects.ToolRef {
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
