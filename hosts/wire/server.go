package wire

import (
	"context"
	"encoding/json"
	"errors"
	"io"
)

// Serve runs a host on r and w (normally stdin and stdout) until the
// harness sends shutdown or closes r. Each request is answered by h; the
// shutdown request is answered by h too, and then Serve returns nil.
func Serve(ctx context.Context, r io.Reader, w io.Writer, h Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	shutdown := make(chan struct{})
	wrapped := HandlerFunc(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		res, err := h.Handle(ctx, method, params)
		if method == MethodShutdown {
			defer close(shutdown)
			if res == nil && err == nil {
				res = struct{}{}
			}
		}
		return res, err
	})
	conn := NewConn(NewFramer(r, w), ConnOptions{Handler: wrapped})
	errc := make(chan error, 1)
	go func() { errc <- conn.Run(ctx) }()
	select {
	case <-shutdown:
		conn.Wait()
		return nil
	case err := <-errc:
		conn.Wait()
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
}

// Decode unmarshals params into v, answering a malformed request with
// ErrInvalidParams.
func Decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return &Error{Code: ErrInvalidParams.Code, Message: "invalid params: " + err.Error()}
	}
	return nil
}
