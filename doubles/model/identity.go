package model

import "github.com/galaxy-stack/conform/core/port"

// Capability snapshot defaults of the scripted model (LAB §8.1).
const (
	DefaultContextWindow   = 128000
	DefaultMaxOutputTokens = 8192
)

// Identity is the identity every scripted double reports (LAB §8.1). It is
// a copy for reference: changing it has no effect on any double.
var Identity = scriptedIdentity()

func scriptedIdentity() port.ModelIdentity {
	return port.ModelIdentity{
		BaseURL:        "fixture://local",
		Model:          "scripted-v1",
		Provider:       "galaxy-fixture",
		RuntimeVersion: "1",
	}
}

// epochTimestamp is the observedAt of the double's capability evidence.
const epochTimestamp = "1970-01-01T00:00:00.000Z"

// scriptedCapabilities returns the capability snapshot of LAB §8.1 with the
// given context window and output limit.
func scriptedCapabilities(contextWindow, maxOutputTokens int) port.ModelCapabilities {
	return port.ModelCapabilities{
		Evidence: []port.CapabilityEvidence{{
			ObservedAt: epochTimestamp,
			Source:     port.EvidenceStaticFallback,
			Verified:   true,
		}},
		Identity: scriptedIdentity(),
		Input: port.InputCapabilities{
			Audio: port.CapabilityUnsupported,
			Image: port.CapabilityUnsupported,
			Text:  port.CapabilitySupported,
			Video: port.CapabilityUnsupported,
		},
		Output: port.OutputCapabilities{
			Image: port.CapabilityUnsupported,
			Text:  port.CapabilitySupported,
		},
		ParallelToolCalling: port.CapabilitySupported,
		PreserveThinking:    port.CapabilitySupported,
		Streaming:           port.CapabilitySupported,
		StructuredOutput:    port.CapabilitySupported,
		TokenCounting:       port.CapabilitySupported,
		ToolCalling:         port.CapabilitySupported,
		Thinking:            port.ThinkingOptional,
		ContextWindow:       &contextWindow,
		MaxOutputTokens:     &maxOutputTokens,
	}
}
