package failure

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
)

// gomegaMessage returns the message Gomega fails with when assert fails.
func gomegaMessage(t *testing.T, assert func(g gomega.Gomega)) string {
	t.Helper()
	var msg string
	assert(gomega.NewGomega(func(m string, _ ...int) { msg = m }))
	if msg == "" {
		t.Fatal("the assertion did not fail")
	}
	return msg
}

type pair struct {
	A int
	B string
}

func TestFailureReasonIsASentence(t *testing.T) {
	cases := []struct {
		name   string
		assert func(g gomega.Gomega)
		want   string
	}{
		{"equal", func(g gomega.Gomega) {
			g.Expect("failed").To(gomega.Equal("completed"), "%s: the status of run r", "a.json")
		}, `a.json: the status of run r: expected "completed", got "failed"`},
		{"no description", func(g gomega.Gomega) { g.Expect("failed").To(gomega.Equal("completed")) },
			`expected "completed", got "failed"`},
		{"succeed", func(g gomega.Gomega) {
			g.Expect(fmt.Errorf("wrap: %w", errors.New("boom"))).To(gomega.Succeed(), "reading the store.")
		}, `reading the store: expected success, got the error wrap: boom`},
		{"unexpected error", func(g gomega.Gomega) {
			g.Expect(errors.New("boom")).NotTo(gomega.HaveOccurred(), "calling l")
		}, `calling l: unexpected error: boom`},
		{"no error", func(g gomega.Gomega) { g.Expect(nil).To(gomega.HaveOccurred(), "an escape") },
			`an escape: expected an error, got nil`},
		{"true", func(g gomega.Gomega) { g.Expect(false).To(gomega.BeTrue(), "l is ok") }, `l is ok: expected true, got false`},
		{"nil", func(g gomega.Gomega) { g.Expect(&pair{1, "x"}).To(gomega.BeNil(), "the error") },
			`the error: expected nil, got {A: 1, B: "x"}`},
		{"not nil", func(g gomega.Gomega) { g.Expect((*pair)(nil)).NotTo(gomega.BeNil(), "the result") },
			`the result: expected a value, got nil`},
		{"duration", func(g gomega.Gomega) {
			g.Expect(3*time.Second).To(gomega.BeNumerically("<", 2500*time.Millisecond), "run_command took 3s")
		}, `run_command took 3s: expected 3s to be < 2.5s`},
		{"element", func(g gomega.Gomega) {
			g.Expect([]string{"a", "b"}).To(gomega.ContainElement("c"), "the tools")
		}, `the tools: expected ["a", "b"] to contain element matching "c"`},
		{"substring of lines", func(g gomega.Gomega) {
			g.Expect("line1\nline2").To(gomega.ContainSubstring("zz"), "the content")
		}, `the content: expected "line1\nline2" to contain substring "zz"`},
		{"struct", func(g gomega.Gomega) { g.Expect(pair{1, "x"}).To(gomega.Equal(pair{2, "y"}), "the pair") },
			`the pair: expected {A: 2, B: "y"}, got {A: 1, B: "x"}`},
		{"empty string", func(g gomega.Gomega) { g.Expect("").To(gomega.Equal("x"), "the id") }, `the id: expected "x", got ""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := gomegaMessage(t, c.assert)
			if got := Reason(msg); got != c.want {
				t.Errorf("Reason of\n%s\n= %s\nwant %s", msg, got, c.want)
			}
		})
	}
}

func TestFailureReasonOfALongStringHasNoTruncatedDiff(t *testing.T) {
	a, b := strings.Repeat("a", 100)+"x", strings.Repeat("a", 100)+"y"
	got := Reason(gomegaMessage(t, func(g gomega.Gomega) { g.Expect(a).To(gomega.Equal(b), "the content") }))
	if strings.Contains(got, "|") || !strings.HasPrefix(got, "the content: expected ") || strings.Contains(got, "<string>") {
		t.Errorf("Reason = %s", got)
	}
}

func TestFailureReasonKeepsOtherMessages(t *testing.T) {
	msg := "fixtures/matrix/01-x/a.json: status failed\n  expected.status: Expected status completed, received failed."
	if got := Reason(msg); got != msg {
		t.Errorf("Reason = %q, want it unchanged", got)
	}
}
