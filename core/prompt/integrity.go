package prompt

import (
	"net/url"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/faults"
	"github.com/galaxy-stack/conform/core/port"
)

// The resume-compatibility inputs of CONTRACTS §9.8 (DECISIONS 33). Every
// hash is conform's: SHA-256 over the RFC 8785 form, "sha256:<hex>". A
// resume reassembles the prompt from the request's structured
// configuration and requires each value to equal the checkpoint's
// (RUNTIME §21.4).

// Integrity holds the prompt-side compatibility values of one run, the
// fields of a checkpoint's compatibility record that this package
// computes.
type Integrity struct {
	CapabilitiesHash       string `json:"capabilitiesHash"`
	EffectCapabilitiesHash string `json:"effectCapabilitiesHash"`
	ModelIdentity          string `json:"modelIdentity"`
	PromptHash             string `json:"promptHash"`
	PromptVersion          string `json:"promptVersion"`
	RegistrySnapshotHash   string `json:"registrySnapshotHash"`
	SystemPromptHash       string `json:"systemPromptHash"`
	TaskContractHash       string `json:"taskContractHash"`
}

// IntegrityInput holds what [NewIntegrity] needs: the validated request
// snapshot, its task contract and user-task message, the assembled prompt,
// the verified capabilities, the model identity, and the active tool set
// (for its snapshot hash and effect policy).
type IntegrityInput struct {
	Request      Request
	Contract     TaskContract
	UserTask     string
	Prompt       Snapshot
	Capabilities port.ModelCapabilities
	Identity     port.ModelIdentity
	ToolSet      port.ToolSet
}

// NewIntegrity computes every prompt-side compatibility value
// (RUNTIME §10.3 step 8).
func NewIntegrity(in IntegrityInput) Integrity {
	return Integrity{
		CapabilitiesHash:       CapabilitiesHash(in.Capabilities),
		EffectCapabilitiesHash: EffectCapabilitiesHash(in.ToolSet.EffectCapabilities),
		ModelIdentity:          ModelIdentityKey(in.Identity),
		PromptHash:             in.Prompt.PromptHash,
		PromptVersion:          in.Prompt.PromptVersion,
		RegistrySnapshotHash:   in.ToolSet.SnapshotHash,
		SystemPromptHash:       SystemPromptHash(in.Prompt.SystemPrompt),
		TaskContractHash:       TaskContractHash(in.Request, in.Contract, in.UserTask),
	}
}

// SystemPromptHash hashes the base system prompt string (without plan-mode
// guidance).
func SystemPromptHash(systemPrompt string) string { return mustHash(systemPrompt) }

// CapabilitiesHash hashes [CapabilitySnapshot] of c: probe timestamps do
// not count.
func CapabilitiesHash(c port.ModelCapabilities) string {
	// Core fault: the probe's observation time counts.
	if faults.On(faults.ProbeTimestampInResumeCompat) {
		return mustHash(c)
	}
	return mustHash(CapabilitySnapshot(c))
}

// EffectCapabilitiesHash hashes the normalized effect policy: each list
// de-duplicated and sorted (keys are sorted by the canonical form). The
// model-name mapping is validated elsewhere, not hashed.
func EffectCapabilitiesHash(policy map[string][]string) string {
	norm := make(map[string][]string, len(policy))
	for id, caps := range policy {
		list := slices.Clone(caps)
		canon.SortStrings(list)
		norm[id] = slices.Compact(nonNil(list))
	}
	return mustHash(norm)
}

// TaskContractHash hashes the task-contract snapshot of a run: {attachments
// (artifactId, contentSha256, mimeType, name, provenance, retention, trust
// of each), completion (the snapshot's requirements, {} when none),
// taskContract, userTaskMessage}. Pass the request snapshot
// ([Request.Snapshot]), so a non-coding agent profile's requireInspection
// default is included.
func TaskContractHash(r Request, c TaskContract, userTask string) string {
	completion := any(map[string]any{})
	if r.Completion != nil {
		completion = r.Completion
	}
	return mustHash(map[string]any{
		"attachments":     nonNil(r.Attachments),
		"completion":      completion,
		"taskContract":    c,
		"userTaskMessage": userTask,
	})
}

// ModelIdentityKey is the model identity key (RUNTIME §33.5): the canonical
// JSON of the public identity, whose baseUrl keeps scheme, host, port and
// path but loses user name, password, query and fragment, or is
// "[invalid-model-endpoint]" when it is not an absolute URL.
func ModelIdentityKey(id port.ModelIdentity) string {
	return mustJSON(PublicModelIdentity(id))
}

// PublicModelIdentity is id as it may be shown or recorded (RUNTIME
// §33.5): the base URL reduced as for [ModelIdentityKey], every other
// member unchanged.
func PublicModelIdentity(id port.ModelIdentity) port.ModelIdentity {
	id.BaseURL = publicBaseURL(id.BaseURL)
	return id
}

// specialPorts are the default ports of the WHATWG URL special schemes,
// which a serialized URL omits.
var specialPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}

func publicBaseURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "" && u.Scheme != "file") {
		return "[invalid-model-endpoint]"
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	if def, special := specialPorts[u.Scheme]; special {
		host := strings.ToLower(u.Hostname())
		if p := u.Port(); p != "" && p != def {
			host += ":" + p
		}
		if strings.Contains(u.Hostname(), ":") {
			host = "[" + strings.ToLower(u.Hostname()) + "]"
			if p := u.Port(); p != "" && p != def {
				host += ":" + p
			}
		}
		u.Host = host
		if u.Path == "" {
			u.Path = "/"
		}
	}
	return u.String()
}

func mustHash(v any) string {
	h, err := canon.Hash(v)
	if err != nil {
		panic("prompt: hash: " + err.Error())
	}
	return h
}
