package checkpoint

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	"github.com/galaxy-stack/conform/internal/suite"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Each property is shown to fail for a deliberately broken variant.
var _ = Describe("the properties catch broken variants", func() {
	It("a plain encoding/json serializer (declaration order, HTML escapes) breaks canonical serialization", func() {
		o := defaults()
		o.marshal, o.marshalTree, o.wrapPayload = json.Marshal, json.Marshal, nil
		suite.ExpectPropertyFails("encoding-json", 500*time.Millisecond, propSerialization(o))
	})

	It("no redaction leaks secrets", func() {
		o := defaults()
		o.redact = func(s string) string { return s }
		suite.ExpectPropertyFails("no-redaction", 500*time.Millisecond, propNoSecrets(o))
	})

	for _, field := range RedactedFields() {
		It("skipping the redaction of "+field+" leaks a secret", func() {
			o := defaults()
			o.skipRedaction = field
			suite.ExpectPropertyFails("skip-"+field, 500*time.Millisecond, propNoSecrets(o))
		})
	}

	It("a validator without the hash check misses single-byte changes", func() {
		o := defaults()
		o.skipHashCheck = true
		suite.ExpectPropertyFails("no-hash-check", 500*time.Millisecond, propTamper(o))
	})

	It("a hash that leaves out createdAt misses a change of the creation time", func() {
		weak := defaults()
		weak.envelope = func(_ string, payload *Payload, reason Reason) any {
			return map[string]any{"payload": payload, "reason": reason}
		}
		weak.wrapPayload = nil
		cp, err := weak.create(minimalPayload(), ReasonPause, "2026-01-02T03:04:05.006Z")
		Expect(err).NotTo(HaveOccurred())
		b, err := weak.marshal(cp)
		Expect(err).NotTo(HaveOccurred())
		i := bytes.Index(b, []byte(`.006Z`)) + 3 // the last millisecond digit
		rec := &rapidtest.Recorder{}
		checkTamper(rec, weak, b, i, '7')
		Expect(rec.Failed()).To(BeTrue(), "the weak hash should miss the change")

		strong := defaults()
		cp, err = strong.create(minimalPayload(), ReasonPause, "2026-01-02T03:04:05.006Z")
		Expect(err).NotTo(HaveOccurred())
		b, err = strong.marshal(cp)
		Expect(err).NotTo(HaveOccurred())
		rec = &rapidtest.Recorder{}
		checkTamper(rec, strong, b, bytes.Index(b, []byte(`.006Z`))+3, '7')
		Expect(rec.Failed()).To(BeFalse(), "the real hash must catch it")
	})

	It("a shallow clone lets a mutation reach the original", func() {
		shallow := func(c *Checkpoint) *Checkpoint { out := *c; return &out }
		suite.ExpectPropertyFails("shallow-clone", 500*time.Millisecond, propCloneIsolated(shallow))
	})
})
