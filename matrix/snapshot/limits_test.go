package snapshot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/core/effects"
)

// sparse makes a sparse file of size bytes at p, or skips the test.
func sparse(t *testing.T, p string, size int64) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
}

func TestHugeFilesAreListedNotHashed(t *testing.T) {
	root := t.TempDir()
	sparse(t, filepath.Join(root, "huge"), 4<<40)
	if err := os.WriteFile(filepath.Join(root, "small"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := TakeContext(context.Background(), root, Limits{MaxFileBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 {
		t.Fatalf("snapshot %+v, want two entries", s)
	}
	huge := s[0]
	if huge.Path != "huge" || huge.Kind != effects.KindFile || huge.Hash != "" || huge.Size != 4<<40 ||
		!strings.Contains(huge.Skipped, "over the snapshot cap of 1048576 bytes") {
		t.Errorf("huge = %+v, want a file listed with its size and why it was not hashed", huge)
	}
	if runtime.GOOS == "linux" && !strings.Contains(huge.Skipped, "sparse") {
		t.Errorf("huge.Skipped = %q, want it to say the file is sparse", huge.Skipped)
	}
	if s[1].Hash != hashBytes([]byte("abc")) || s[1].Skipped != "" {
		t.Errorf("small = %+v, want it hashed", s[1])
	}
}

func TestTakeStopsWhenTheContextEnds(t *testing.T) {
	root := t.TempDir()
	sparse(t, filepath.Join(root, "big"), 1<<30)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("the run's deadline")
	cancel(stop)
	if _, err := TakeContext(ctx, root, Limits{MaxFileBytes: 1 << 40}); !errors.Is(err, stop) {
		t.Errorf("TakeContext after the context ended = %v, want its cause", err)
	}
	// Mid-file: the reader checks the context between chunks.
	ctx2, cancel2 := context.WithCancelCause(context.Background())
	r := ctxReader{ctx2, strings.NewReader(strings.Repeat("x", 100))}
	cancel2(stop)
	if _, err := r.Read(make([]byte, 10)); !errors.Is(err, stop) {
		t.Errorf("read after the context ended = %v, want its cause", err)
	}
	if _, err := TakeIdentities(ctx, root); !errors.Is(err, stop) {
		t.Errorf("TakeIdentities after the context ended = %v, want its cause", err)
	}
}

// BenchmarkTakeHugeSparse snapshots a workspace holding a 4 TiB sparse
// file: the cap keeps each snapshot to a stat of it, not terabytes of
// hashing.
func BenchmarkTakeHugeSparse(b *testing.B) {
	root := b.TempDir()
	f, err := os.Create(filepath.Join(root, "huge"))
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Truncate(4 << 40); err != nil {
		f.Close()
		b.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	for b.Loop() {
		if _, err := TakeContext(context.Background(), root, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
