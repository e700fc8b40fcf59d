package kit

import (
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/run"
	"github.com/galaxy-stack/conform/doubles/model"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Saved returns the run's persisted checkpoints of reason, in save order,
// as the store the run used holds them (the host's, or conform's memory
// store when the host offers none).
func (o *Outcome) Saved(reason checkpoint.Reason) []checkpoint.Checkpoint {
	var out []checkpoint.Checkpoint
	for _, cp := range o.Checkpoints {
		if cp.Reason == reason {
			out = append(out, cp)
		}
	}
	return out
}

// RequestAfter returns the first model request the core sent after it
// saved the checkpoint cp in the run's main context (a compaction
// checkpoint: its runtime event places it among the requests). The spec
// fails when the core emitted no such checkpoint or asked the model
// nothing after it.
func (o *Outcome) RequestAfter(cp checkpoint.Checkpoint) model.RequestRecord {
	GinkgoHelper()
	for _, e := range o.Transcript {
		if e.Type != run.EventCheckpoint || e.Event == nil || e.Event.Checkpoint == nil || e.Event.Checkpoint.ContentHash != cp.ContentHash {
			continue
		}
		Expect(len(o.ModelRequests)).To(BeNumerically(">", e.ModelRequests), "%s: the core asked the model nothing after the %s checkpoint %s", o.File, cp.Reason, cp.ContentHash)
		return o.ModelRequests[e.ModelRequests]
	}
	Fail(o.File + ": the core emitted no checkpoint event for the stored " + string(cp.Reason) + " checkpoint " + cp.ContentHash)
	return model.RequestRecord{}
}

// FirstRequestOf returns the first model request of the run's execution
// number n (1-based, in transcript order). The spec fails when the run
// had fewer executions or that execution asked the model nothing.
func (o *Outcome) FirstRequestOf(n int) model.RequestRecord {
	GinkgoHelper()
	seen, at := 0, -1
	current := ""
	for _, e := range o.Transcript {
		if e.Execution != current {
			current, seen = e.Execution, seen+1
			if seen == n {
				at = e.ModelRequests
				break
			}
		}
	}
	Expect(at).NotTo(Equal(-1), "%s: the run had %d executions; execution %d never started", o.File, seen, n)
	Expect(len(o.ModelRequests)).To(BeNumerically(">", at), "%s: execution %d asked the model nothing", o.File, n)
	return o.ModelRequests[at]
}

// CarriesTaskAndCheckpoint asserts what a model request after the
// checkpoint cp must still hold: the task as the user's request (not only
// quoted in the checkpoint's data) and cp's content hash, so the model
// continues from the durable checkpoint.
func (o *Outcome) CarriesTaskAndCheckpoint(next model.RequestRecord, cp checkpoint.Checkpoint) {
	GinkgoHelper()
	Expect(next.TaskMessage).To(BeTrue(), "%s: model request %d, the first after the %s checkpoint, does not carry the task as the user's request", o.File, next.Request, cp.Reason)
	Expect(next.CheckpointHashes).To(ContainElement(cp.ContentHash), "%s: model request %d, the first after the %s checkpoint, does not carry its content hash %s (it shows %v)", o.File, next.Request, cp.Reason, cp.ContentHash, next.CheckpointHashes)
}

// KeepsTask asserts that the checkpoint cp records the run's task as its
// goal.
func (o *Outcome) KeepsTask(cp checkpoint.Checkpoint) {
	GinkgoHelper()
	Expect(cp.Goal).To(Equal(o.Task), "%s: the %s checkpoint %s does not keep the task as its goal", o.File, cp.Reason, cp.ContentHash)
}

// EditPaths returns the paths of cp's edit evidence, in order.
func EditPaths(cp checkpoint.Checkpoint) []string {
	out := []string{}
	for _, e := range cp.Edits {
		out = append(out, e.Path)
	}
	return out
}
