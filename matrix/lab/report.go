package lab

import (
	"encoding/json"

	"errors"

	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/doubles/model"
	"github.com/galaxy-stack/conform/hosts/proxy"
	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/session"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// A Report is the outcome of one fixture run: what the oracle concluded and
// what it was concluded from.
type Report struct {
	// Fixture and File name the fixture.
	Fixture string `json:"fixture"`
	File    string `json:"file"`
	// RunID is the fixture's run ID (LAB §3.1).
	RunID string `json:"runId"`
	// Host names the host implementation that served the run.
	Host wire.HostInfo `json:"host"`
	// Doubles lists what stood in for a real implementation in this run:
	// the optional tools the host serves as doubles, and "run store" or
	// "trace" when the host offers none and the harness's memory double
	// was used.
	Doubles []string `json:"doubles,omitempty"`
	// Git says whether the workspace had a Git baseline (LAB §3.4); without
	// one git.exec is not offered.
	Git bool `json:"git"`
	// Status and ErrorCode are the final status and error code.
	Status    string  `json:"status"`
	ErrorCode *string `json:"errorCode"`
	// ErrorMessage is the final error's message, "" when there is none.
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Passed is true when the oracle found no failure.
	Passed bool `json:"passed"`
	// NotApplicable, when set, says why the host cannot serve the fixture
	// at all (for example a full_contract fixture on a host without the
	// optional tools); the fixture then fails with that reason.
	NotApplicable string `json:"notApplicable,omitempty"`
	// Faults are the faults the fault proxy injected for the fixture's
	// conform.faults rules, in order.
	Faults []proxy.Fault `json:"faults,omitempty"`
	// PromptInput says where the run request's prompt configuration came
	// from: PromptInputHost (the host's initialize answer carried one) or
	// PromptInputDefaults (the harness's own, LAB §3.8).
	PromptInput string `json:"promptInput,omitempty"`
	// HostPromptInput is the promptInput of the host's initialize answer,
	// as sent; PromptSnapshots are the payloads of the run's
	// prompt_snapshot trace events (promptHash, systemPromptHash, …), in
	// order. Checks read them; reports leave them out.
	HostPromptInput json.RawMessage   `json:"-"`
	PromptSnapshots []json.RawMessage `json:"-"`
	// Refusal, when set, is the core refusing the run request before the
	// first model request; Status is then StatusRefused (or the status of
	// the execution before a refused resume request).
	Refusal *Refusal `json:"refusal,omitempty"`
	// Failures are the failed assertions in the oracle's order, then any
	// host failure.
	Failures []oracle.Failure `json:"failures"`
	// ExpectedFailures are oracle failures a txtar scenario's script
	// expected ("! conform-run"): evidence, not the verdict (package
	// scenariofile).
	ExpectedFailures []oracle.Failure `json:"expectedFailures,omitempty"`
	// Observed is the record the oracle checked.
	Observed *oracle.Observed `json:"observed,omitempty"`
	// Transcript is the ordered record of the run's runtime events.
	Transcript []Entry `json:"transcript,omitempty"`
	// ModelRequests summarizes every round request the scripted model
	// received, in order (tools offered, tool-free or not, whether the task
	// was in it, the checkpoint hashes it showed).
	ModelRequests []model.RequestRecord `json:"modelRequests,omitempty"`
	// CheckpointAudits holds the structural audit of every persisted
	// checkpoint, in save order (LAB §3.10).
	CheckpointAudits []CheckpointAudit `json:"checkpointAudits"`
	// Checkpoints are the persisted checkpoints that decode, in save
	// order, for matrix items that check what a checkpoint holds; they
	// carry absolute paths and are not reported.
	Checkpoints []checkpoint.Checkpoint `json:"-"`
	// ModelContext is the model-context audit (LAB §3.10): every request
	// contained the task, and the saved checkpoint hashes the model was
	// shown. Nil when no execution ran.
	ModelContext *ModelContextAudit `json:"modelContextAudit,omitempty"`
	// TraceFlushes counts the successful trace flushes (LAB §5).
	TraceFlushes int `json:"traceFlushes"`
	// CommandContainment is the command-containment status the first host
	// process reported at initialize (LAB §13.3), nil when it reported
	// none.
	CommandContainment *wire.Containment `json:"commandContainment,omitempty"`
	// ReplayHash is the SHA-256 of the JCS form of the run's normalized
	// transcript (package replay); lab leaves it empty, the command line
	// fills it in.
	ReplayHash string `json:"replayHash,omitempty"`
	// Workspace is the workspace directory, set only when it was kept.
	Workspace string `json:"workspace,omitempty"`
	// HostFailure says how the host itself failed the run, whatever the
	// oracle then found: "" when it did not, HostFailedSchema when it sent
	// a message that fails its schema, HostFailedTransport when it exited,
	// hung up, sent something that is not JSON-RPC or would not shut down.
	HostFailure string `json:"hostFailure,omitempty"`
	// HostStderr is the tail of the host's standard error, kept when the
	// host broke the protocol.
	HostStderr string `json:"hostStderr,omitempty"`
	// Incidents are what conform had to do to the fixture's host
	// processes: kill one that ignored shutdown, kill descendants it left
	// running, note output after shutdown.
	Incidents []string `json:"incidents,omitempty"`
	// Allowances are the calls of process-spawning tools that ran without
	// verified command containment because the user allowed it
	// (AllowUncontainedCommands), in call order.
	Allowances []string `json:"allowances,omitempty"`
	// InitialFiles are the identities of the workspace's regular files
	// after arrangement, before the first execution: matrix items compare
	// them with the files after the run (a rejected mutation keeps its
	// target's inode). They depend on the machine and are not reported.
	InitialFiles snapshot.Identities `json:"-"`
	// Wire is every JSON-RPC message between the harness and the
	// fixture's host processes, in order, as the harness's side of the
	// connection saw it: the fault proxy, when the fixture declares
	// faults, sits between it and the host (see Faults). Lines carry
	// absolute paths and are not reported.
	Wire []WireMessage `json:"-"`
	// Approvals are the approval requests the harness answered, host
	// process by host process, in order.
	Approvals []session.Approval `json:"-"`
}

// How a host failed a run (Report.HostFailure).
const (
	HostFailedSchema    = "schema"
	HostFailedTransport = "transport"
)

// hostFailureOf classifies err, a host's broken connection: a message
// that fails its schema names the offending field; anything else broke
// the transport.
func hostFailureOf(err error) string {
	var pe *wire.ProtocolError
	if errors.As(err, &pe) && pe.Pointer != "" {
		return HostFailedSchema
	}
	return HostFailedTransport
}

// A WireMessage is one JSON-RPC message of a fixture run.
type WireMessage struct {
	// Process is the host process: 1 for the first, 2 for the one a
	// fresh-host resume started, and so on.
	Process int
	// Sent is true for a message the harness sent to the host.
	Sent bool
	// Line is the message as sent on the wire, without its newline.
	Line []byte
}

// A CampaignReport is the outcome of a campaign (LAB §7.4).
type CampaignReport struct {
	// Path is the campaign's directory as given.
	Path string `json:"path"`
	// PlannedStages names every stage in run order.
	PlannedStages []string `json:"plannedStages"`
	// Stages are the reports of the stages that ran.
	Stages []StageReport `json:"stages"`
	// CompletedStages is the number of stages that ran.
	CompletedStages int `json:"completedStages"`
	// Failures are the failures of the stage that stopped the campaign,
	// each "stage <n> (<name>): <message>".
	Failures []string `json:"failures"`
	// Passed is true when every stage ran and met its oracle.
	Passed bool `json:"passed"`
	// Workspace is the shared workspace, set only when it was kept.
	Workspace string `json:"workspace,omitempty"`
}

// A StageReport is one stage of a campaign.
type StageReport struct {
	// Stage names it: "stage <n> (<name>)".
	Stage string `json:"stage"`
	// Negative is true when the stage expects a failed, canceled or paused
	// status; it passes when it gets what it expects.
	Negative bool    `json:"negative"`
	Report   *Report `json:"report"`
}
