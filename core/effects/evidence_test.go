package effects_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/core/effects"
	"github.com/galaxy-stack/conform/core/port"
)

func w(beforeKind string, before *string, afterKind string, after *string) port.Write {
	return port.Write{Path: "src/a.ts", BeforeKind: beforeKind, BeforeHash: before, AfterKind: afterKind, AfterHash: after}
}

var (
	h1 = ptr("sha256:1111")
	h2 = ptr("sha256:2222")
)

var _ = Describe("typed mutation evidence", func() {
	DescribeTable("ValidWrite (CONTRACTS §7.6)",
		func(write port.Write, valid bool) {
			Expect(effects.ValidWrite(write)).To(Equal(valid))
			if valid {
				Expect(effects.CheckWrite(write)).To(Succeed())
			} else {
				Expect(effects.CheckWrite(write)).NotTo(Succeed())
			}
		},
		Entry("legacy create", w("", nil, "", h1), true),
		Entry("legacy edit", w("", h1, "", h2), true),
		Entry("legacy delete", w("", h1, "", nil), true),
		Entry("legacy null → null", w("", nil, "", nil), false),
		Entry("legacy unchanged hash", w("", h1, "", ptr("sha256:1111")), false),
		Entry("legacy blank before", w("", ptr(" "), "", h1), false),
		Entry("legacy blank after", w("", h1, "", ptr("\uFEFF")), false),
		Entry("legacy empty after", w("", h1, "", ptr("")), false),
		Entry("typed create", w("missing", nil, "file", h1), true),
		Entry("typed replace", w("file", h1, "file", h2), true),
		Entry("typed delete", w("file", h1, "missing", nil), true),
		Entry("typed mkdir", w("missing", nil, "directory", nil), true),
		Entry("typed rmdir", w("directory", nil, "missing", nil), true),
		Entry("file → directory", w("file", h1, "directory", nil), true),
		Entry("file → symlink with the same hash", w("file", h1, "symlink", h1), true),
		Entry("special entry appears", w("missing", nil, "other", h2), true),
		Entry("unchanged file", w("file", h1, "file", ptr("sha256:1111")), false),
		Entry("unchanged directory", w("directory", nil, "directory", nil), false),
		Entry("missing → missing", w("missing", nil, "missing", nil), false),
		Entry("only beforeKind", w("file", h1, "", h2), false),
		Entry("only afterKind", w("", nil, "file", h1), false),
		Entry("unknown kind", w("socket", h1, "file", h2), false),
		Entry("directory with a hash", w("directory", h1, "missing", nil), false),
		Entry("missing with a hash", w("missing", h1, "file", h2), false),
		Entry("file without a hash", w("file", nil, "file", h2), false),
		Entry("symlink with a blank hash", w("missing", nil, "symlink", ptr("  ")), false),
		Entry("other without a hash", w("other", nil, "missing", nil), false),
	)

	It("U+0085 is not white space to the original, so a NEL hash is non-blank", func() {
		Expect(effects.ValidWrite(w("", nil, "", ptr("\u0085")))).To(BeTrue())
	})

	It("lists the entry kinds", func() {
		Expect(effects.EntryKinds()).To(Equal([]string{"directory", "file", "missing", "other", "symlink"}))
		Expect(effects.IsEntryKind("missing")).To(BeTrue())
		Expect(effects.IsEntryKind("")).To(BeFalse())
	})

	Describe("builders", func() {
		It("builds valid create, replace and delete evidence", func() {
			c := effects.CreateFile("a.txt", "sha256:aa")
			Expect(c).To(Equal(port.Write{Path: "a.txt", BeforeKind: "missing", AfterKind: "file", AfterHash: ptr("sha256:aa")}))
			r := effects.ReplaceFile("a.txt", "sha256:aa", "sha256:bb")
			Expect(*r.BeforeHash).To(Equal("sha256:aa"))
			Expect(*r.AfterHash).To(Equal("sha256:bb"))
			d := effects.DeleteFile("a.txt", "sha256:bb")
			Expect(d.AfterKind).To(Equal("missing"))
			Expect(d.AfterHash).To(BeNil())
			for _, e := range []port.Write{c, r, d} {
				Expect(effects.ValidWrite(e)).To(BeTrue())
			}
		})

		It("builds kind changes", func() {
			Expect(effects.ValidWrite(effects.NewWrite("d", effects.Directory(), effects.Symlink("sha256:l")))).To(BeTrue())
			Expect(effects.ValidWrite(effects.NewWrite("d", effects.Other("x"), effects.Missing()))).To(BeTrue())
			Expect(effects.ValidWrite(effects.NewWrite("d", effects.File("x"), effects.File("x")))).To(BeFalse())
			Expect(effects.ValidWrite(effects.NewWrite("d", effects.Missing(), effects.File("")))).To(BeFalse())
		})

		It("writes JSON null for absent hashes", func() {
			data, err := json.Marshal(effects.CreateFile("a", "h"))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(data)).To(Equal(`{"path":"a","beforeHash":null,"afterHash":"h","beforeKind":"missing","afterKind":"file"}`))
		})
	})
})
