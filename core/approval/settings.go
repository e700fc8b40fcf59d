package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// Settings are the versioned core settings of a single-agent host
// (CONTRACTS §10.4). They hold the approval profile a host starts with.
type Settings struct {
	ExecutionMode string      `json:"executionMode"`
	Safety        Safety      `json:"safety"`
	SchemaVersion int         `json:"schemaVersion"`
	SingleAgent   SingleAgent `json:"singleAgent"`
}

// Safety holds the approval profile.
type Safety struct {
	ApprovalProfile Profile `json:"approvalProfile"`
}

// SingleAgent holds the model and loop settings of the single agent.
type SingleAgent struct {
	BaseURL              string  `json:"baseUrl"`
	CredentialSource     string  `json:"credentialSource"`
	MaxParallelToolCalls int     `json:"maxParallelToolCalls"`
	MaxRetries           int     `json:"maxRetries"`
	MaxToolCalls         int     `json:"maxToolCalls"`
	MaxToolRounds        int     `json:"maxToolRounds"`
	MaxTurns             int     `json:"maxTurns"`
	Model                string  `json:"model"`
	PreserveThinking     bool    `json:"preserveThinking"`
	Provider             string  `json:"provider"`
	RequestTimeoutMs     int     `json:"requestTimeoutMs"`
	Temperature          float64 `json:"temperature"`
	TokenProfile         string  `json:"tokenProfile"`
}

// SettingsSchemaVersion is the only accepted settings schema version.
const SettingsSchemaVersion = 2

var (
	credentialSources = []string{"manual-config", "secret-handle"}
	providers         = []string{"anthropic", "openai", "gemini", "ollama", "openai-compatible", "host"}
	tokenProfiles     = []string{"balanced", "conservative", "extended"}
)

// DefaultSettings returns the default settings: balanced approval, the
// ollama provider and the loop limits of CONTRACTS §10.4.
func DefaultSettings() Settings {
	return Settings{
		ExecutionMode: "single",
		Safety:        Safety{ApprovalProfile: DefaultProfile},
		SchemaVersion: SettingsSchemaVersion,
		SingleAgent: SingleAgent{
			BaseURL:              "https://ollama.com",
			CredentialSource:     "manual-config",
			MaxParallelToolCalls: 1,
			MaxRetries:           3,
			MaxToolCalls:         48,
			MaxToolRounds:        24,
			MaxTurns:             24,
			Model:                "deepseek-v4.1-flash:cloud",
			PreserveThinking:     true,
			Provider:             "ollama",
			RequestTimeoutMs:     180000,
			Temperature:          0,
			TokenProfile:         "balanced",
		},
	}
}

// Validate reports the first rule s breaks, naming the field: schema
// version 2; execution mode "single" (there is no multi-agent mode); a
// known approval profile; a non-empty base URL and model; a known
// credential source, provider and token profile; positive
// maxParallelToolCalls, maxToolCalls, maxToolRounds, maxTurns and
// requestTimeoutMs; maxRetries ≥ 0; a finite temperature in 0..2.
func (s Settings) Validate() error {
	a := s.SingleAgent
	checks := []struct {
		ok    bool
		field string
		rule  string
	}{
		{s.SchemaVersion == SettingsSchemaVersion, "schemaVersion", "must be 2"},
		{s.ExecutionMode == "single", "executionMode", `must be "single"`},
		{slices.Contains(Profiles(), s.Safety.ApprovalProfile), "safety.approvalProfile", "must be strict, balanced or trusted-workspace"},
		{a.BaseURL != "", "singleAgent.baseUrl", "must be a non-empty string"},
		{slices.Contains(credentialSources, a.CredentialSource), "singleAgent.credentialSource", "must be manual-config or secret-handle"},
		{a.MaxParallelToolCalls > 0, "singleAgent.maxParallelToolCalls", "must be a positive integer"},
		{a.MaxRetries >= 0, "singleAgent.maxRetries", "must be an integer >= 0"},
		{a.MaxToolCalls > 0, "singleAgent.maxToolCalls", "must be a positive integer"},
		{a.MaxToolRounds > 0, "singleAgent.maxToolRounds", "must be a positive integer"},
		{a.MaxTurns > 0, "singleAgent.maxTurns", "must be a positive integer"},
		{a.Model != "", "singleAgent.model", "must be a non-empty string"},
		{slices.Contains(providers, a.Provider), "singleAgent.provider", "must be a known provider"},
		{a.RequestTimeoutMs > 0, "singleAgent.requestTimeoutMs", "must be a positive integer"},
		{!math.IsNaN(a.Temperature) && a.Temperature >= 0 && a.Temperature <= 2, "singleAgent.temperature", "must be a number in 0..2"},
		{slices.Contains(tokenProfiles, a.TokenProfile), "singleAgent.tokenProfile", "must be balanced, conservative or extended"},
	}
	for _, c := range checks {
		if !c.ok {
			return fmt.Errorf("approval: settings field %q %s", c.field, c.rule)
		}
	}
	return nil
}

// ParseSettings decodes untrusted settings JSON and validates it as the
// original's isAiCoderCoreSettings guard does: every field must be present
// with its JSON type (integers as integral numbers), then Validate applies.
// Fields it does not know are ignored.
func ParseSettings(data []byte) (Settings, error) {
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return Settings{}, fmt.Errorf("approval: settings are not a JSON object")
	}
	safety, _ := raw["safety"].(map[string]any)
	agent, _ := raw["singleAgent"].(map[string]any)
	if safety == nil {
		return Settings{}, fmt.Errorf("approval: settings field %q must be an object", "safety")
	}
	if agent == nil {
		return Settings{}, fmt.Errorf("approval: settings field %q must be an object", "singleAgent")
	}
	var s Settings
	var err error
	str := func(m map[string]any, key, field string, dst *string) {
		if err != nil {
			return
		}
		v, ok := m[key].(string)
		if !ok {
			err = fmt.Errorf("approval: settings field %q must be a string", field)
		}
		*dst = v
	}
	integer := func(m map[string]any, key, field string, dst *int) {
		if err != nil {
			return
		}
		n, ok := m[key].(json.Number)
		f, ferr := n.Float64()
		if !ok || ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			err = fmt.Errorf("approval: settings field %q must be an integer", field)
			return
		}
		*dst = int(f)
	}
	if err == nil {
		integer(raw, "schemaVersion", "schemaVersion", &s.SchemaVersion)
	}
	str(raw, "executionMode", "executionMode", &s.ExecutionMode)
	var profile string
	str(safety, "approvalProfile", "safety.approvalProfile", &profile)
	s.Safety.ApprovalProfile = Profile(profile)
	a := &s.SingleAgent
	str(agent, "baseUrl", "singleAgent.baseUrl", &a.BaseURL)
	str(agent, "credentialSource", "singleAgent.credentialSource", &a.CredentialSource)
	integer(agent, "maxParallelToolCalls", "singleAgent.maxParallelToolCalls", &a.MaxParallelToolCalls)
	integer(agent, "maxRetries", "singleAgent.maxRetries", &a.MaxRetries)
	integer(agent, "maxToolCalls", "singleAgent.maxToolCalls", &a.MaxToolCalls)
	integer(agent, "maxToolRounds", "singleAgent.maxToolRounds", &a.MaxToolRounds)
	integer(agent, "maxTurns", "singleAgent.maxTurns", &a.MaxTurns)
	str(agent, "model", "singleAgent.model", &a.Model)
	if err == nil {
		b, ok := agent["preserveThinking"].(bool)
		if !ok {
			err = fmt.Errorf("approval: settings field %q must be a boolean", "singleAgent.preserveThinking")
		}
		a.PreserveThinking = b
	}
	str(agent, "provider", "singleAgent.provider", &a.Provider)
	integer(agent, "requestTimeoutMs", "singleAgent.requestTimeoutMs", &a.RequestTimeoutMs)
	if err == nil {
		n, ok := agent["temperature"].(json.Number)
		f, ferr := n.Float64()
		if !ok || ferr != nil {
			err = fmt.Errorf("approval: settings field %q must be a number", "singleAgent.temperature")
		}
		a.Temperature = f
	}
	str(agent, "tokenProfile", "singleAgent.tokenProfile", &a.TokenProfile)
	if err != nil {
		return Settings{}, err
	}
	if err := s.Validate(); err != nil {
		return Settings{}, err
	}
	return s, nil
}
