package certificate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/internal/atomicfile"
	"github.com/galaxy-stack/conform/reports"
)

// Version is the version of the certificate's shape.
const Version = "1"

// Verdicts.
const (
	Passed = "passed"
	Failed = "failed"
)

// A Certificate binds a certification's verdict to its inputs. Every
// member is comparable: no time, PID or temporary path.
type Certificate struct {
	CertificateVersion string `json:"certificateVersion"`
	// Verdict is "passed" when the run's exit status was 0, else
	// "failed".
	Verdict string `json:"verdict"`
	// Harness is the conform that ran the certification.
	Harness reports.Harness `json:"harness"`
	OS      string          `json:"os"`
	Arch    string          `json:"arch"`
	// Report is the result document the run wrote; its Path is relative
	// to the certificate's directory when it can be.
	Report File   `json:"report"`
	Host   Host   `json:"host"`
	Matrix Matrix `json:"matrix"`
	// Expectations is the expectations file the run was gated by, or
	// strict when there was none.
	Expectations Expectations `json:"expectations"`
	// Digest is SHA-256 over the canonical JSON of every other member.
	Digest string `json:"digest,omitempty"`
}

// A File is a file the certificate binds: its path and its SHA-256,
// "sha256:<hex>".
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Host is the host under test: the --host value and the files it runs.
type Host struct {
	Command   string `json:"command"`
	Mutant    string `json:"mutant,omitempty"`
	Variant   string `json:"variant,omitempty"`
	CoreFault string `json:"coreFault,omitempty"`
	// Files are the executable and every existing file the command line
	// names, in command-line order ([HostFiles]).
	Files []HostFile `json:"files"`
}

// Roles of a host file.
const (
	// RoleConform is the conform executable that serves a built-in host.
	RoleConform = "conform"
	// RoleExecutable is the first word of the command line, found through
	// PATH as the host's process would be.
	RoleExecutable = "executable"
	// RoleArgument is a later word of the command line that names an
	// existing regular file (a script, a configuration file).
	RoleArgument = "argument"
)

// A HostFile is one file of the host command line.
type HostFile struct {
	Role string `json:"role"`
	// Word is the position of the word in the command line (0 for the
	// executable and for conform itself).
	Word int `json:"word"`
	// Path is the word as written, or the executable as found in PATH.
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Matrix is the matrix version and one digest per certified item.
type Matrix struct {
	Version string       `json:"version"`
	Items   []ItemDigest `json:"items"`
}

// An ItemDigest is the digest of one item definition.
type ItemDigest struct {
	Ref    string `json:"ref"`
	SHA256 string `json:"sha256"`
}

// Expectations is the expectations file a run was gated by, or Strict:
// no failure allowed. It is written "strict" or {"path", "sha256"}.
type Expectations struct {
	Strict bool
	File   *File
}

// strictWord is how a run without an expectations file is written.
const strictWord = "strict"

// MarshalJSON writes "strict" or the file.
func (e Expectations) MarshalJSON() ([]byte, error) {
	if e.File == nil {
		return json.Marshal(strictWord)
	}
	return json.Marshal(e.File)
}

// UnmarshalJSON reads "strict" or a file.
func (e *Expectations) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if s != strictWord {
			return fmt.Errorf("expectations: want %q or a file, got %q", strictWord, s)
		}
		*e = Expectations{Strict: true}
		return nil
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("expectations: %w", err)
	}
	*e = Expectations{File: &f}
	return nil
}

// Seal sets c.Digest from every other member.
func (c *Certificate) Seal() error {
	d, err := c.digest()
	if err != nil {
		return err
	}
	c.Digest = d
	return nil
}

// digest is SHA-256 over the canonical JSON of c without its Digest.
func (c *Certificate) digest() (string, error) {
	u := *c
	u.Digest = "" // omitted: the hash covers exactly the other members
	return canon.Hash(u)
}

// Marshal returns c's canonical JSON and a final newline.
func (c *Certificate) Marshal() ([]byte, error) {
	b, err := canon.Marshal(c)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Write seals c and writes it to path atomically, with the permissions of
// a report file (0644 less the umask).
func Write(path string, c *Certificate) error {
	if err := c.Seal(); err != nil {
		return err
	}
	b, err := c.Marshal()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("writing certificate %q: %w", path, err)
	}
	return nil
}

// MaxSize bounds the certificate Read accepts.
const MaxSize = 4 << 20

// An InvalidError means a file is not a certificate: unreadable, too
// large, not JSON, or not valid against the schema.
type InvalidError struct {
	Path string
	Err  error
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("certificate %s: %v", e.Path, e.Err)
}

func (e *InvalidError) Unwrap() error { return e.Err }

// Read reads and checks the certificate at path: it must be at most
// MaxSize bytes and valid against the schema. Its digest is not checked
// here ([Verify] does, as one of the bindings).
func Read(path string) (*Certificate, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InvalidError{path, err}
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxSize+1)); err != nil {
		return nil, &InvalidError{path, err}
	}
	if buf.Len() > MaxSize {
		return nil, &InvalidError{path, fmt.Errorf("larger than %d bytes; this is not a certificate", MaxSize)}
	}
	if err := Validate(buf.Bytes()); err != nil {
		return nil, &InvalidError{path, err}
	}
	var c Certificate
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, &InvalidError{path, err}
	}
	if c.Expectations.File == nil && !c.Expectations.Strict {
		return nil, &InvalidError{path, errors.New("no expectations member")}
	}
	return &c, nil
}
