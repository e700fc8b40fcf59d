package certificate

import (
	"path/filepath"
	"runtime"

	"github.com/galaxy-stack/conform/core/canon"
	"github.com/galaxy-stack/conform/matrix"
	"github.com/galaxy-stack/conform/reports"
)

// Inputs are what a certification binds.
type Inputs struct {
	// Path is where the certificate will be written.
	Path string
	// Doc is the result document, Report the bytes written to ReportPath.
	Doc        *reports.Document
	Report     []byte
	ReportPath string
	// ExpectPath is the expectations file, "" when the run had none.
	ExpectPath string
	// Passed is the run's verdict: its exit status was 0.
	Passed bool
}

// New builds the certificate of a run: it hashes the host's files, the
// expectations file and the definitions of the items in the document.
// The certificate is not sealed yet ([Write] seals it).
func New(in Inputs) (*Certificate, error) {
	d := in.Doc
	c := &Certificate{
		CertificateVersion: Version,
		Verdict:            Failed,
		Harness:            reports.NewHarness(),
		OS:                 runtime.GOOS,
		Arch:               runtime.GOARCH,
		Report:             File{Path: relTo(in.Path, in.ReportPath), SHA256: canon.HashBytes(in.Report)},
		Host:               Host{Command: d.Host.Command, Mutant: d.Host.Mutant, Variant: d.Host.Variant, CoreFault: d.Host.CoreFault},
		Matrix:             Matrix{Version: matrix.Version},
		Expectations:       Expectations{Strict: true},
	}
	if in.Passed {
		c.Verdict = Passed
	}
	var err error
	if c.Host.Files, err = HostFiles(d.Host.Command); err != nil {
		return nil, err
	}
	ids := make([]int, 0, len(d.Items))
	for _, it := range d.Items {
		if it.ID != 0 {
			ids = append(ids, it.ID)
		}
	}
	if c.Matrix.Items, err = ItemDigests(ids); err != nil {
		return nil, err
	}
	if in.ExpectPath != "" {
		f, err := FileDigest(in.ExpectPath)
		if err != nil {
			return nil, err
		}
		f.Path = relTo(in.Path, in.ExpectPath)
		c.Expectations = Expectations{File: &f}
	}
	return c, nil
}

// relTo is target's path relative to the directory of the certificate
// cert, with forward slashes, so that a certificate and its report can be
// moved together (downloaded as one artifact); target as given when it has
// no relative path from there.
func relTo(cert, target string) string {
	ac, err1 := filepath.Abs(cert)
	at, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(target)
	}
	rel, err := filepath.Rel(filepath.Dir(ac), at)
	if err != nil {
		return filepath.ToSlash(target)
	}
	return filepath.ToSlash(rel)
}

// fromCert is the path p, as a certificate records it, from the current
// directory: relative paths are taken from the certificate's directory.
func fromCert(cert, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(cert), p)
}
