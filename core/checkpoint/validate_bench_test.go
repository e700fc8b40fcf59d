package checkpoint

import (
	"testing"
)

// BenchmarkValidate measures [Validate] of a valid serialized checkpoint
// with every optional part present, as the controller checks the
// checkpoint it has just created.
func BenchmarkValidate(b *testing.B) {
	cp, err := Create(fullPayload(), ReasonMilestone, "2026-01-02T03:04:05.000Z")
	if err != nil {
		b.Fatal(err)
	}
	data, err := Serialize(cp)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if issues := Validate(data); issues != nil {
			b.Fatal(issues)
		}
	}
}
