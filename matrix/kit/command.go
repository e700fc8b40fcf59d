package kit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/galaxy-stack/conform/internal/proc"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// lateWindow is how long a check waits after a run before it looks for a
// canceled command's late write. The scenarios' commands schedule it 0.5 s
// after a command that exits at once, or 1 s after the start of one that
// is canceled 0.3–0.5 s in, so a process that survived has made it by
// then; the process table catches the survivors that have not.
const lateWindow = 800 * time.Millisecond

// survivorPoll is how often CommandGone looks at the process table while
// a run's survivors may still be on their way out.
const survivorPoll = 20 * time.Millisecond

// CommandGone asserts that no process of the scenario's command is left
// and that its late write never happened. The command wrote the PIDs of
// its interpreter and of its children to the workspace file pids, which
// shows it started. Where the system has /proc, the process table decides:
// every live process whose working directory is inside the workspace is
// the command's (the listed PIDs may belong to the PID namespace of a
// Containment backend and name other processes out here). Without /proc,
// the listed PIDs are probed with kill(pid, 0). A process found is killed,
// so the certification leaves nothing running, and fails the spec. Call it
// before the check starts any host process of its own: a host runs in the
// workspace too.
//
// How long it waits depends on what it can see. A run whose host was told
// to use no containment backend runs its commands in this system's
// namespaces, where the process table shows every process of the command
// with its working directory in the workspace; the commands' processes
// stay alive until they make their late write. So an empty table and no
// late file prove that no process survived: the check looks at the table
// until it is empty (a killed process takes a moment to leave it), for at
// most lateWindow, and then at the late file. Where the command may run
// in a sandbox, whose processes show another working directory, or where
// there is no process table, a survivor can only be seen by its late
// write, so the check waits the whole lateWindow first.
func (o *Outcome) CommandGone(pids, late string) {
	GinkgoHelper()
	live, table := o.survivors()
	listed := o.pidsIn(pids)
	if !table {
		for _, pid := range listed {
			if proc.Alive(pid) {
				live = append(live, pid)
			}
		}
	}
	sort.Ints(live)
	for _, pid := range live {
		proc.Kill(pid)
	}
	Expect(len(live)).To(BeZero(), "%s: %d process(es) of the command were still alive %s after the run ended (the harness killed them); a host must end the command's whole process group before it answers the call",
		o.File, len(live), lateWindow)
	_, err := os.Lstat(filepath.Join(o.Workspace, late))
	Expect(os.IsNotExist(err)).To(BeTrue(), "%s: %s appeared in the workspace after the run ended: a process of the canceled command outlived the call and made its late write", o.File, late)
}

// survivors returns the processes working in the run's workspace once
// CommandGone's wait is over, and whether the system has a process table
// to list them from: for an uncontained run with a table, as soon as the
// table shows none (at most lateWindow after the call); otherwise after
// the whole lateWindow.
func (o *Outcome) survivors() (live []int, table bool) {
	if !o.uncontainedRun {
		time.Sleep(lateWindow)
		return processesUnder(o.Workspace)
	}
	end := time.Now().Add(lateWindow)
	for {
		live, table = processesUnder(o.Workspace)
		if !table {
			// No table: only the late write can show a survivor.
			time.Sleep(time.Until(end))
			return nil, false
		}
		if len(live) == 0 || !time.Now().Before(end) {
			return live, true
		}
		time.Sleep(survivorPoll)
	}
}

// pidsIn reads the PIDs a command wrote to the workspace file rel, one a
// line, failing the spec when the command never wrote any.
func (o *Outcome) pidsIn(rel string) []int {
	GinkgoHelper()
	pids, err := proc.ReadPIDs(filepath.Join(o.Workspace, rel))
	if errors.Is(err, fs.ErrNotExist) {
		Fail(fmt.Sprintf("%s: the command never wrote %s: the host did not start it before the cancellation", o.File, rel))
	}
	Expect(err).NotTo(HaveOccurred(), "%s: %s", o.File, rel)
	Expect(pids).NotTo(BeEmpty(), "%s: the command wrote no PID to %s", o.File, rel)
	return pids
}

// SeqOutput is what `seq 1 n` prints.
func SeqOutput(n int) []byte {
	var b []byte
	for i := 1; i <= n; i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '\n')
	}
	return b
}

// Spilled asserts that the host kept the complete output want of one
// stream of call callID: the result names an artifact, and a file in the
// host's storeDir holds exactly want (same size, same SHA-256). A host
// that declares capabilities.spill false keeps no such copy: the scenario
// is then not applicable.
func (o *Outcome) Spilled(callID, stream string, want []byte) {
	GinkgoHelper()
	if !o.TestContext.Host().Initialized().Capabilities.Spill {
		NotApplicable("the host's initialize declares capabilities.spill false, so it keeps no complete copy of a truncated stream to check (hosts/wire/PROTOCOL.md, initialize)")
	}
	r := o.Answer(callID)
	Expect(r.ArtifactRef).NotTo(BeEmpty(), "%s: %s truncated its %s but its result names no artifact holding the complete output", o.File, callID, stream)
	sum := sha256.Sum256(want)
	wantHash := hex.EncodeToString(sum[:])
	var seen []string
	found := false
	err := filepath.WalkDir(o.Store, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || found {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(o.Store, p)
		if info.Size() < int64(len(want)) || info.Size() > maxSpillRead {
			if strings.Contains(r.ArtifactRef, d.Name()) {
				seen = append(seen, fmt.Sprintf("%s (%d bytes)", filepath.ToSlash(rel), info.Size()))
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if holdsStream(b, want) {
			found = true
		} else {
			seen = append(seen, fmt.Sprintf("%s (%d bytes, without the stream)", filepath.ToSlash(rel), info.Size()))
		}
		return nil
	})
	Expect(err).NotTo(HaveOccurred(), "%s: the harness cannot read the host's storeDir", o.File)
	Expect(found).To(BeTrue(), "%s: no file of the host's storeDir holds the complete %s of %s (%d bytes, sha256 %s), whole or as one piece of a larger file; the result names artifact %q, and the candidates were: %s. A host must keep the whole output in its spill file",
		o.File, stream, callID, len(want), wantHash, r.ArtifactRef, join(seen))
}

// CallTimeoutHonored calls run_command on a fresh host with a timeoutMs
// argument far below the dispatch bound the harness gives the call: the
// command's own timeout must end it, not the dispatch bound (catches
// ignore-call-timeout, which the core's run cannot show: it sends the
// argument as the dispatch bound too), and must end its whole process
// group, a background child included, before the host answers (catches
// timeout-kills-child-only, term-without-kill: PROTOCOL.md "killed with its
// process group").
func (o *Outcome) CallTimeoutHonored() {
	GinkgoHelper()
	h := o.uncontainedHost()
	const pids = "timeout-pids.txt"
	command := pidsCommand(pids, 5)
	r, took, live, err := o.executeTimed(h, "run_command", "call-timeout", map[string]any{"command": command, "timeoutMs": 500}, 20000, pids)
	Expect(err).NotTo(HaveOccurred(), "%s: run_command with timeoutMs 500 under a 20 s dispatch bound failed", o.File)
	Expect(r.OK).To(BeTrue(), "%s: a command that timed out is a structured result; the host answered %s", o.File, r.Content)
	var c map[string]any
	Expect(json.Unmarshal([]byte(r.Content), &c)).To(Succeed(), "%s: the host's result for call call-timeout (tool run_command) has content that is not a JSON object: %.200q", o.File, r.Content)
	Expect(c["timedOut"]).To(Equal(true), "%s: run_command %q with timeoutMs 500 ran %s and answered timedOut %v; the host must enforce the call's own timeoutMs, not only the dispatch bound", o.File, command, took.Round(time.Millisecond), c["timedOut"])
	Expect(len(live)).To(BeZero(), "%s: %d process(es) of the timed-out command (its interpreter and a background child) were alive %s after the host answered timedOut (the harness killed them); a timeout must end the command's whole process group before the host answers", o.File, len(live), answerGrace)
	Expect(took).To(BeNumerically("<", 2500*time.Millisecond), "%s: run_command with timeoutMs 500 took %s", o.File, took.Round(time.Millisecond))
}

// Bounded asserts that the stream of a command output is truncated: shorter
// than the full output the command wrote, flagged truncated, and a part of
// that output rather than something else.
func (o *Outcome) Bounded(c map[string]any, stream string, full []byte) {
	GinkgoHelper()
	Expect(c["truncated"]).To(Equal(true), "%s: %d bytes on %s must be truncated to the host's bound and flagged truncated: true", o.File, len(full), stream)
	s, _ := c[stream].(string)
	Expect(len(s)).To(BeNumerically("<", len(full)), "%s: the host returned all %d bytes of %s; each stream must be bounded", o.File, len(full), stream)
	Expect(retainedFrom(string(full), s)).To(BeTrue(), "%s: the retained %s is neither a part of what the command wrote nor a head and a tail of it around a marker of at most %d bytes", o.File, stream, maxMarker)
}

// maxMarker bounds the text a host may put between the head and the tail
// it keeps of a stream (its own truncation marker).
const maxMarker = 1024

// retainedFrom reports whether kept is what a host may keep of the stream
// full: a contiguous part of it, or a head and a tail of it (either may be
// empty, not both) around at most maxMarker bytes of the host's own. How a
// stream is cut is the host's choice; the seed asks only that stdout and
// stderr be bounded independently.
func retainedFrom(full, kept string) bool {
	if strings.Contains(full, kept) {
		return true
	}
	p := 0
	for p < len(kept) && p < len(full) && kept[p] == full[p] {
		p++
	}
	q := 0
	for q < len(kept)-p && q < len(full)-p && kept[len(kept)-1-q] == full[len(full)-1-q] {
		q++
	}
	return p+q > 0 && len(kept)-p-q <= maxMarker
}

// maxSpillRead bounds the size of a storeDir file the spill check reads.
const maxSpillRead = 256 << 20

// holdsStream reports whether the file content b holds the complete stream
// want: as its bytes, as one contiguous piece of them (one file framing
// several streams), or as a string value of b parsed as JSON. One file per
// stream or one for all, and its framing, are the host's choice; the seed
// asks only to "preserve complete output only through an artifact/spill
// port".
func holdsStream(b, want []byte) bool {
	if bytes.Contains(b, want) {
		return true
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return false
	}
	return hasString(doc, string(want))
}

func hasString(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return v == s
	case []any:
		for _, e := range v {
			if hasString(e, s) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if hasString(e, s) {
				return true
			}
		}
	}
	return false
}
