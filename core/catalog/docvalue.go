package catalog

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/galaxy-stack/conform/core/schema"
)

// documentValue returns the registry document {"schemaVersion":"2.0.0",
// "tools":descriptors} in the form the validator is given after encoding
// a [Document] as JSON and decoding it again, built from the descriptors
// without that round trip: every field under its JSON name, omitempty
// fields left out when empty, nil slices and maps as null, integers as
// json.Number. ok is false when a descriptor holds a value
// [schema.Decoded] does not take; the caller then encodes the document.
// TestDocumentValueIsTheDecodedText checks this walk against the round
// trip.
func documentValue(descriptors []Descriptor) (any, bool) {
	return documentValueOf(descriptors, schemasByType)
}

// documentValueOf is documentValue, with the descriptors' schemas handed
// over as they are when byType is set (see schemaValue).
func documentValueOf(descriptors []Descriptor, byType bool) (any, bool) {
	tools := make([]any, len(descriptors))
	for i, d := range descriptors {
		t, ok := descriptorValue(d, byType)
		if !ok {
			return nil, false
		}
		tools[i] = t
	}
	return map[string]any{"schemaVersion": SchemaVersion, "tools": tools}, true
}

func descriptorValue(d Descriptor, byType bool) (map[string]any, bool) {
	for _, s := range [...]string{d.ID, d.ModelName, d.Version, d.Title, d.Description, d.Category,
		d.Transport, d.Risk, d.Mutability, d.Idempotency, d.Source.Owner, d.Source.ExtensionID, d.Source.ServerID} {
		if !utf8.ValidString(s) {
			return nil, false
		}
	}
	in, ok1 := schemaValue(d.InputSchema, byType)
	out, ok2 := schemaValue(d.OutputSchema, byType)
	perms, ok3 := schema.Strings(d.Permissions)
	accepts, ok4 := schema.Strings(d.Modalities.Accepts)
	produces, ok5 := schema.Strings(d.Modalities.Produces)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil, false
	}
	modalities := map[string]any{"accepts": accepts, "produces": produces}
	if len(d.Modalities.RequiredModelCapabilities) > 0 {
		caps, ok := schema.Strings(d.Modalities.RequiredModelCapabilities)
		if !ok {
			return nil, false
		}
		modalities["requiredModelCapabilities"] = caps
	}
	source := map[string]any{"owner": d.Source.Owner}
	if d.Source.ExtensionID != "" {
		source["extensionId"] = d.Source.ExtensionID
	}
	if d.Source.ServerID != "" {
		source["serverId"] = d.Source.ServerID
	}
	return map[string]any{
		"id":                   d.ID,
		"modelName":            d.ModelName,
		"version":              d.Version,
		"title":                d.Title,
		"description":          d.Description,
		"category":             d.Category,
		"transport":            d.Transport,
		"inputSchema":          in,
		"outputSchema":         out,
		"permissions":          perms,
		"risk":                 d.Risk,
		"mutability":           d.Mutability,
		"idempotency":          d.Idempotency,
		"timeoutMs":            intNumber(d.TimeoutMs),
		"maxOutputBytes":       intNumber(d.MaxOutputBytes),
		"maxOutputTokens":      intNumber(d.MaxOutputTokens),
		"supportsPagination":   d.SupportsPagination,
		"supportsCancellation": d.SupportsCancellation,
		"enabledByDefault":     d.EnabledByDefault,
		"modalities":           modalities,
		"source":               source,
	}, true
}

func intNumber(n int) json.Number { return json.Number(strconv.Itoa(n)) }

// schemaValue is a descriptor's input or output schema as the validator is
// to see it: its decoded form or, when the registry schema judges it by
// its JSON type alone, the map itself (or null for a nil map), once
// [schema.Takes] finds that it encodes.
func schemaValue(m map[string]any, byType bool) (any, bool) {
	if !byType {
		return schema.Decoded(m)
	}
	if m == nil {
		return nil, true
	}
	return m, schema.Takes(m)
}
