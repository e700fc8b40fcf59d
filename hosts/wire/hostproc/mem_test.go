package hostproc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
	"github.com/galaxy-stack/conform/hosts/wire/hostproc"
	"github.com/galaxy-stack/conform/internal/floor"
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
// the line to the caller's decoded value, allocates less than 2.5 times
// the message's size and grows the heap by no more at its peak: the line,
// and the chunks the framer read it in until they were joined. The tree
// the strict connection validates and the document handed to the caller
// share the line; a third copy of the message anywhere on the way fails
// this.
func TestLargeMessagePeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred MiB")
	}
	const size = 32 << 20
	result := storeGetResult(size)
	c := bigClient(t, result)
	var doc []byte
	var err error
	peak, alloc := floor.PeakHeapGrowth(func() {
		doc, err = c.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
	})
	if err != nil || len(doc) < size {
		t.Fatalf("store/get: %d bytes, %v", len(doc), err)
	}
	n := float64(len(result))
	t.Logf("peak heap growth %.2f×, allocated %.2f× the %d-byte message", float64(peak)/n, float64(alloc)/n, len(result))
	if float64(alloc)/n > 2.5 {
		t.Errorf("receiving one %d-byte message allocated %.2f× its size; want under 2.5×", len(result), float64(alloc)/n)
	}
	if float64(peak)/n > 2.5 {
		t.Errorf("receiving one %d-byte message grew the heap by %.2f× its size at the peak; want under 2.5×", len(result), float64(peak)/n)
	}
	runtime.KeepAlive(doc)
}
