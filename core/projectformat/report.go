package projectformat

import (
	"encoding/json"
	"fmt"
)

// StateChanged is the three-state mutation truth of a job or a file.
type StateChanged string

// The three mutation states. Their JSON forms are true, false and
// "unknown".
const (
	Changed   StateChanged = "true"
	Unchanged StateChanged = "false"
	Unknown   StateChanged = "unknown"
)

// MarshalJSON writes true, false or "unknown"; the zero value is unknown.
func (s StateChanged) MarshalJSON() ([]byte, error) {
	switch s {
	case Changed:
		return []byte("true"), nil
	case Unchanged:
		return []byte("false"), nil
	}
	return []byte(`"unknown"`), nil
}

// UnmarshalJSON reads true, false or "unknown" and refuses anything else.
func (s *StateChanged) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true":
		*s = Changed
	case "false":
		*s = Unchanged
	case `"unknown"`:
		*s = Unknown
	default:
		return fmt.Errorf("stateChanged must be true, false or \"unknown\", not %s", b)
	}
	return nil
}

// Known reports whether s is a complete, verified outcome (true or false).
func (s StateChanged) Known() bool { return s == Changed || s == Unchanged }

// File outcomes.
const (
	FileUnchanged    = "unchanged"     // the candidate equals the original: no write
	FileWritten      = "written"       // the guarded write committed and was verified
	FileFailed       = "failed"        // refused or failed before any write attempt
	FileNotAttempted = "not_attempted" // the job stopped before this file
	FileUnknown      = "unknown"       // a write attempt whose result is not known
)

// FileReport is one selected file's line of the report.
type FileReport struct {
	Path         string       `json:"path"`
	Outcome      string       `json:"outcome"`
	StateChanged StateChanged `json:"stateChanged"`
}

// Job statuses.
const (
	StatusRunning   = "running"   // created, not finished; after a restart it stays unknown
	StatusSucceeded = "succeeded" // every file known, no failure
	StatusFailed    = "failed"    // refused or failed; StateChanged says whether anything changed
)

// Job is the durable record of one project.format call. It is written
// before execution and rewritten when the job ends; the tool result and
// job/observe project the same record.
type Job struct {
	JobID        string       `json:"jobId"`
	CallID       string       `json:"callId"`
	Status       string       `json:"status"`
	Adapter      string       `json:"adapter,omitempty"`
	RecipeRoot   string       `json:"recipeRoot,omitempty"`
	StateChanged StateChanged `json:"stateChanged"`
	Files        []FileReport `json:"files"`
	// Failure is the exact failure kind, set when Status is failed or the
	// outcome is unknown.
	Failure *Failure `json:"failure,omitempty"`
}

// Failure is the exact kind of a failed or unknown job and a bounded
// message.
type Failure struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Aggregate is the call's mutation truth from its files: unknown when any
// file is unknown, true when any file was written and none is unknown,
// false otherwise.
func Aggregate(files []FileReport) StateChanged {
	out := Unchanged
	for _, f := range files {
		switch f.StateChanged {
		case Changed:
			if out != Unknown {
				out = Changed
			}
		case Unchanged:
		default:
			return Unknown
		}
	}
	return out
}

// Clone returns a deep copy of j.
func (j Job) Clone() Job {
	b, _ := json.Marshal(j)
	var out Job
	_ = json.Unmarshal(b, &out)
	return out
}
