package hostproc

import (
	"encoding/json"
	"testing"

	"github.com/galaxy-stack/conform/hosts/wire/jsonrpc"
)

// TestRequestID checks that a watch finds the id of every request the
// harness encodes and of nothing else it writes.
func TestRequestID(t *testing.T) {
	enc := func(m jsonrpc.Message) []byte {
		b, err := jsonrpc.EncodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		msg  []byte
		want int64
	}{
		{enc(&jsonrpc.Request{ID: json.RawMessage("19"), Method: "tools/list", Params: json.RawMessage("{}")}), 19},
		{enc(&jsonrpc.Request{ID: json.RawMessage("1"), Method: "initialize"}), 1},
		{enc(&jsonrpc.Request{Method: "$/cancelRequest", Params: json.RawMessage(`{"id":3}`)}), 0},
		{enc(&jsonrpc.Response{ID: json.RawMessage("7"), Result: json.RawMessage("{}")}), 0},
		{enc(&jsonrpc.Response{ID: json.RawMessage(`"h1"`), Result: json.RawMessage("{}")}), 0},
		{[]byte(`{"jsonrpc":"2.0","id":99999999999999999999999,"method":"x"}`), 0},
	}
	for _, c := range cases {
		if got := requestID(c.msg); got != c.want {
			t.Errorf("requestID(%s) = %d, want %d", c.msg, got, c.want)
		}
	}
}
