package lab

import (
	"errors"
	"testing"

	"github.com/galaxy-stack/conform/matrix/oracle"
)

func TestQuoteStderrOnceKeepsTheFirstQuote(t *testing.T) {
	rep := &Report{
		ErrorMessage: "list_files failed: host broke the protocol answering \"tool/execute\": the host exited without answering (exit status 2); stderr: panic: x",
		Failures: []oracle.Failure{
			{Message: "Expected status completed, received failed.", Actual: "failed"},
			{Message: "The host broke the protocol answering \"tool/execute\": the host exited without answering (exit status 2); stderr: panic: x",
				Actual: "host broke the protocol answering \"tool/execute\": the host exited without answering (exit status 2); stderr: panic: x"},
			{Message: "The host's store could not list its checkpoints: the host exited without answering (exit status 2); stderr: panic: x and more"},
			{Message: "another process: the host exited without answering (exit status 1); stderr: other"},
		},
	}
	quoteStderrOnce(rep)
	want := []string{
		"list_files failed: host broke the protocol answering \"tool/execute\": the host exited without answering (exit status 2); stderr: panic: x",
		"The host broke the protocol answering \"tool/execute\": the host exited without answering (exit status 2)",
		"host broke the protocol answering \"tool/execute\": the host exited without answering (exit status 2)",
		"The host's store could not list its checkpoints: the host exited without answering (exit status 2) and more",
		"another process: the host exited without answering (exit status 1); stderr: other",
	}
	got := []string{rep.ErrorMessage, rep.Failures[1].Message, rep.Failures[1].Actual, rep.Failures[2].Message, rep.Failures[3].Message}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestBrokeProtocolSaysItOnce(t *testing.T) {
	if got, want := brokeProtocol(errors.New(`host broke the protocol answering "shutdown": killed`)), `The host broke the protocol answering "shutdown": killed`; got != want {
		t.Errorf("brokeProtocol = %q, want %q", got, want)
	}
	if got, want := brokeProtocol(errors.New("it hung")), "The host broke the protocol: it hung"; got != want {
		t.Errorf("brokeProtocol = %q, want %q", got, want)
	}
}
