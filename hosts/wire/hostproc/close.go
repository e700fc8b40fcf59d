package hostproc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/galaxy-stack/conform/hosts/wire"
)

// Close asks the host to shut down, closes its input and waits for it to
// exit; a host that does not exit within grace is killed with its process
// tree, and so is a host whose connection already broke. Close returns the
// shutdown call's error, or, when the host answered shutdown but had to be
// killed, a *wire.ProtocolError saying so (also listed by Incidents). The
// host's temporary home is removed. Calling Close again returns the same
// error.
func (c *Client) Close(grace time.Duration) error {
	c.closeOnce.Do(func() { c.closeErr = c.close(grace) })
	return c.closeErr
}

func (c *Client) close(grace time.Duration) error {
	defer c.removeHome()
	defer unregister(c)
	if c.cmd != nil {
		// Remember the host's tree while the host is alive: the processes
		// it started with their own group and a scrubbed environment are
		// found after its exit only this way.
		known := treeOf(c.cmd.Process.Pid, c.token, nil)
		c.mu.Lock()
		c.known = known
		c.mu.Unlock()
	}
	var err error
	broken := false
	select {
	case <-c.conn.Done():
		broken = true
	default:
		err = c.Call(context.Background(), wire.MethodShutdown, struct{}{}, grace, nil)
	}
	_ = c.stdin.Close()
	if c.cmd == nil {
		select {
		case <-c.exited:
		case <-time.After(grace):
		}
		return err
	}
	var pe *wire.ProtocolError
	wait := grace
	switch {
	case broken && errors.As(c.conn.Err(), &pe):
		wait = 0 // it broke the protocol: no shutdown is owed
	case broken:
		wait = min(grace, exitGrace) // its output ended: no shutdown could be sent
	case err != nil:
		wait = min(grace, exitGrace) // it did not answer shutdown
	}
	select {
	case <-c.waited:
		<-c.exited // bounded: the tree is killed and the pipes closed within a few seconds
		return err
	case <-time.After(wait):
	}
	killProcessGroup(c.cmd)
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.incident("the host could not be reaped within 5s of SIGKILL")
	}
	switch {
	case broken:
		c.incident("killed the host after it broke the protocol")
		return err
	case err != nil:
		c.incident(fmt.Sprintf("the host did not answer shutdown within %s; killed", grace))
		return err
	}
	reason := fmt.Sprintf("the host did not exit within %s of shutdown; killed", grace)
	c.incident(reason)
	return &wire.ProtocolError{Method: wire.MethodShutdown, Reason: reason}
}
