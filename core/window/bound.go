package window

import (
	"fmt"
	"math"

	"github.com/galaxy-stack/conform/core/port"
)

// Default tool-output limits of the runtime (CONTRACTS §12.6,
// DEFAULT_BUDGET.toolOutput).
const (
	DefaultOutputMaxBytes     = 48_000
	DefaultOutputMaxTokens    = 12_000
	DefaultOutputTailFraction = 0.25
	// MaxTailFraction caps the share of the budget given to the tail.
	MaxTailFraction = 0.5
	// boundAttempts bounds the head-shrinking loop.
	boundAttempts = 12
)

// Limits bound model-visible tool output. MaxBytes (UTF-8) and MaxTokens
// (estimated) must be finite and ≥ 1 and are floored; TailFraction is
// clamped to [0, 0.5] and defaults to 0.25 when nil.
type Limits struct {
	MaxBytes     float64
	MaxTokens    float64
	TailFraction *float64
}

// DefaultLimits returns the runtime's default limits (48000 bytes, 12000
// tokens, tail fraction 0.25).
func DefaultLimits() Limits {
	tf := DefaultOutputTailFraction
	return Limits{MaxBytes: DefaultOutputMaxBytes, MaxTokens: DefaultOutputMaxTokens, TailFraction: &tf}
}

// LimitsFromPort converts a tool result's outputLimits.
func LimitsFromPort(l port.OutputLimits) Limits {
	return Limits{MaxBytes: float64(l.MaxBytes), MaxTokens: float64(l.MaxTokens), TailFraction: l.TailFraction}
}

// An Artifact is where a spill adapter stored the complete output.
type Artifact struct {
	ID       string `json:"id"`
	MimeType string `json:"mimeType"`
}

// BoundOptions are the optional inputs of [BoundToolOutput].
type BoundOptions struct {
	// Estimator prices the output; nil uses a fresh uncalibrated one.
	Estimator *Estimator
	// Spill, when set, stores the complete output of a truncated result
	// (content type defaults to text/plain) and names the artifact in the
	// marker. Its error is returned unchanged.
	Spill func(content, contentType string) (Artifact, error)
	// ContentType is passed to Spill.
	ContentType string
}

// Bounded is a tool output as it may enter the model context.
type Bounded struct {
	Artifact       *Artifact `json:"artifact"`
	Content        string    `json:"content"`
	OriginalBytes  int       `json:"originalBytes"`
	OriginalTokens int       `json:"originalTokens"`
	ReturnedBytes  int       `json:"returnedBytes"`
	ReturnedTokens int       `json:"returnedTokens"`
	Truncated      bool      `json:"truncated"`
}

// TruncationMarker returns the text placed between head and tail: it names
// artifact://<id> when the output was spilled, else it points to
// pagination. The ellipses are U+2026.
func TruncationMarker(artifactID string) string {
	hint := " Use pagination for the complete result."
	if artifactID != "" {
		hint = " Complete output: artifact://" + artifactID + "."
	}
	return "\n…[GALAXY OUTPUT TRUNCATED." + hint + "]…\n"
}

// BoundToolOutput bounds content before it enters the model context
// (CONTRACTS §12.6). Content within both limits is returned unchanged, so
// valid JSON stays valid JSON. Otherwise the result is head + marker +
// tail: the tail is the longest suffix within tailFraction of both the
// byte and the token budget left after the marker, anchored to the end of
// the content so that the fields a tool writes last (LAB §20.2, e.g.
// "truncated":true) survive; the head is the longest prefix of the rest
// that fits what remains, shrunk up to 12 times until the whole fits.
// Invalid limits are an error.
func BoundToolOutput(content string, limits Limits, opt BoundOptions) (Bounded, error) {
	maxBytes, err := positiveLimit(limits.MaxBytes, "maxBytes")
	if err != nil {
		return Bounded{}, err
	}
	maxTokens, err := positiveLimit(limits.MaxTokens, "maxTokens")
	if err != nil {
		return Bounded{}, err
	}
	est := opt.Estimator
	if est == nil {
		est = &Estimator{}
	}
	out := Bounded{OriginalBytes: len(content), OriginalTokens: est.Text(content)}
	if out.OriginalBytes <= maxBytes && out.OriginalTokens <= maxTokens {
		out.Content, out.ReturnedBytes, out.ReturnedTokens = content, out.OriginalBytes, out.OriginalTokens
		return out, nil
	}
	artifactID := ""
	if opt.Spill != nil {
		ct := opt.ContentType
		if ct == "" {
			ct = "text/plain"
		}
		a, err := opt.Spill(content, ct)
		if err != nil {
			return Bounded{}, err
		}
		out.Artifact, artifactID = &a, a.ID
	}
	tf := DefaultOutputTailFraction
	if limits.TailFraction != nil {
		tf = *limits.TailFraction
	}
	tf = min(MaxTailFraction, max(0, tf))
	marker := TruncationMarker(artifactID)
	availBytes := max(1, maxBytes-len(marker))
	availTokens := max(1, maxTokens-est.Text(marker))

	units := units16(content)
	revTail := sliceToBudget(reverseRunes(units), max(1, int(math.Floor(float64(availBytes)*tf))),
		max(1, int(math.Floor(float64(availTokens)*tf))), est)
	tailUnits := reverseRunes(revTail)
	tail := string16(tailUnits)
	tailBytes, tailTokens := len(tail), est.Text(tail)
	var headSource []uint16
	if len(units) > len(tailUnits) {
		headSource = units[:len(units)-len(tailUnits)]
	}
	headTokens := max(0, availTokens-tailTokens)
	text := ""
	for attempt := 0; attempt < boundAttempts; attempt++ {
		headBytes := max(0, availBytes-tailBytes)
		head := ""
		if headTokens > 0 && headBytes > 0 {
			head = string16(sliceToBudget(headSource, headBytes, headTokens, est))
		}
		text = head + marker + tail
		n, b := est.Text(text), len(text)
		if n <= maxTokens && b <= maxBytes {
			break
		}
		overshoot := max(n-maxTokens, int(math.Ceil(float64(b-maxBytes)/4)))
		headTokens = max(0, headTokens-overshoot-16)
		if headTokens == 0 && head == "" {
			break
		}
	}
	out.Content, out.ReturnedBytes, out.ReturnedTokens, out.Truncated = text, len(text), est.Text(text), true
	return out, nil
}

// positiveLimit floors a finite limit ≥ 1.
func positiveLimit(v float64, field string) (int, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 1 {
		return 0, fmt.Errorf("%s must be a positive finite number.", field)
	}
	return int(math.Floor(v)), nil
}

// sliceToBudget returns the longest prefix of u whose UTF-8 size is at most
// maxBytes and whose estimate is at most maxTokens (binary search over
// UTF-16 units, as the original).
func sliceToBudget(u []uint16, maxBytes, maxTokens int, est *Estimator) []uint16 {
	low, high := 0, len(u)
	for low < high {
		mid := (low + high + 1) / 2
		s := string16(u[:mid])
		if len(s) <= maxBytes && est.Text(s) <= maxTokens {
			low = mid
		} else {
			high = mid - 1
		}
	}
	return u[:low]
}
