package hostproc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
)

// bigHost answers every request read from r with the result of resultFor,
// written to w as one line: a host in this process, so that the harness's
// side of one large message can be measured on its own.
func bigHost(r io.Reader, w io.WriteCloser, result []byte) {
	defer w.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":`, m.ID)
		_, _ = w.Write(result)
		_, _ = io.WriteString(w, "}\n")
	}
}

// storeGetResult is a protocol-legal store/get result of about n bytes:
// one document holding one long string.
func storeGetResult(n int) []byte {
	return []byte(`{"document":{"blob":"` + strings.Repeat("x", n) + `"}}`)
}

func bigClient(tb testing.TB, result []byte) *hostproc.Client {
	cr, hw := io.Pipe()
	hr, cw := io.Pipe()
	go bigHost(hr, hw, result)
	c := hostproc.Connect(cr, cw, hostproc.StartOptions{CallTimeout: time.Minute})
	tb.Cleanup(func() { _ = c.Close(time.Second) })
	return c
}

func BenchmarkLargeMessage(b *testing.B) {
	const size = 32 << 20
	c := bigClient(b, storeGetResult(size))
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		doc, err := c.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
		if err != nil || len(doc) < size {
			b.Fatalf("store/get: %d bytes, %v", len(doc), err)
		}
	}
}

// TestLargeMessagePeakHeap checks that receiving one 32 MiB message, from
// the line to the caller's decoded value, grows the heap by less than 6
// times the message's size at its peak.
func TestLargeMessagePeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred MiB")
	}
	const size = 32 << 20
	result := storeGetResult(size)
	c := bigClient(t, result)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > peak.Load() {
				peak.Store(s.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	doc, err := c.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
	close(stop)
	<-sampled
	if err != nil || len(doc) < size {
		t.Fatalf("store/get: %d bytes, %v", len(doc), err)
	}
	growth := float64(peak.Load()-base) / float64(len(result))
	t.Logf("peak heap growth %.1f× the %d-byte message", growth, len(result))
	if growth > 6 {
		t.Errorf("receiving one %d-byte message grew the heap by %.1f× its size at the peak; want under 6×", len(result), growth)
	}
	runtime.KeepAlive(doc)
}
