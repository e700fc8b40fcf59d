package mutants_test

import (
	"context"
	"os"

	"github.com/galaxy-stack/conform/hosts/wire"
	. "github.com/onsi/gomega"
)

// The wire-level specs of the store, trace and fingerprint mutants that
// matrix items 10, 11, 12, 40 and 41 catch, kept apart from the main table
// so that each addition stays self-contained.
var _ = addSpecs(durabilitySpecs)

// putTwo puts two checkpoint-kind documents of run "r" on h.
func putTwo(h *host) {
	for _, doc := range []string{`{"runId":"r","n":1}`, `{"runId":"r","n":2}`} {
		put(h, "r", wire.KindCheckpoint, doc)
	}
}

var durabilitySpecs = map[string]func(name string){
	"store-get-nothing": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			putTwo(h)
			f := h.fresh()
			doc, err := f.client.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
			Expect(err).NotTo(HaveOccurred())
			entries, err := f.client.StoreList(context.Background(), wire.StoreListParams{RunID: "r", Kind: wire.KindCheckpoint})
			Expect(err).NotTo(HaveOccurred())
			Expect(entries).To(HaveLen(2), "%s: store/list holds both puts", h)
			Expect(doc == nil).To(Equal(h == mut), "%s: store/get returns nothing", h)
		}
	},
	"store-get-oldest": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			putTwo(h)
			doc, err := h.fresh().client.StoreGet(context.Background(), wire.StoreGetParams{RunID: "r", Kind: wire.KindCheckpoint})
			Expect(err).NotTo(HaveOccurred())
			if h == ref {
				Expect(string(doc)).To(ContainSubstring(`"n":2`), "%s: store/get returns the latest put", h)
			} else {
				Expect(string(doc)).To(ContainSubstring(`"n":1`), "%s: store/get returns the oldest put", h)
			}
		}
	},
	"trace-not-reloaded": func(name string) {
		ref, mut := both(name, setup{})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			appendFlushed(h, 1)
			own, err := h.client.TraceList(ctx, "run-1")
			Expect(err).NotTo(HaveOccurred())
			Expect(own).To(HaveLen(1), "%s: the appending process lists its event", h)
			evs, err := h.fresh().client.TraceList(ctx, "run-1")
			Expect(err).NotTo(HaveOccurred())
			Expect(evs).To(HaveLen(map[bool]int{true: 1, false: 0}[h == ref]), "%s: a fresh process reloads the flushed trace", h)
		}
	},
	"fingerprint-always-matches": func(name string) {
		ref, mut := both(name, setup{files: map[string]string{"a.txt": "aaaa\n"}})
		for _, h := range []*host{ref, mut} {
			ctx := context.Background()
			st, err := h.client.CaptureFingerprint(ctx, []wire.ActiveFile{}, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(h.path("b.txt"), []byte("new\n"), 0o644)).To(Succeed())
			_, matches, err := h.client.VerifyFingerprint(ctx, st)
			Expect(err).NotTo(HaveOccurred())
			Expect(matches).To(Equal(h == mut), "%s: a new file goes unnoticed", h)
		}
	},
}
