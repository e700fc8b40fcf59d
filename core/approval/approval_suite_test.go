package approval_test

import (
	"testing"
	"time"

	"github.com/galaxy-stack/conform/core/catalog"
	"github.com/galaxy-stack/conform/doubles/clock"
	"github.com/galaxy-stack/conform/internal/suite"
	"github.com/galaxy-stack/conform/internal/toolfacts"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestApproval(t *testing.T) {
	suite.Run(t, "core/approval")
}

func loadTools() []catalog.Descriptor {
	GinkgoHelper()
	facts := toolfacts.All()
	Expect(facts).To(HaveLen(21))
	out := make([]catalog.Descriptor, len(facts))
	for i, f := range facts {
		out[i] = catalog.Descriptor{ID: f.ID, ModelName: f.ModelName, Mutability: f.Mutability, Risk: f.Risk,
			Transport: f.Transport, Permissions: f.Permissions, EnabledByDefault: f.EnabledByDefault}
	}
	return out
}

func tool(id string) catalog.Descriptor {
	GinkgoHelper()
	for _, d := range loadTools() {
		if d.ID == id {
			return d
		}
	}
	Fail("no tool " + id)
	return catalog.Descriptor{}
}

var allPermissions = []string{"core.artifacts", "core.storage", "fs.workspace", "network.outbound",
	"preview.local", "process.execute", "user.interaction"}

// stepClock reads t, then t+step, t+2*step, ... (in milliseconds).
func stepClock(t int64, step time.Duration) *clock.Fake {
	c := clock.NewFake(t)
	c.SetStep(step)
	return c
}
