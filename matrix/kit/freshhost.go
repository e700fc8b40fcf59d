package kit

import (
	"context"
	"encoding/json"
	"time"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/session"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// freshHostTimeout bounds one fresh host's start and its store reads.
const freshHostTimeout = 30 * time.Second

// FreshHost starts a new process of the host under test on the run's
// workspace and store directory, as a fresh-host resume would, and shuts
// it down when the spec ends. edit, if not nil, edits its initialize
// parameters. What a check reads through it is what the host made durable,
// not what the process that served the run still held in memory.
func (o *Outcome) FreshHost(edit func(*wire.InitializeParams)) *session.Host {
	GinkgoHelper()
	t := o.TestContext.Host()
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	h, err := session.StartHost(ctx, session.HostConfig{Argv: t.Argv, Workspace: o.Workspace, StoreDir: o.Store,
		PassEnv: t.Env, EditInitialize: edit})
	Expect(err).NotTo(HaveOccurred(), "%s: a fresh host process on the run's store does not start", o.File)
	DeferCleanup(func() { _ = h.Close() })
	return h
}

// HasStore reports whether h, a fresh host process of the host under
// test, offers a store. When it does not, conform's memory store stood in
// and nothing of the host's is durable: HasStore records that the spec's
// checks of what the host made durable were not made (Unchecked), so the
// item says so.
func (o *Outcome) HasStore(h *session.Host) bool {
	GinkgoHelper()
	if h.Init.Capabilities.Store {
		return true
	}
	Unchecked(o.File + ": what a fresh host reads back from the host's store (capabilities.store is false: conform's memory store stood in)")
	return false
}

// storedCheckpoints reads every checkpoint of the run back through a fresh
// host, in put order, decoded. It skips the spec's remaining assertions
// about the store when the host offers none (the harness's memory double
// stood in; nothing of the host's is durable).
func (o *Outcome) storedCheckpoints() []checkpoint.Checkpoint {
	GinkgoHelper()
	h := o.FreshHost(nil)
	if !o.HasStore(h) {
		return nil
	}
	ctx, cancel := context.WithTimeout(o.Ctx(), freshHostTimeout)
	defer cancel()
	docs, err := h.Checkpoints(ctx, o.RunID)
	Expect(err).NotTo(HaveOccurred(), "%s: a fresh host cannot list the run's checkpoints", o.File)
	out := make([]checkpoint.Checkpoint, len(docs))
	for i, d := range docs {
		Expect(json.Unmarshal(d, &out[i])).To(Succeed(), "%s: stored checkpoint %d does not decode", o.File, i+1)
	}
	return out
}

// CheckpointOf returns the last stored checkpoint of reason, failing the
// spec when the fresh host holds none. ok is false when the host offers no
// store.
func (o *Outcome) CheckpointOf(reason string) (cp checkpoint.Checkpoint, ok bool) {
	GinkgoHelper()
	if !o.TestContext.Host().Initialized().Capabilities.Store {
		Unchecked(o.File + ": the " + reason + " checkpoint a fresh host reads back (capabilities.store is false: conform's memory store stood in)")
		return checkpoint.Checkpoint{}, false
	}
	cps := o.storedCheckpoints()
	for i := len(cps) - 1; i >= 0; i-- {
		if string(cps[i].Reason) == reason {
			return cps[i], true
		}
	}
	var reasons []string
	for _, c := range cps {
		reasons = append(reasons, string(c.Reason))
	}
	Fail(o.File + ": a fresh host on the run's store holds no " + reason + " checkpoint (it holds " + join(reasons) + "); the host acknowledged a checkpoint it did not make durable")
	return checkpoint.Checkpoint{}, false
}

func join(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	out := s[0]
	for _, x := range s[1:] {
		out += ", " + x
	}
	return out
}
