package canon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/core/checkpoint"
	"github.com/galaxy-stack/conform/core/port"
	"github.com/galaxy-stack/conform/hosts/wire"
	"pgregory.net/rapid"
)

// The properties below check that Marshal's direct walker writes exactly
// what its general path (encoding/json and the one-pass rewrite) writes,
// or leaves the value to that path: on random values of the module's own
// types and of types made to reach every rule of encoding/json the walker
// follows.

// sameAsGeneral checks v on the walker and the general path, and Marshal
// against Marshal as it was before the walker, and reports whether the
// walker wrote v (rather than giving it to the general path).
func sameAsGeneral(t *rapid.T, v any) bool {
	want, wantErr := canon.MarshalGeneral(v)
	got, ok := canon.MarshalDirect(v)
	if ok && (wantErr != nil || !bytes.Equal(got, want)) {
		t.Fatalf("walker on %#v:\n got %q\nwant %q, %v", v, got, want, wantErr)
	}
	before, beforeErr := canon.MarshalBefore(v)
	m, err := canon.Marshal(v)
	if fmt.Sprint(err) != fmt.Sprint(beforeErr) || !bytes.Equal(m, before) {
		t.Fatalf("Marshal(%#v) = %q, %v; before the walker %q, %v", v, m, err, before, beforeErr)
	}
	return ok
}

// nastyText draws strings where the two paths could differ: escapes,
// controls, HTML characters, U+2028/U+2029, invalid UTF-8 (alone, in runs
// and in keys that become equal once replaced), U+FFFD itself, characters
// above U+FFFF and long plain runs.
var nastyText = rapid.OneOf(
	rapid.SampledFrom([]string{
		"", "a", "<&>", "\u2028\u2029", "\"\\/", "\x00\x1f\x7f", "\b\f\n\r\t", "\xff", "\xfe", "a\xffb",
		"\xed\xa0\x80", "\xf0\x9f\x98", "\ufffd", "\U0001F600", "\ue000", "é", "0123456789abcdef0123456789\"x",
		"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	}),
	rapid.StringOfN(rapid.RuneFrom([]rune("ab\"\\<>&\u2028\u2029\x00\x1f\x7f é\ufffd\U0001F600\ue000")), 0, 12, -1),
	rapid.Map(rapid.SliceOfN(rapid.SampledFrom([]byte("az\"\\\x00\x1f\x7f\x80\xbf\xc3\xa9\xed\xa0\xf0\x9f\x98\x80\xff ")), 0, 20),
		func(b []byte) string { return string(b) }),
)

var (
	numberTexts = []string{"", "0", "-0", "1", "1.5e3", "1E+2", "123456789012345", "1234567890123456",
		"12345678901234567890", "1e400", "-1e400", "5e-324", "0.1", "abc", "01", "-", "1.", "1e", "1e+", " 1"}
	rawTexts = []string{"null", "0", "-0", " 1.0 ", "1e400", "01", "[1,2", `{"b":1,"a":[1.0,"\u00e9"]}`,
		`{"a":1,"a":2}`, `"\ud800"`, `"\ud83d\ude00"`, "\"\xff\"", `{"\u0061":1,"a":2}`, `"<&>\u2028"`, `[]`, `{}`}
	intEdges = []int64{0, -1, 1, 999999999999999, 1000000000000000, -999999999999999, -1000000000000000,
		1<<53 + 1, math.MaxInt64, math.MinInt64, 127, -128, 255, 65535}
	floatEdges = []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e21, 1e20, 1e-6, 1e-7, 5e-324,
		math.MaxFloat64, 123456789012345680000, 1 << 60, math.Inf(1), math.NaN(), 3.4028235e38, 16777217}
)

var (
	numberType = reflect.TypeFor[json.Number]()
	rawType    = reflect.TypeFor[json.RawMessage]()
	objectType = reflect.TypeFor[canon.Object]()
)

// drawValue draws a value of typ: every exported field, element, key and
// pointer set at random, nesting cut at depth.
func drawValue(t *rapid.T, typ reflect.Type, depth int) reflect.Value {
	v := reflect.New(typ).Elem()
	fill(t, v, depth)
	return v
}

func fill(t *rapid.T, v reflect.Value, depth int) {
	switch v.Type() {
	case numberType:
		v.SetString(rapid.SampledFrom(numberTexts).Draw(t, "number"))
		return
	case rawType:
		if rapid.IntRange(0, 5).Draw(t, "raw-nil") > 0 {
			v.SetBytes([]byte(rapid.SampledFrom(rawTexts).Draw(t, "raw")))
		}
		return
	case objectType:
		if depth > 0 && rapid.Bool().Draw(t, "object") {
			n := rapid.IntRange(0, 3).Draw(t, "object-len")
			o := make(canon.Object, n)
			for i := range o {
				o[i] = canon.Member{Key: nastyText.Draw(t, "object-key"), Value: drawAny(t, depth-1)}
			}
			v.Set(reflect.ValueOf(o))
		}
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, "bool"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rapid.OneOf(rapid.SampledFrom(intEdges), rapid.Int64()).Draw(t, "int"))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(rapid.OneOf(rapid.SampledFrom(intEdges), rapid.Int64()).Draw(t, "uint")))
	case reflect.Float32, reflect.Float64:
		f := rapid.OneOf(rapid.SampledFrom(floatEdges), rapid.Float64()).Draw(t, "float")
		if (math.IsNaN(f) || math.IsInf(f, 0)) && rapid.IntRange(0, 3).Draw(t, "keep-non-finite") > 0 {
			f = 2.5
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(nastyText.Draw(t, "string"))
	case reflect.Pointer:
		if depth > 0 && rapid.IntRange(0, 3).Draw(t, "pointer") > 0 {
			p := reflect.New(v.Type().Elem())
			fill(t, p.Elem(), depth-1)
			v.Set(p)
		}
	case reflect.Slice:
		if depth == 0 || rapid.IntRange(0, 4).Draw(t, "slice-nil") == 0 {
			return
		}
		n := rapid.IntRange(0, 3).Draw(t, "slice-len")
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(t, s.Index(i), depth-1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fill(t, v.Index(i), depth-1)
		}
	case reflect.Map:
		if depth == 0 || rapid.IntRange(0, 4).Draw(t, "map-nil") == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range rapid.IntRange(0, 4).Draw(t, "map-len") {
			m.SetMapIndex(drawValue(t, v.Type().Key(), depth-1), drawValue(t, v.Type().Elem(), depth-1))
		}
		v.Set(m)
	case reflect.Interface:
		if depth == 0 {
			return
		}
		if v.Type().NumMethod() == 0 {
			if a := drawAny(t, depth-1); a != nil {
				v.Set(reflect.ValueOf(a))
			}
		} else if rawType.Implements(v.Type()) && rapid.Bool().Draw(t, "marshaler") {
			v.Set(drawValue(t, rawType, depth-1))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			switch {
			case sf.IsExported():
				fill(t, v.Field(i), depth)
			case sf.Anonymous && sf.Type.Kind() == reflect.Struct:
				fill(t, v.Field(i), depth) // its exported fields are settable
			}
		}
	}
}

// anyTypes are the dynamic types drawAny puts in an interface besides the
// plain JSON ones.
var anyTypes = []reflect.Type{
	reflect.TypeFor[int](), reflect.TypeFor[float32](), reflect.TypeFor[uint64](), numberType, rawType,
	objectType, reflect.TypeFor[[]string](), reflect.TypeFor[map[string]string](), reflect.TypeFor[[]byte](),
	reflect.TypeFor[*edgeInner](), reflect.TypeFor[edgeInner](), reflect.TypeFor[textValue](),
	reflect.TypeFor[map[int]any](), reflect.TypeFor[[]any](), reflect.TypeFor[map[string]any](),
	reflect.TypeFor[ptrMarshaler](), reflect.TypeFor[*ptrMarshaler](),
}

// drawAny draws what an interface field may hold: JSON-shaped values with
// nasty strings and edge numbers, or a value of one of anyTypes.
func drawAny(t *rapid.T, depth int) any {
	switch rapid.IntRange(0, 7).Draw(t, "any-kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "any-bool")
	case 2:
		return drawValue(t, reflect.TypeFor[float64](), depth).Interface()
	case 3:
		return nastyText.Draw(t, "any-string")
	default:
		typ := rapid.SampledFrom(anyTypes).Draw(t, "any-type")
		return drawValue(t, typ, depth).Interface()
	}
}

// Types that reach the rules of encoding/json the walker follows.
type (
	edgeInner struct {
		A string `json:"a"`
		B int    `json:"b,omitempty"`
	}
	// Embedded is embedded by value; its Shadowed is hidden by a
	// shallower field of the same name.
	Embedded struct {
		E        string `json:"e"`
		Shadowed string `json:"shadowed"`
		Tie      int    // hidden: Other has an untagged Tie at the same depth
		Tagged   int    `json:"tagged"`
	}
	Other struct {
		Tie    int
		Tagged int // loses to Embedded's tagged field
	}
	// Shared is reached twice at one depth (through Twice1 and Twice2),
	// so that its field is written by neither.
	Shared struct {
		S string // untagged: vet reports a json tag reached twice
	}
	Twice1          struct{ Shared }
	Twice2          struct{ Shared }
	embeddedPointer struct {
		P  string `json:"p"`
		PP *int64 `json:"pp,omitempty"`
	}
	phase      string
	textValue  string // a TextMarshaler with a value receiver
	valueJSON  struct{ N int }
	edgeStruct struct {
		Embedded
		Other
		Twice1
		Twice2
		*embeddedPointer
		Shadowed  bool              `json:"shadowed"`
		Str       string            `json:"str"`
		StrOmit   string            `json:"strOmit,omitempty"`
		StrZero   string            `json:"strZero,omitzero"`
		Int       int64             `json:"int"`
		IntOmit   int               `json:"intOmit,omitempty"`
		I8        int8              `json:"i8"`
		U16       uint16            `json:"u16"`
		U64       uint64            `json:"u64,omitempty"`
		F32       float32           `json:"f32"`
		F64       float64           `json:"f64,omitempty"`
		F64Zero   float64           `json:"f64Zero,omitzero"`
		Bool      bool              `json:"bool"`
		BoolOmit  bool              `json:"boolOmit,omitempty"`
		Bytes     []byte            `json:"bytes"`
		Array     [2]int            `json:"array"`
		Strs      []string          `json:"strs"`
		StrsOmit  []string          `json:"strsOmit,omitempty"`
		StrsZero  []phase           `json:"strsZero,omitzero"`
		PStr      *string           `json:"pStr"`
		PStrOmit  *phase            `json:"pStrOmit,omitempty"`
		PInt      *int64            `json:"pInt"`
		PIntZero  *int              `json:"pIntZero,omitzero"`
		Map       map[string]int    `json:"map"`
		MapOmit   map[string]any    `json:"mapOmit,omitempty"`
		IntKeys   map[int]string    `json:"intKeys"`
		ByteKeys  map[uint8]bool    `json:"byteKeys"`
		Phases    map[phase]phase   `json:"phases"`
		Any       any               `json:"any"`
		AnyOmit   any               `json:"anyOmit,omitempty"`
		Marshaler json.Marshaler    `json:"marshaler"`
		Number    json.Number       `json:"number"`
		Raw       json.RawMessage   `json:"raw"`
		RawZero   json.RawMessage   `json:"rawZero,omitzero"`
		Text      textValue         `json:"text"`
		PText     *textValue        `json:"pText"`
		JSON      valueJSON         `json:"json"`
		PJSON     *valueJSON        `json:"pJSON"`
		Phase     phase             `json:"phase"`
		Nested    edgeInner         `json:"nested"`
		Ptr       *edgeInner        `json:"ptr"`
		Slice     []edgeInner       `json:"slice"`
		Object    canon.Object      `json:"object"`
		Untagged  string            // named by the field
		BadTag    string            `json:"x\\y"` // an invalid name: named by the field
		Dash      string            `json:"-,"`   // named "-"
		Skipped   string            `json:"-"`
		Unicode   string            `json:"\U00010400\u00e9"`
		Order     string            `json:"\uff21"`
		Nest      map[string][]bool `json:"nest"`
		unwritten string
	}
	// Types the walker leaves to the general path.
	ptrMarshaler struct{ N int }
	zeroer       struct{ N int }
	textKey      int
	withString   struct {
		N int `json:"n,string"`
	}
	withPtrMarshaler struct {
		M ptrMarshaler `json:"m"`
	}
	withZeroer struct {
		Z zeroer `json:"z,omitzero"`
	}
	withTextKeys struct {
		K map[textKey]int `json:"k"`
	}
	withTaggedUnexported struct {
		edgeInner `json:"inner"`
	}
)

func (x textValue) MarshalText() ([]byte, error) {
	if x == "fail" {
		return nil, errors.New("text refused")
	}
	return []byte("text:" + string(x)), nil
}

func (x valueJSON) MarshalJSON() ([]byte, error) {
	switch {
	case x.N%7 == 3:
		return nil, errors.New("json refused")
	case x.N%5 == 4:
		return []byte(rawTexts[(x.N/5)%len(rawTexts)]), nil
	}
	return []byte(`{"z":` + strconv.Itoa(x.N) + `, "a":[1.0,"\u00e9<"]}`), nil
}

func (x *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

func (z zeroer) IsZero() bool { return z.N%2 == 0 }

func (k textKey) MarshalText() ([]byte, error) { return []byte("k" + strconv.Itoa(int(k)%3)), nil }

// The module's types whose values are hashed or sent, and the types above.
var (
	moduleTypes = []reflect.Type{
		reflect.TypeFor[checkpoint.Checkpoint](), reflect.TypeFor[checkpoint.Payload](),
		reflect.TypeFor[port.Message](), reflect.TypeFor[port.ToolResult](), reflect.TypeFor[port.Error](),
		reflect.TypeFor[port.TraceEvent](), reflect.TypeFor[port.RoundRequest](), reflect.TypeFor[port.RoundEvent](),
		reflect.TypeFor[port.WorkspaceState](), reflect.TypeFor[port.ModelCapabilities](), reflect.TypeFor[port.Attachment](),
		reflect.TypeFor[wire.InitializeParams](), reflect.TypeFor[wire.InitializeResult](), reflect.TypeFor[wire.ExecuteParams](),
		reflect.TypeFor[wire.FingerprintResult](), reflect.TypeFor[wire.ApprovalParams](), reflect.TypeFor[wire.TraceAppendParams](),
	}
	edgeTypes = []reflect.Type{
		reflect.TypeFor[edgeStruct](), reflect.TypeFor[*edgeStruct](), reflect.TypeFor[[]edgeStruct](),
		reflect.TypeFor[map[string]edgeStruct](), reflect.TypeFor[withString](), reflect.TypeFor[withPtrMarshaler](),
		reflect.TypeFor[*withPtrMarshaler](), reflect.TypeFor[withZeroer](), reflect.TypeFor[withTextKeys](),
		reflect.TypeFor[withTaggedUnexported](), reflect.TypeFor[[]any](), reflect.TypeFor[map[string]any](),
	}
)

// propWalkerSameOnModuleTypes: on random values of the module's types the
// walker writes what the general path writes; checkpoints (no floats, no
// interfaces, no Marshalers) it always writes itself.
func propWalkerSameOnModuleTypes(t *rapid.T) {
	typ := rapid.SampledFrom(moduleTypes).Draw(t, "type")
	v := drawValue(t, typ, 4).Interface()
	direct := sameAsGeneral(t, v)
	if !direct && (typ == moduleTypes[0] || typ == moduleTypes[1]) {
		t.Fatalf("the walker gave %T to the general path: %#v", v, v)
	}
}

// propWalkerSameOnEdgeTypes: the same on the types made for encoding/json's
// rules, including those the walker must leave to the general path.
func propWalkerSameOnEdgeTypes(t *rapid.T) {
	typ := rapid.SampledFrom(edgeTypes).Draw(t, "type")
	sameAsGeneral(t, drawValue(t, typ, 4).Interface())
}

// propWalkerSameOnAny: the same on JSON-shaped values with edge numbers,
// nasty strings, json.Number and json.RawMessage inside.
func propWalkerSameOnAny(t *rapid.T) {
	sameAsGeneral(t, drawAny(t, 4))
}

func TestPropertyWalkerSameOnModuleTypes(t *testing.T) { rapid.Check(t, propWalkerSameOnModuleTypes) }

func TestPropertyWalkerSameOnEdgeTypes(t *testing.T) { rapid.Check(t, propWalkerSameOnEdgeTypes) }

func TestPropertyWalkerSameOnAny(t *testing.T) { rapid.Check(t, propWalkerSameOnAny) }

// TestWalkerWritesWhatItCan pins which values the walker writes itself and
// which it leaves to the general path, so that the properties above compare
// something: a walker that always gave up would pass them.
func TestWalkerWritesWhatItCan(t *testing.T) {
	n := int64(7)
	s := "x"
	full := edgeStruct{Embedded: Embedded{E: "e", Shadowed: "hidden", Tie: 1, Tagged: 2}, Other: Other{Tie: 3, Tagged: 4},
		Twice1: Twice1{Shared{S: "1"}}, Twice2: Twice2{Shared{S: "2"}},
		embeddedPointer: &embeddedPointer{P: "p", PP: &n}, Str: "a\xffb<&>\u2028", Int: 1 << 60, F32: 0.1, F64: -0.0,
		Bytes: []byte{0, 255}, Strs: []string{"b", "a"}, PStr: &s, Map: map[string]int{"\ue000": 1, "\U0001F600": 2},
		IntKeys: map[int]string{10: "a", 9: "b"}, Any: map[string]any{"z": []any{1.5, "é"}}, Marshaler: json.RawMessage(`{"b":1,"a":2}`),
		Number: "1e2", Raw: json.RawMessage(` [1.0, "\u00e9"] `), Text: "t", JSON: valueJSON{N: 1}, Phase: "p",
		Slice: []edgeInner{{A: "a", B: 1}}, Object: canon.Object{{Key: "b", Value: 1}, {Key: "a", Value: "x"}}, Untagged: "u"}
	writes := []any{full, &full, []edgeStruct{full, {}}, edgeStruct{}, checkpoint.Checkpoint{}, map[string]edgeInner{"k": {}}}
	for _, v := range writes {
		want, err := canon.MarshalGeneral(v)
		if err != nil {
			t.Fatalf("general path on %T: %v", v, err)
		}
		got, ok := canon.MarshalDirect(v)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("walker on %T = %q, %v; want %q", v, got, ok, want)
		}
	}
	leaves := []any{withString{}, withPtrMarshaler{}, withZeroer{}, withTextKeys{}, withTaggedUnexported{},
		map[string]float64{"nan": math.NaN()}, edgeStruct{JSON: valueJSON{N: 3}}, edgeStruct{Number: "01"},
		map[string]int{"\xff": 1, "\xfe": 2}, edgeStruct{Raw: json.RawMessage(`{"a":1,"a":2}`)}}
	for _, v := range leaves {
		if got, ok := canon.MarshalDirect(v); ok {
			t.Errorf("walker wrote %#v as %q; it should leave it to the general path", v, got)
		}
	}
}

// TestWalkerConcurrent marshals values of alternating types from several
// goroutines, which share the plan cache, the last plan and its spare
// variables (run with -race to check them).
func TestWalkerConcurrent(t *testing.T) {
	s := "x"
	values := []any{edgeStruct{Str: "a", PStr: &s, Slice: []edgeInner{{A: "b"}}}, checkpoint.Checkpoint{ContentHash: "h"},
		port.Message{}, edgeStruct{Int: 5, Map: map[string]int{"k": 1}}}
	want := make([][]byte, len(values))
	for i, v := range values {
		var err error
		if want[i], err = canon.MarshalGeneral(v); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range 200 {
				at := (g + i) % len(values)
				if got, err := canon.Marshal(values[at]); err != nil || !bytes.Equal(got, want[at]) {
					errs <- fmt.Errorf("Marshal(%T) = %q, %v; want %q", values[at], got, err, want[at])
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
