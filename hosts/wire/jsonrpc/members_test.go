package jsonrpc

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire"
	"pgregory.net/rapid"
)

// envelopeLine draws a line of members a message may have, and others:
// each name repeated now and then, cased differently or escaped, and
// values of every type, including error members that decode and ones
// that do not.
func envelopeLine(t *rapid.T) string {
	names := []string{"jsonrpc", "id", "method", "params", "result", "error", "ID", "Method", `\u0069d`, "x", "Error", "ſ"}
	values := []string{`"2.0"`, `"1.0"`, `2`, `null`, `true`, `1`, `-0`, `17`, `1.5`, `"7"`, `"tool/execute"`, `""`, `"m\u00e9thod"`,
		`{}`, `[]`, `[1,"a"]`, `{"a":"b\n"}`, `{"code":-32602,"message":"bad"}`, `{"code":-32001,"message":"m","data":{"x":[1,2.5]}}`,
		`{"code":1.5,"message":"m"}`, `{"code":"1","message":"m"}`, `{"Code":3,"MESSAGE":"m","extra":1}`, `{"code":99999999999999999999,"message":"m"}`,
		`{"message":5}`, `{"data":null}`}
	n := rapid.IntRange(0, 7).Draw(t, "members")
	parts := make([]string, n)
	for i := range parts {
		name := names[0]
		if rapid.IntRange(0, 2).Draw(t, "known") > 0 {
			name = rapid.SampledFrom(names[:6]).Draw(t, "name")
		} else {
			name = rapid.SampledFrom(names).Draw(t, "any-name")
		}
		space := rapid.SampledFrom([]string{"", " ", "\t\r\n "}).Draw(t, "space")
		parts[i] = space + `"` + name + `"` + space + ":" + space + rapid.SampledFrom(values).Draw(t, "value") + space
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestMembersMatchDecodeMessage checks that the message a strict
// connection builds from the members its parse found is the message, or
// the error, DecodeMessage gives for the same line, whenever it does not
// leave the line to DecodeMessage; and that it does decide the common
// lines.
func TestMembersMatchDecodeMessage(t *testing.T) {
	decided := 0
	rapid.Check(t, func(t *rapid.T) {
		line := []byte(envelopeLine(t))
		var m envelopeMembers
		tree, err := wire.ViewTreeMembers(line, m.add)
		if err != nil {
			return
		}
		got, gotErr := m.message(tree)
		if gotErr == errUndecided {
			return
		}
		decided++
		want, wantErr := DecodeMessage(line)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: from the members %#v, %v; DecodeMessage %#v, %v", line, got, gotErr, want, wantErr)
		}
	})
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`,
		`{"jsonrpc":"2.0","id":"7","error":{"code":-32602,"message":"bad","data":[1]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"approval/request","params":{"a":"b"}}`,
		`{"jsonrpc":"2.0","method":"$/progress","params":[]}`,
		`{"jsonrpc":"2.0","id":null,"result":1}`,
	} {
		var m envelopeMembers
		tree, err := wire.ViewTreeMembers([]byte(line), m.add)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr := m.message(tree)
		if gotErr == errUndecided {
			t.Errorf("%s: left to DecodeMessage; want it decided from its members", line)
			continue
		}
		want, wantErr := DecodeMessage([]byte(line))
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: from the members %#v, %v; DecodeMessage %#v, %v", line, got, gotErr, want, wantErr)
		}
	}
	t.Logf("%d random lines decided from their members", decided)
	if decided == 0 {
		t.Error("no random line was decided from its members")
	}
}
