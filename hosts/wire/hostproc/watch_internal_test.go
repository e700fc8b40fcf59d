package hostproc

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

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

// TestStalledBetween checks that the harness's stalls are counted only
// where they overlap the span asked about.
func TestStalledBetween(t *testing.T) {
	base := time.Now().Add(-time.Hour)
	at := func(s int) time.Time { return base.Add(time.Duration(s) * time.Second) }
	recordStall(at(10), at(20))
	recordStall(at(30), at(35))
	for _, c := range []struct {
		a, b int
		want time.Duration
	}{
		{0, 5, 0},
		{0, 40, 15 * time.Second},
		{15, 32, 7 * time.Second},
		{21, 29, 0},
	} {
		if got := stalledBetween(at(c.a), at(c.b)); got != c.want {
			t.Errorf("stalledBetween(%d, %d) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// TestSilenceSaysHarnessStalled checks that a call whose wait the
// harness itself spent stalled says so.
func TestSilenceSaysHarnessStalled(t *testing.T) {
	hostIn, harnessOut := io.Pipe()
	harnessIn, hostOut := io.Pipe()
	go func() { _, _ = io.Copy(io.Discard, hostIn) }() // a host that reads and never answers
	c := Connect(harnessIn, harnessOut, StartOptions{CallTimeout: 1200 * time.Millisecond})
	defer func() {
		hostOut.Close()
		_ = c.Close(time.Second)
	}()
	now := time.Now()
	recordStall(now, now.Add(1100*time.Millisecond))
	err := c.Call(context.Background(), "trace/flush", struct{}{}, c.timeout(), nil)
	if !Unanswered(err) {
		t.Fatalf("got %v, want a call the host never answered", err)
	}
	if want := "the harness itself did not run for 1s of the wait"; !strings.Contains(err.Error(), want) {
		t.Errorf("%v\ndoes not say %q", err, want)
	}
}
