package doubles_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/core/schema"
	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/doubles"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/gomega"
)

// TestMain lets the test binary act as the containment probe's in-sandbox
// helper: the reference host probes its backend by re-executing its binary.
func TestMain(m *testing.M) { suite.Main(m, builtin.MaybeServeTest) }

func TestHost(t *testing.T) {
	suite.Run(t, "hosts/doubles")
}

// call runs one double and checks what every result must satisfy: the
// envelope and effect checks of the core, and for a success the tool's
// output schema.
func call(t *doubles.Tools, id string, args map[string]any) port.ToolResult {
	r, err := t.Execute(context.Background(), id, args)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	caps, _ := effects.CoreCapabilities(id)
	d, _ := catalog.ByID(id)
	ExpectWithOffset(1, effects.CheckResult(r, effects.Expect{
		ModelName: d.ModelName, CanonicalToolID: id, Mode: port.ModeAuto, Capabilities: caps,
	})).To(Succeed())
	if r.OK {
		ExpectWithOffset(1, schema.Validate(d.OutputSchema, decode(r.Content))).To(Succeed(), r.Content)
	}
	return r
}

// ok runs a call that must succeed and returns its decoded output.
func ok(t *doubles.Tools, id string, args map[string]any) (port.ToolResult, map[string]any) {
	r := call(t, id, args)
	ExpectWithOffset(1, r.OK).To(BeTrue(), r.Content)
	ExpectWithOffset(1, r.Summary).To(ContainSubstring("eterministic"))
	return r, decode(r.Content).(map[string]any)
}

// fails runs a call that must fail with code and returns its message.
func fails(t *doubles.Tools, id string, args map[string]any, code string) string {
	r := call(t, id, args)
	ExpectWithOffset(1, r.OK).To(BeFalse(), r.Content)
	ExpectWithOffset(1, r.Error.Code).To(Equal(code))
	ExpectWithOffset(1, r.Effects).To(BeNil())
	ExpectWithOffset(1, r.Content).To(MatchJSON(`{"ok":false,"error":{"code":"` + code + `","message":` + quoteJSON(r.Error.Message) + `,"retryable":false}}`))
	return r.Error.Message
}

func decode(s string) any {
	var v any
	ExpectWithOffset(2, json.Unmarshal([]byte(s), &v)).To(Succeed())
	return v
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
