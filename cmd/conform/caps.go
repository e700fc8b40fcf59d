package main

import (
	"flag"

	"github.com/galaxy-stack/conform/matrix/oracle"
	"github.com/galaxy-stack/conform/matrix/snapshot"
)

// capsHelp is the help text of the flags of addCapFlags.
const capsHelp = `What the harness reads of a workspace is capped: an expected file over
--max-read-size (16 MiB unless set) is not read and fails as LIMIT_EXCEEDED;
a workspace file over --max-snapshot-file-size (64 MiB unless set) is not
hashed by the harness's snapshots, which list it with its size and the reason
(a change of its size still counts as a change). Arranging the workspace and
snapshotting it stop when --timeout ends.`

// capFlags are the caps of what the harness reads of a workspace.
type capFlags struct {
	read, snapshot int64
}

// addCapFlags declares --max-read-size and --max-snapshot-file-size on fs.
func addCapFlags(fs *flag.FlagSet) *capFlags {
	c := &capFlags{}
	fs.Int64Var(&c.read, "max-read-size", oracle.DefaultMaxReadBytes, "read at most `BYTES` of each expected file")
	fs.Int64Var(&c.snapshot, "max-snapshot-file-size", snapshot.DefaultMaxFileBytes, "hash workspace files of up to `BYTES` in the harness's snapshots")
	return c
}

// apply checks the caps and makes them the process's defaults.
func (c *capFlags) apply(cmd string) error {
	if c.read <= 0 {
		return usagef("%s: --max-read-size must be a positive number of bytes", cmd)
	}
	if c.snapshot <= 0 {
		return usagef("%s: --max-snapshot-file-size must be a positive number of bytes", cmd)
	}
	oracle.MaxReadBytes, snapshot.MaxFileBytes = c.read, c.snapshot
	return nil
}
