package run

import (
	"encoding/json"
	"errors"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/prompt"
)

// A Request is a run request (RUNTIME §4.1, AiCoderRunRequest): the
// request of core/prompt, which owns every rule of RUNTIME §4.2–§4.3 and the
// prompt configuration of CONTRACTS §9, with the budget typed for
// [NormalizeBudget] (RUNTIME §5). A resume request also needs RunID and may
// carry a caller checkpoint (Checkpoint, as serialized JSON) with
// CheckpointTrust "trusted_host".
//
// Budget, when non-nil, is the budget; when nil, the embedded request's
// JSON budget is read instead (a member of the wrong JSON type is a
// TypeError), and when both are absent every budget default applies.
type Request struct {
	prompt.Request
	Budget *BudgetInput `json:"budget,omitempty"`
}

// DecodeRequest decodes and validates a run request given as JSON with
// core/prompt's ParseRequest: legacy prompt fields, unknown members and
// every other rule of RUNTIME §4.2–§4.3 are refused with the original
// messages as a *RequestError. The request must name its run (runId), as a
// resume request must; build the Request in Go to let Start mint the ID.
// The budget is decoded but normalized only by Start or Resume.
func DecodeRequest(data []byte) (Request, error) {
	pr, err := prompt.ParseRequest(data, "")
	if err != nil {
		return Request{}, asRequestError(err)
	}
	req := Request{Request: pr}
	if req.Budget, err = req.budgetInput(); err != nil {
		return Request{}, err
	}
	req.Request.Budget = nil
	return req, nil
}

// budgetInput returns the typed budget, read from the embedded JSON budget
// when Budget is nil.
func (r Request) budgetInput() (*BudgetInput, error) {
	if r.Budget != nil || len(r.Request.Budget) == 0 {
		return r.Budget, nil
	}
	var b *BudgetInput
	if err := json.Unmarshal(r.Request.Budget, &b); err != nil {
		return nil, typeError("Run request has a malformed member: %v", err)
	}
	return b, nil
}

// asRequestError turns a core/prompt rejection into this package's
// *RequestError with the same kind and message; any other failure (text
// that is not JSON, a request that cannot be encoded) is a TypeError with
// the error's text.
func asRequestError(err error) *RequestError {
	var pe *prompt.RequestError
	if errors.As(err, &pe) {
		return &RequestError{Kind: pe.Kind, Message: pe.Message}
	}
	return typeError("%s", err.Error())
}

// criteria returns the initial acceptance criteria records (RUNTIME §16.8).
func (r Request) criteria() []checkpoint.Criterion {
	out := []checkpoint.Criterion{}
	for _, c := range r.AcceptanceCriteria {
		req := c.Required == nil || *c.Required
		out = append(out, checkpoint.Criterion{EvidenceIDs: []string{}, ID: c.ID, Required: req, Status: checkpoint.CriterionPending, Text: c.Text})
	}
	return out
}
