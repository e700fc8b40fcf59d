package lab

import "strings"

// stderrMarker starts the quote of a host's standard error in the wire
// client's message for a host that exited without answering.
const stderrMarker = "; stderr: "

// quoteStderrOnce keeps the quote of the host's standard error in the
// first of rep's messages that has it, in the order a report is read (the
// run's error message, then each failure's message and actual value), and
// cuts it from the later ones: every call to a host that exited says so
// with the same stderr tail.
func quoteStderrOnce(rep *Report) {
	fields := []*string{&rep.ErrorMessage}
	for i := range rep.Failures {
		fields = append(fields, &rep.Failures[i].Message, &rep.Failures[i].Actual)
	}
	quote := ""
	for _, f := range fields {
		i := strings.Index(*f, stderrMarker)
		if i < 0 {
			continue
		}
		rest := (*f)[i+len(stderrMarker):]
		switch {
		case quote == "":
			quote = rest
		case strings.HasPrefix(quote, rest):
			*f = (*f)[:i]
		case strings.HasPrefix(rest, quote):
			*f = (*f)[:i] + rest[len(quote):]
		}
	}
}

// brokeProtocol is the message of a failure for a host that broke the
// protocol with err.
func brokeProtocol(err error) string {
	const lead = "host broke the protocol"
	msg := err.Error()
	if s, ok := strings.CutPrefix(msg, lead); ok {
		return "The " + lead + s
	}
	return "The " + lead + ": " + msg
}
