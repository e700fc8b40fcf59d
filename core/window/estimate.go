package window

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/port"
)

// A ContentKind is the class of text the estimator prices (CONTRACTS
// §12.2).
type ContentKind string

// The content kinds.
const (
	KindCode       ContentKind = "code"
	KindEnglish    ContentKind = "english"
	KindJSON       ContentKind = "json"
	KindVietnamese ContentKind = "vietnamese"
)

// ContentKinds lists every [ContentKind] in a fixed order.
func ContentKinds() []ContentKind {
	return []ContentKind{KindCode, KindEnglish, KindJSON, KindVietnamese}
}

// Estimation constants (CONTRACTS §12.2).
const (
	// EstimateOverhead multiplies every raw characters-per-token estimate.
	EstimateOverhead = 1.15
	// CalibrationMin and CalibrationMax clamp a kind's calibration factor.
	CalibrationMin = 0.5
	CalibrationMax = 2.0
	// MessageOverhead is the fixed token cost of one message.
	MessageOverhead = 6
)

// charsPerToken is the UTF-16 code units per token of each kind.
func charsPerToken(k ContentKind) float64 {
	switch k {
	case KindCode:
		return 3
	case KindVietnamese:
		return 2.5
	case KindJSON:
		return 2.8
	}
	return 4
}

// codeKeywords are the whole words that mark text as code.
var codeKeywords = []string{"const", "let", "var", "function", "class", "interface", "return", "import", "export", "def", "fn", "impl"}

var (
	vietnameseLetters = regexp.MustCompile(`(?i)[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]`)
)

// Classify returns the content kind of s: json when the trimmed text starts
// with "{" or "[" and is valid JSON; else code when it contains "=>", one of
// the whole words const let var function class interface return import
// export def fn impl, or any of "{", "}", ";"; else vietnamese when it
// contains a Vietnamese diacritic letter in either case; else english.
func Classify(s string) ContentKind {
	t := canon.TrimJSSpace(s)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return KindJSON
	}
	if hasCodeMarker(s) {
		return KindCode
	}
	if vietnameseLetters.MatchString(s) {
		return KindVietnamese
	}
	return KindEnglish
}

// hasCodeMarker reports whether s contains "=>", "{", "}", ";" or one of
// [codeKeywords] as a whole word: a maximal run of ASCII word characters
// (letters, digits, "_"), the word boundary of the original's /\b…\b/.
func hasCodeMarker(s string) bool {
	if strings.ContainsAny(s, "{};") || strings.Contains(s, "=>") {
		return true
	}
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if slices.Contains(codeKeywords, s[i:j]) {
			return true
		}
		i = j
	}
	return false
}

// isWordByte reports whether c is an ASCII word character.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// An Estimator prices text in tokens without a tokenizer (CONTRACTS §12.2).
// It keeps a calibration factor per content kind, learned from provider
// usage, and remembers which kinds it priced since the last calibration.
// The zero value is ready to use and uncalibrated. An Estimator is not safe
// for concurrent use.
type Estimator struct {
	factor   [4]float64 // 0 means 1 (uncalibrated)
	observed [4]bool
	tools    toolsMemo // the tool definitions last priced
}

func kindIndex(k ContentKind) int {
	switch k {
	case KindCode:
		return 0
	case KindEnglish:
		return 1
	case KindJSON:
		return 2
	}
	return 3
}

// Factor returns the calibration factor of kind k (1 until calibrated).
func (e *Estimator) Factor(k ContentKind) float64 {
	if f := e.factor[kindIndex(k)]; f != 0 {
		return f
	}
	return 1
}

// Text returns the token estimate of s classified by [Classify]: 0 for the
// empty string, else ceil(len16(s) / charsPerToken × 1.15 × factor). It
// marks the kind as observed for [Estimator.CalibrateObserved].
func (e *Estimator) Text(s string) int {
	if s == "" {
		return 0
	}
	return e.TextAs(s, Classify(s))
}

// TextAs is [Estimator.Text] with the kind given instead of classified.
func (e *Estimator) TextAs(s string, k ContentKind) int {
	if s == "" {
		return 0
	}
	return e.price(canon.UTF16Len(s), k)
}

// price is the token estimate of a text of kind k that is units UTF-16
// code units long; it marks the kind as observed.
func (e *Estimator) price(units int, k ContentKind) int {
	e.observed[kindIndex(k)] = true
	return int(math.Ceil(float64(units) / charsPerToken(k) * EstimateOverhead * e.Factor(k)))
}

// Serializable estimates v: a string as itself, anything else as its JSON
// text.
func (e *Estimator) Serializable(v any) int {
	return e.Text(jsonText(v))
}

// Calibrate moves kind k's factor toward actual/estimated:
// clamp(previous × 0.75 + actual/estimated × 0.25, 0.5, 2). It does nothing
// unless both counts are positive.
func (e *Estimator) Calibrate(k ContentKind, estimated, actual int) {
	if estimated <= 0 || actual <= 0 {
		return
	}
	observed := float64(actual) / float64(estimated)
	f := e.Factor(k)*0.75 + observed*0.25
	e.factor[kindIndex(k)] = math.Min(CalibrationMax, math.Max(CalibrationMin, f))
}

// CalibrateObserved calibrates every kind priced since the last call with
// the same pair of counts, then forgets them.
func (e *Estimator) CalibrateObserved(estimated, actual int) {
	for _, k := range ContentKinds() {
		if e.observed[kindIndex(k)] {
			e.Calibrate(k, estimated, actual)
		}
	}
	e.observed = [4]bool{}
}

// Messages returns the token cost of msgs (CONTRACTS §12.5): per message 6,
// plus the content, plus for an assistant message its thinking and the JSON
// of its tool calls; every message also prices an empty tool-call list
// ("[]"), as the original does.
func (e *Estimator) Messages(msgs []port.Message) int {
	sum := 0
	for _, m := range msgs {
		sum += MessageOverhead + e.Text(m.Content)
		if m.Role == "assistant" {
			sum += e.Text(m.Thinking)
		}
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			sum += e.TextAs("[]", KindJSON) // the JSON text of no tool calls, which Classify finds json
			continue
		}
		sum += e.TextAs(jsonText(normalizeCalls(m.ToolCalls)), KindJSON) // an array: Classify finds json
	}
	return sum
}

// ToolDefinitions returns the token cost of tools: their JSON text priced
// as json ([] for none). The text's length is remembered for the next call
// with equal tools.
func (e *Estimator) ToolDefinitions(tools []port.ToolDefinition) int {
	units := e.toolUnits(tools)
	if units == 0 {
		return 0
	}
	return e.price(units, KindJSON)
}

// normalizeCalls writes a nil argument map as {} like the original.
func normalizeCalls(calls []port.ToolCall) []port.ToolCall {
	for _, c := range calls {
		if c.Arguments == nil {
			out := make([]port.ToolCall, len(calls))
			for i, c := range calls {
				if c.Arguments == nil {
					c.Arguments = map[string]any{}
				}
				out[i] = c
			}
			return out
		}
	}
	return calls
}
