package approval_test

import (
	"sync"
	"testing"

	"github.com/galaxy-stack/conform/core/catalog"
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

// stepClock returns t, then t+step, t+2*step, ...
type stepClock struct {
	mu      sync.Mutex
	t, step int64
}

func (c *stepClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.t
	c.t += c.step
	return now
}
