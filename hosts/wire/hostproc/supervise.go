package hostproc

import (
	"sync"
	"time"
)

// live holds every started client whose Close has not finished.
var live struct {
	sync.Mutex
	clients map[*Client]bool
}

func register(c *Client) {
	live.Lock()
	defer live.Unlock()
	if live.clients == nil {
		live.clients = map[*Client]bool{}
	}
	live.clients[c] = true
}

func unregister(c *Client) {
	live.Lock()
	defer live.Unlock()
	delete(live.clients, c)
}

// KillAll kills every live host started by this process, with its process
// group and (on Linux) every other process of its tree, waits briefly for
// them to be reaped and removes their temporary homes. The CLI calls it on
// SIGINT and SIGTERM before exiting; it is safe to call at any time, and
// clients killed this way still answer Close.
func KillAll() {
	live.Lock()
	cs := make([]*Client, 0, len(live.clients))
	for c := range live.clients {
		cs = append(cs, c)
	}
	live.Unlock()
	for _, c := range cs {
		// Remember the whole tree first: a child in a group of its own
		// with a scrubbed environment is found later only this way.
		known := treeOf(c.PID(), c.token, nil)
		c.mu.Lock()
		c.known = append(c.known, known...)
		c.mu.Unlock()
		c.incident("killed by KillAll")
		killProcessGroup(c.cmd)
	}
	deadline := time.After(3 * time.Second)
	for _, c := range cs {
		select {
		case <-c.exited:
			c.removeHome()
		case <-deadline:
			return
		}
	}
}
