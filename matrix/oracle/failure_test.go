package oracle_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/matrix/fixture"
	"github.com/galaxy-stack/conform/matrix/oracle"
)

var _ = Describe("Failure", func() {
	It("renders with and without a file", func() {
		fl := f("expected.toolSequence", "[a b]", "[a]", "m")
		Expect(fl.String()).To(Equal("expected.toolSequence: expected [a b], got [a]"))
		fl.File = "x.json"
		Expect(fl.String()).To(Equal("x.json: expected.toolSequence: expected [a b], got [a]"))
	})

	It("shows the expected and the actual value in a message that names neither", func() {
		r := baseRun()
		ok := false
		r.fx.Expected.ToolResults = []fixture.ExpectedToolResult{{}, {OK: &ok}}
		got := oracle.Check(r.fx, r.obs)
		Expect(got).To(HaveExactElements(HaveField("Assertion", "expected.toolResults[1].ok")))
		Expect(got[0].Message).To(Equal("Tool result 2 ok mismatch."), "the original lab's message is kept as it is")
		Expect(got[0].Detail()).To(Equal("Tool result 2 ok mismatch: expected false, got true."))
	})

	It("leaves a message that already names both values as it is", func() {
		Expect(f("expected.status", "failed", "completed", "Expected status failed, received completed.").Detail()).
			To(Equal("Expected status failed, received completed."))
		Expect(f("expected.toolSequence", "[a b]", "[a]", `Expected tool sequence ["a","b"], received ["a"].`).Detail()).
			To(Equal(`Expected tool sequence ["a","b"], received ["a"].`), "the JSON spelling of the values counts")
		Expect(f("writeEvidence", "w", "a", "").Detail()).To(Equal("expected w, got a"))
	})

	It("shows where a long file's content differs, not its first characters", func() {
		r := baseRun()
		long := strings.Repeat("line of the file\n", 100)
		write(r.dir, "a.txt", long+"the answer is 42\n")
		r.fx.Expected.Files[0].Content = ptr(long + "the answer is 43\n")
		r.read()
		var got []oracle.Failure
		for _, fl := range oracle.Check(r.fx, r.obs) {
			if fl.Assertion == "expected.files[0].content" {
				got = append(got, fl)
			}
		}
		Expect(got).To(HaveLen(1))
		Expect(got[0].Expected).To(And(HavePrefix("from character 1665 of 1717: …"), ContainSubstring("the answer is 43")))
		Expect(got[0].Actual).To(And(HavePrefix("from character 1665 of 1717: …"), ContainSubstring("the answer is 42")))
		Expect(got[0].Detail()).To(ContainSubstring("File 'a.txt' content does not match the fixture: expected from character 1665"))
	})

	It("quotes list entries that would be ambiguous", func() {
		r := baseRun()
		r.obs.ToolSequence = []string{"a b", "", `q"`, "[x]"}
		Expect(oracle.Check(r.fx, r.obs)).To(HaveExactElements(And(
			HaveField("Actual", `["a b" "" "q\"" "[x]"]`),
			HaveField("Message", `Expected tool sequence ["read_file","write_file"], received ["a b","","q\"","[x]"].`),
		)))
	})

	It("cuts long texts deterministically", func() {
		r := baseRun()
		r.obs.FinalResponse = strings.Repeat("é", 250)
		got := oracle.Check(r.fx, r.obs)
		Expect(got).To(HaveLen(1))
		Expect(got[0].Actual).To(Equal(`"` + strings.Repeat("é", 200) + `"…(50 more characters)`))
		r.obs.FinalResponse = strings.Repeat("é", 200)
		Expect(oracle.Check(r.fx, r.obs)).To(HaveExactElements(HaveField("Actual", `"`+strings.Repeat("é", 200)+`"`)), "a text of exactly the limit is not cut")
	})

	It("keeps the original's JSON in messages without HTML escaping", func() {
		r := baseRun()
		r.fx.Expected.FinalResponseIncludes = []string{"<a&b>"}
		Expect(oracle.Messages(oracle.Check(r.fx, r.obs))).To(Equal([]string{`Final response does not include "<a&b>".`}))
	})
})

var _ = Describe("Observed helpers", func() {
	It("maps the core's cancelled state", func() {
		Expect(oracle.StatusOf("cancelled")).To(Equal(fixture.StatusCanceled))
		Expect(oracle.StatusOf("paused")).To(Equal(fixture.StatusPaused))
	})

	It("turns unfired indexes into per-control flags", func() {
		Expect(oracle.ControlsFired(3, []int{2})).To(Equal([]bool{true, false, true}))
		Expect(oracle.ControlsFired(0, nil)).To(BeEmpty())
		Expect(oracle.ControlsFired(2, []int{1, 0, 3})).To(Equal([]bool{false, true}), "1 is the first control; 0 and 3 name none")
	})

	It("derives checkpoint reasons from the checkpoints", func() {
		o := &oracle.Observed{Checkpoints: []oracle.Checkpoint{{Reason: "pause"}, {Reason: "failure"}}}
		Expect(o.CheckpointReasons()).To(Equal([]string{"pause", "failure"}))
	})
})
