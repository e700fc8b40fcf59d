package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
)

// protocolFile is the hand-written protocol page whose recorded envelopes
// the generator fills in.
const protocolFile = "PROTOCOL.md"

// recordedBlock is a `<!-- recorded: NAME -->` marker and the JSON code
// block that follows it.
var recordedBlock = regexp.MustCompile("(?m)^<!-- recorded: ([a-z.-]+) -->\n```json\n[^\n]*\n```$")

// fillRecorded replaces the code block after every recorded marker of doc
// with the result member of that scenario's last answer, as the live host
// sent it.
func fillRecorded(ctx context.Context, doc []byte) ([]byte, error) {
	results := map[string]string{}
	for _, name := range sortedScenarioNames() {
		ex, err := record(ctx, name, protocolScenarios[name])
		if err != nil {
			return nil, err
		}
		r, err := resultMember(ex)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		results[name] = r
	}
	var failed error
	seen := map[string]bool{}
	out := recordedBlock.ReplaceAllFunc(doc, func(m []byte) []byte {
		name := string(recordedBlock.FindSubmatch(m)[1])
		r, ok := results[name]
		if !ok {
			failed = fmt.Errorf("%s names the recorded envelope %q, which protocolScenarios does not have", protocolFile, name)
			return m
		}
		seen[name] = true
		return []byte("<!-- recorded: " + name + " -->\n```json\n" + r + "\n```")
	})
	if failed != nil {
		return nil, failed
	}
	for name := range results {
		if !seen[name] {
			return nil, fmt.Errorf("%s has no `<!-- recorded: %s -->` block", protocolFile, name)
		}
	}
	return out, nil
}

// resultMember is the result member of the last message of ex, compact.
func resultMember(ex example) (string, error) {
	if len(ex.Lines) == 0 {
		return "", fmt.Errorf("no messages recorded")
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(ex.Lines[len(ex.Lines)-1].Text), &msg); err != nil || msg.Result == nil {
		return "", fmt.Errorf("the last message has no result")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, msg.Result); err != nil {
		return "", err
	}
	return b.String(), nil
}

func sortedScenarioNames() []string {
	names := make([]string, 0, len(protocolScenarios))
	for n := range protocolScenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
