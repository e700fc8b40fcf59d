package checkpoint

import (
	"errors"
	"testing"
)

// FuzzCheckpointAssert feeds untrusted bytes to Assert and Validate: neither
// may panic, Assert's errors are *IntegrityError, Assert accepts nothing
// Validate rejects, and what Assert accepts serializes to a document it
// accepts again.
func FuzzCheckpointAssert(f *testing.F) {
	for _, p := range []Payload{minimalPayload(), fullPayload()} {
		cp, err := Create(p, ReasonPause, "2026-01-02T03:04:05.006Z")
		if err != nil {
			f.Fatal(err)
		}
		b, err := Serialize(cp)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cp, err := Assert(data)
		issues := Validate(data)
		if err != nil {
			var ie *IntegrityError
			if !errors.As(err, &ie) {
				t.Fatalf("Assert returned %T %v, not an *IntegrityError", err, err)
			}
			if cp != nil {
				t.Fatal("Assert returned a checkpoint with an error")
			}
			return
		}
		if len(issues) > 0 {
			t.Fatalf("Assert accepted a checkpoint Validate rejects: %v", issues)
		}
		b, err := Serialize(cp)
		if err != nil {
			t.Fatalf("Serialize of an asserted checkpoint: %v", err)
		}
		if _, err := Assert(b); err != nil {
			t.Fatalf("Assert of a re-serialized checkpoint: %v", err)
		}
	})
}
