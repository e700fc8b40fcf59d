package hosterr_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/galaxy-stack/conform/hosts/reference/hosterr"
)

var _ = Describe("Error", func() {
	It("prints the library, the code and the message", func() {
		Expect(hosterr.Newf("workspace", hosterr.NotFound, "Workspace path does not exist: '%s'.", "a.txt").Error()).
			To(Equal("workspace: NOT_FOUND: Workspace path does not exist: 'a.txt'."))
		Expect((&hosterr.Error{Code: hosterr.IOError, Message: "m"}).Error()).To(Equal("IO_ERROR: m"))
	})

	It("unwraps to its cause", func() {
		err := fmt.Errorf("wrapped: %w", &hosterr.Error{Library: "command", Code: hosterr.NotFound, Message: "m", Err: fs.ErrNotExist})
		Expect(errors.Is(err, fs.ErrNotExist)).To(BeTrue())
		var he *hosterr.Error
		Expect(errors.As(err, &he)).To(BeTrue())
		Expect(he.Code).To(Equal(hosterr.NotFound))
	})

	DescribeTable("matches a sentinel by code and, when the sentinel names one, by library",
		func(target *hosterr.Error, match bool) {
			err := fmt.Errorf("wrapped: %w", hosterr.Newf("workspace", hosterr.NotFound, "gone"))
			Expect(errors.Is(err, target)).To(Equal(match))
		},
		Entry("same library and code", &hosterr.Error{Library: "workspace", Code: hosterr.NotFound}, true),
		Entry("any library", &hosterr.Error{Code: hosterr.NotFound}, true),
		Entry("other library", &hosterr.Error{Library: "command", Code: hosterr.NotFound}, false),
		Entry("other code", &hosterr.Error{Library: "workspace", Code: hosterr.IOError}, false),
		Entry("not a sentinel: it has a message", &hosterr.Error{Library: "workspace", Code: hosterr.NotFound, Message: "gone"}, false),
		Entry("not a sentinel: it has a cause", &hosterr.Error{Library: "workspace", Code: hosterr.NotFound, Err: fs.ErrNotExist}, false),
	)

	It("is retryable only when UNAVAILABLE", func() {
		for _, c := range []hosterr.Code{hosterr.AlreadyExists, hosterr.Canceled, hosterr.Conflict, hosterr.DeadlineExceeded,
			hosterr.InvalidInput, hosterr.IOError, hosterr.LimitExceeded, hosterr.NotFound, hosterr.PermissionDenied,
			hosterr.PreconditionFailed} {
			Expect((&hosterr.Error{Code: c}).Retryable()).To(BeFalse(), string(c))
		}
		Expect((&hosterr.Error{Code: hosterr.Unavailable}).Retryable()).To(BeTrue())
	})
})

var _ = Describe("FromContext", func() {
	It("is nil while the context is live", func() {
		Expect(hosterr.FromContext(context.Background(), "command")).To(Succeed())
	})

	It("reports a canceled context as CANCELED", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := hosterr.FromContext(ctx, "command")
		Expect(err).To(MatchError(&hosterr.Error{Library: "command", Code: hosterr.Canceled}))
		Expect(err).To(MatchError(context.Canceled))
		Expect(err.Error()).To(Equal("command: CANCELED: The run was canceled."))
	})

	It("reports an elapsed deadline as DEADLINE_EXCEEDED", func() {
		ctx, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
		defer cancel()
		err := hosterr.FromContext(ctx, "workspace")
		Expect(err).To(MatchError(&hosterr.Error{Library: "workspace", Code: hosterr.DeadlineExceeded}))
		Expect(err).To(MatchError(context.DeadlineExceeded))
		Expect(err.Error()).To(Equal("workspace: DEADLINE_EXCEEDED: The run deadline elapsed."))
	})
})
