package effects_test

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

// entryState draws a well-formed entry state: a kind and, for kinds that
// carry one, a non-blank hash.
func entryState(t *rapid.T, label string) effects.EntryState {
	kind := rapid.SampledFrom(effects.EntryKinds()).Draw(t, label+".kind")
	hash := rapid.SampledFrom([]string{"sha256:aa", "sha256:bb", "x"}).Draw(t, label+".hash")
	switch kind {
	case effects.KindMissing:
		return effects.Missing()
	case effects.KindDirectory:
		return effects.Directory()
	case effects.KindFile:
		return effects.File(hash)
	case effects.KindSymlink:
		return effects.Symlink(hash)
	}
	return effects.Other(hash)
}

// TestNewWriteValidIffStatesDiffer checks the typed rule of CONTRACTS §7.6
// over every pair of well-formed states: the evidence is valid exactly when
// the states differ.
func TestNewWriteValidIffStatesDiffer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		before, after := entryState(t, "before"), entryState(t, "after")
		got := effects.ValidWrite(effects.NewWrite("p", before, after))
		if want := before != after; got != want {
			t.Fatalf("ValidWrite(%v → %v) = %v, want %v", before, after, got, want)
		}
	})
}

// TestWriteSurvivesJSON checks that typed evidence keeps its validity
// through the wire encoding.
func TestWriteSurvivesJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := effects.NewWrite("p", entryState(t, "before"), entryState(t, "after"))
		back := roundTrip(t, w)
		if effects.ValidWrite(back) != effects.ValidWrite(w) {
			t.Fatalf("validity changed through JSON: %+v → %+v", w, back)
		}
	})
}

func roundTrip(t *rapid.T, w port.Write) port.Write {
	data, err := json.Marshal(w)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var back port.Write
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return back
}
