package oracle_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/matrix/oracle"
)

var _ = Describe("a file the snapshot did not hash", func() {
	const why = "not hashed: 4398046511104 bytes, over the snapshot cap of 67108864 bytes"

	// skip marks path unhashed in the final snapshot, as a snapshot over
	// its cap lists it.
	skip := func(r *run, path string) {
		for i, e := range r.obs.Final {
			if e.Path == path {
				r.obs.Final[i].Hash, r.obs.Final[i].Size, r.obs.Final[i].Skipped = "", 4<<40, why
			}
		}
	}

	It("fails unchanged with the reason, never passes it", func() {
		r := baseRun()
		skip(r, "a.txt")
		r.fx.Expected.AllowedChanges = append(r.fx.Expected.AllowedChanges, "a.txt")
		Expect(oracle.Check(r.fx, r.obs)).To(ContainElement(HaveField("Message",
			"File 'a.txt' cannot be checked byte for byte: the harness's snapshot "+why+" (raise --max-snapshot-file-size).")))
	})

	It("fails write evidence with the reason, not as a hash mismatch", func() {
		r := baseRun()
		skip(r, "src/b.txt")
		Expect(oracle.Check(r.fx, r.obs)).To(ConsistOf(HaveField("Message",
			"Mutation evidence hash for 'src/b.txt' cannot be checked: the harness's snapshot "+why+" (raise --max-snapshot-file-size).")))
	})
})
