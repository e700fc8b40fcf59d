package kit

import (
	"strings"

	"github.com/galaxy-stack/conform/core/checkpoint"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// FirstCheckpointOf returns the first stored checkpoint of reason, read
// back through a fresh host: of a run paused twice, the pause before the
// resume. ok is false when the host offers no store (the spec's remaining
// store assertions are skipped and reported unchecked); a host whose store
// holds no such checkpoint fails the spec.
func (o *Outcome) FirstCheckpointOf(reason string) (cp checkpoint.Checkpoint, ok bool) {
	GinkgoHelper()
	if !o.TestContext.Host().Initialized().Capabilities.Store {
		Unchecked(o.File + ": the first " + reason + " checkpoint a fresh host reads back (capabilities.store is false: conform's memory store stood in)")
		return checkpoint.Checkpoint{}, false
	}
	for _, c := range o.storedCheckpoints() {
		if string(c.Reason) == reason {
			return c, true
		}
	}
	Fail(o.File + ": a fresh host on the run's store holds no " + reason + " checkpoint; the host acknowledged a checkpoint it did not make durable")
	return checkpoint.Checkpoint{}, false
}

// RejectionCodes returns the issue codes of every completion rejection of
// the run, in order: the core words each issue "CODE: detail", and only the
// code is the contract's.
func (o *Outcome) RejectionCodes() [][]string {
	out := make([][]string, len(o.Observed.CompletionRejections))
	for i, issues := range o.Observed.CompletionRejections {
		for _, is := range issues {
			code, _, _ := strings.Cut(is, ":")
			out[i] = append(out[i], strings.TrimSpace(code))
		}
	}
	return out
}

// ExecuteCountIn returns the number of tool/execute requests host process
// process received.
func (o *Outcome) ExecuteCountIn(process int) int {
	GinkgoHelper()
	n := 0
	for _, c := range o.Executes() {
		if c.Process == process {
			n++
		}
	}
	return n
}

// ValidationStatuses returns the statuses the host attested in the
// validations of callID's result, by validation ID. The spec fails when
// the result carries no effects.
func (o *Outcome) ValidationStatuses(callID string) map[string]string {
	GinkgoHelper()
	r := o.Answer(callID)
	Expect(r.Effects).NotTo(BeNil(), "%s: the host's result of %s attests no effects; a validation must attest its status", o.File, callID)
	out := map[string]string{}
	for _, v := range r.Effects.Validations {
		out[v.ID] = v.Status
	}
	return out
}
