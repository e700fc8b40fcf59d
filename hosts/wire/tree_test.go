package wire_test

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/galaxy-stack/conform/hosts/wire"
	"pgregory.net/rapid"
)

// sameTree reports where a and b, trees of ParseTree or ViewTree, differ:
// "" when they hold the same values of the same types (numbers compared
// bit for bit, so 0 and -0 differ).
func sameTree(a, b any, at string) string {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || (a == nil) != (bm == nil) || len(a) != len(bm) {
			return fmt.Sprintf("%s: %#v against %#v", at, a, b)
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok {
				return fmt.Sprintf("%s: member %q missing", at, k)
			}
			if d := sameTree(v, w, at+"/"+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bs, ok := b.([]any)
		if !ok || (a == nil) != (bs == nil) || len(a) != len(bs) {
			return fmt.Sprintf("%s: %#v against %#v", at, a, b)
		}
		for i := range a {
			if d := sameTree(a[i], bs[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
				return d
			}
		}
		return ""
	case float64:
		if f, ok := b.(float64); !ok || math.Float64bits(a) != math.Float64bits(f) {
			return fmt.Sprintf("%s: %v against %#v", at, a, b)
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%s: %#v against %#v", at, a, b)
	}
	return ""
}

// checkSameParse fails t when ViewTree and ParseTree (encoding/json) give
// line different verdicts, errors or values.
func checkSameParse(t interface {
	Helper()
	Fatalf(format string, args ...any)
}, line []byte) {
	t.Helper()
	want, wantErr := wire.ParseTree(line)
	got, gotErr := wire.ViewTree(line)
	switch {
	case (wantErr == nil) != (gotErr == nil):
		t.Fatalf("%q: ParseTree error %v, ViewTree error %v", clip(line), wantErr, gotErr)
	case wantErr != nil:
		if wantErr.Error() != gotErr.Error() {
			t.Fatalf("%q: ParseTree error %q, ViewTree error %q", clip(line), wantErr, gotErr)
		}
	default:
		if d := sameTree(want, got, ""); d != "" {
			t.Fatalf("%q: trees differ at %s", clip(line), d)
		}
	}
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// A jsonGen draws JSON texts; with bad set, some of what it draws is not
// JSON.
type jsonGen struct {
	t   *rapid.T
	bad bool
}

// str draws the text of a JSON string, quotes included, mixing
// plain text, every kind of escape, escaped surrogate pairs, lone and
// misordered surrogates, raw multi-byte UTF-8, bytes that are not UTF-8,
// and now and then a long run.
func (g jsonGen) str(label string) string {
	t := g.t
	var b strings.Builder
	b.WriteByte('"')
	n := rapid.IntRange(0, 6).Draw(t, label+"-parts")
	for range n {
		switch rapid.IntRange(0, 11).Draw(t, label+"-kind") {
		case 0:
			b.WriteString(rapid.StringMatching(`[a-zA-Z0-9 {}:,\[\]]{0,12}`).Draw(t, label+"-ascii"))
		case 1:
			b.WriteString([]string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`}[rapid.IntRange(0, 7).Draw(t, label+"-esc")])
		case 2:
			fmt.Fprintf(&b, `\u%04x`, rapid.IntRange(0, 0xffff).Draw(t, label+"-u"))
		case 3:
			r := rapid.Int32Range(0x10000, unicode10FFFF).Draw(t, label+"-astral")
			hi, lo := 0xd800+((r-0x10000)>>10), 0xdc00+((r-0x10000)&0x3ff)
			fmt.Fprintf(&b, `\u%04X\u%04x`, hi, lo)
		case 4: // a surrogate alone, or before something that does not complete it
			fmt.Fprintf(&b, `\u%04x`, rapid.IntRange(0xd800, 0xdfff).Draw(t, label+"-lone"))
			b.WriteString([]string{"", "x", `\n`, `\u0041`, `\ud800`, `\udc00`, `\\`}[rapid.IntRange(0, 6).Draw(t, label+"-after")])
		case 5:
			b.WriteRune(rapid.Rune().Filter(func(r rune) bool { return r >= 0x20 && r != '"' && r != '\\' }).Draw(t, label+"-rune"))
		case 6: // bytes that are not UTF-8 (truncated sequences, encoded surrogates, stray continuations)
			b.WriteString([]string{"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\x80\x80", "\xf4\x90\x80\x80", "\xc0\xaf"}[rapid.IntRange(0, 6).Draw(t, label+"-bad")])
		case 7:
			b.WriteString(strings.Repeat(rapid.SampledFrom([]string{"x", "é", `\n`, "\xff"}).Draw(t, label+"-unit"), rapid.IntRange(1, 70000).Draw(t, label+"-reps")))
		case 8:
			b.WriteString(`\\`)
			b.WriteString(strings.Repeat(`\\`, rapid.IntRange(0, 3).Draw(t, label+"-bs")))
		case 9:
			b.WriteString("\u00e9\u4e2d\U0001F600\ufffd")
		case 10: // a raw control character or quote: the text is no longer JSON
			if g.bad {
				b.WriteString([]string{"\x00", "\x1f", "\n", `\x`, `\u12`, `\`}[rapid.IntRange(0, 5).Draw(t, label+"-how")])
			}
		case 11:
			b.WriteString(`\u0000\u001F\u007f\u00E9`)
		}
	}
	b.WriteByte('"')
	return b.String()
}

const unicode10FFFF = 0x10ffff

// number draws a number's text: integers, fractions, exponents, -0,
// ones too large or too small for a float64, long digit strings, and now
// and then text that is not a JSON number.
func (g jsonGen) number() string {
	t := g.t
	kind := rapid.IntRange(0, 7).Draw(t, "num-kind")
	if kind == 5 && !g.bad {
		kind = 2
	}
	switch kind {
	case 0:
		return fmt.Sprint(rapid.Int64().Draw(t, "int"))
	case 1:
		return fmt.Sprintf("%g", rapid.Float64().Draw(t, "float"))
	case 2:
		return rapid.SampledFrom([]string{"-0", "0", "-0.0", "0e0", "1E+2", "1e-2", "1.5e308", "1.8e308", "1e400", "-1e400", "1e-400", "4.9e-324", "2e-324", "9007199254740993", "123456789012345678901234567890"}).Draw(t, "num-edge")
	case 3:
		return rapid.StringMatching(`-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][-+]?[0-9]{1,4})?`).Draw(t, "num-text")
	case 4:
		return strings.Repeat("9", rapid.IntRange(1, 400).Draw(t, "digits"))
	case 5:
		return rapid.SampledFrom([]string{"01", "+1", "1.", ".5", "1e", "-", "0x10", "NaN", "Infinity"}).Draw(t, "num-bad")
	}
	return fmt.Sprint(rapid.IntRange(-1000, 1000).Draw(t, "small"))
}

func (g jsonGen) space() string {
	spaces := []string{"", "", "", " ", "\t", "\r\n "}
	if g.bad {
		spaces = append(spaces, "\u00a0")
	}
	return rapid.SampledFrom(spaces).Draw(g.t, "space")
}

// value draws the text of a JSON value nested at most depth deep.
func (g jsonGen) value(depth int) string {
	t := g.t
	kinds := 4
	if depth > 0 {
		kinds = 6
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "value-kind") {
	case 0:
		return g.str("str")
	case 1:
		return g.number()
	case 2:
		literals := []string{"true", "false", "null"}
		if g.bad {
			literals = append(literals, "nul", "True")
		}
		return rapid.SampledFrom(literals).Draw(t, "literal")
	case 3:
		return g.str("str")
	case 4:
		return g.object(depth - 1)
	}
	n := rapid.IntRange(0, 4).Draw(t, "items")
	items := make([]string, n)
	for i := range items {
		items[i] = g.space() + g.value(depth-1) + g.space()
	}
	return "[" + strings.Join(items, ",") + "]"
}

// object draws an object's text; member names repeat now and then.
func (g jsonGen) object(depth int) string {
	t := g.t
	n := rapid.IntRange(0, 5).Draw(t, "members")
	members := make([]string, n)
	for i := range members {
		name := g.str("name")
		if i > 0 && rapid.IntRange(0, 4).Draw(t, "repeat") == 0 {
			name = strings.SplitN(members[0], ":", 2)[0]
		}
		members[i] = g.space() + name + g.space() + ":" + g.space() + g.value(depth) + g.space()
	}
	return "{" + strings.Join(members, ",") + "}"
}

// TestViewTreeMatchesParseTree checks on random JSON, valid or not, that
// ViewTree gives the verdict, the error and the values encoding/json
// gives: strings with escapes, surrogates and bad UTF-8, long strings,
// numbers of every shape, repeated member names and nesting.
func TestViewTreeMatchesParseTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := jsonGen{t: t, bad: rapid.IntRange(0, 4).Draw(t, "bad") == 0}
		var text string
		if rapid.IntRange(0, 9).Draw(t, "top") == 0 {
			text = g.value(3)
		} else {
			text = g.object(3)
		}
		text = g.space() + text + g.space()
		if g.bad && rapid.Bool().Draw(t, "cut") {
			text = text[:rapid.IntRange(0, len(text)).Draw(t, "at")]
		}
		checkSameParse(t, []byte(text))
	})
}

func TestViewTreeMatchesParseTreeOnEdges(t *testing.T) {
	for _, text := range []string{
		``, ` `, `{}`, `[]`, `null`, `"x"`, `1`, `[1e400]`, `{"a":1e400,"b":-1e999}`, `{"a":1e-400}`,
		`{"a":-0}`, `{"a":[],"b":{},"c":""}`, `{"a":1,"a":2}`, `{"a":{"b":1},"a":[1]}`,
		`{"\u0061":1,"a":2}`, `{"":""}`, `{"a":"\ud83d\ude00\ud83d\ude0"}`, `{"a":"\ud83d\ude00"}`,
		`{"a":"\udc00\ud800"}`, `{"a":"\ud800\ud800\udc00"}`, `{"a":"\ud800\u0041"}`, `{"a":"\ud800"}`,
		`{"a":"\\\""}`, `{"a":"\\"}`, `{"a":"x\\\\\\\"y"}`, "{\"a\":\"\xed\xa0\x80\"}", "{\"\xff\":1}",
		`{"a":"\/\b\f\n\r\t"}`, `{"a":1}x`, `{"a":1}}`, `{"a" 1}`, `{"a":01}`, "{\"a\":\"\t\"}",
		`{"a":tru}`, `{"a":1,}`, ` {"a" : [ 1 , 2 ] } `, "\u00a0{}", `{"a":"` + strings.Repeat(`\u00e9`, 5000) + `"}`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		`{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	} {
		checkSameParse(t, []byte(text))
	}
}

// FuzzViewTree is the differential check of TestViewTreeMatchesParseTree
// on arbitrary bytes.
func FuzzViewTree(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"document":{"blob":"x\u00e9\ud83d\ude00"}}}`))
	f.Add([]byte(`{"a":[1e400,-0,"\ud800x","\xff"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSameParse(t, data)
	})
}

// TestViewTreeSharesPlainStrings checks the point of ViewTree: a string
// without escapes is a view of the line, one with escapes or bad UTF-8 a
// decoded copy, and parsing a message of one long string allocates a
// small part of its size.
func TestViewTreeSharesPlainStrings(t *testing.T) {
	line := []byte("{\"plain\":\"abc\",\"esc\":\"a\\nb\",\"bad\":\"a\xffb\",\"plain-é\":\"é\"}")
	tree, err := wire.ViewTree(line)
	if err != nil {
		t.Fatal(err)
	}
	within := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		o := uintptr(unsafe.Pointer(&line[0]))
		return p >= o && p+uintptr(len(s)) <= o+uintptr(len(line))
	}
	for k, v := range tree {
		s := v.(string)
		if shared := k == "plain" || k == "plain-é"; within(s) != shared {
			t.Errorf("member %q = %q: shares the line %v, want %v", k, s, within(s), shared)
		}
		if !within(k) {
			t.Errorf("member name %q is a copy, want a view of the line", k)
		}
	}

	big := []byte(`{"jsonrpc":"2.0","id":1,"result":{"document":{"blob":"` + strings.Repeat("x", 4<<20) + `"}}}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tree, err = wire.ViewTree(big)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("ViewTree of a %d-byte message allocated %d bytes; want under 64 KiB", len(big), n)
	}
	runtime.KeepAlive(tree)
}

// BenchmarkTree parses a tool/execute answer of about 2 KB, the common
// message, with encoding/json's copying parse and with ViewTree.
func BenchmarkTree(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":17,"result":{"outcome":{"status":"ok","output":"` +
		strings.Repeat(`line of tool output with a \"quote\" and \u00e9\n`, 30) +
		`","truncated":false,"exitCode":0,"durationMs":12.5,"effects":[{"kind":"write","path":"src/a.go"},{"kind":"read","path":"README.md"}]}}}`)
	for _, p := range []struct {
		name  string
		parse func([]byte) (map[string]any, error)
	}{{"ParseTree", wire.ParseTree}, {"ViewTree", wire.ViewTree}} {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.parse(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
