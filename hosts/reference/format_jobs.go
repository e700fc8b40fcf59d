package reference

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/galaxy-stack/conform/core/projectformat"
	"github.com/galaxy-stack/conform/internal/atomicfile"
)

// formatJobs is the durable job store of project.format, in storeDir: one
// JSON record per callId, written atomically before execution and again
// when the job ends. A fresh process on the same storeDir reads the same
// records; a record it finds running was interrupted and stays unknown.
type formatJobs struct {
	dir string

	mu     sync.Mutex
	live   map[string]bool              // callIds whose job runs in this process
	memory map[string]projectformat.Job // reports kept in memory only (a fault)
}

// newFormatJobs opens the job store in storeDir; its directory is made
// with the first job.
func newFormatJobs(storeDir string) (*formatJobs, error) {
	return &formatJobs{dir: filepath.Join(storeDir, "format-jobs"), live: map[string]bool{}}, nil
}

// jobID is the job's ID, derived from the callId alone so that every
// process names a call's job alike.
func jobID(callID string) string {
	sum := sha256.Sum256([]byte(callID))
	return "job-" + hex.EncodeToString(sum[:12])
}

func (j *formatJobs) file(callID string) string {
	sum := sha256.Sum256([]byte(callID))
	return filepath.Join(j.dir, hex.EncodeToString(sum[:])+".json")
}

// create records a new running job for callID, or returns the job already
// recorded for it (created false): a call runs at most once.
func (j *formatJobs) create(callID string) (job projectformat.Job, created bool, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if old, ok, err := j.readLocked(callID); err != nil || ok {
		return old, false, err
	}
	job = projectformat.Job{JobID: jobID(callID), CallID: callID, Status: projectformat.StatusRunning,
		StateChanged: projectformat.Unknown, Files: []projectformat.FileReport{}}
	if err := j.writeLocked(job); err != nil {
		return projectformat.Job{}, false, err
	}
	j.live[callID] = true
	return job, true, nil
}

// finish records the job's terminal report.
func (j *formatJobs) finish(job projectformat.Job) error { return j.finishWith(job, false) }

// finishWith is finish; memoryOnly (the ReportNotDurable fault) keeps the
// report in this process and never writes it.
func (j *formatJobs) finishWith(job projectformat.Job, memoryOnly bool) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.live, job.CallID)
	if memoryOnly {
		if j.memory == nil {
			j.memory = map[string]projectformat.Job{}
		}
		j.memory[job.CallID] = job
		return nil
	}
	return j.writeLocked(job)
}

// observe returns the recorded job of callID, if any.
func (j *formatJobs) observe(callID string) (projectformat.Job, bool, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.readLocked(callID)
}

func (j *formatJobs) readLocked(callID string) (projectformat.Job, bool, error) {
	if job, ok := j.memory[callID]; ok {
		return job, true, nil
	}
	b, err := os.ReadFile(j.file(callID))
	if errors.Is(err, fs.ErrNotExist) {
		return projectformat.Job{}, false, nil
	}
	if err != nil {
		return projectformat.Job{}, false, err
	}
	var job projectformat.Job
	if err := json.Unmarshal(b, &job); err != nil {
		return projectformat.Job{}, false, err
	}
	return job, true, nil
}

func (j *formatJobs) writeLocked(job projectformat.Job) error {
	b, err := json.Marshal(job)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(j.file(job.CallID), b, 0o600)
}

// isLive reports whether callID's job runs in this process.
func (j *formatJobs) isLive(callID string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.live[callID]
}
