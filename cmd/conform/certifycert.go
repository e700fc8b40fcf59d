package main

import (
	"errors"
	"flag"

	"github.com/galaxy-stack/conform/matrix/certificate"
	"github.com/galaxy-stack/conform/reports"
)

// certHelp is the part of `conform help certify` about --certificate.
const certHelp = `Certificate: --certificate FILE writes, after the reports, a certificate that
binds the verdict (passed when conform exits 0) to what was tested: the
SHA-256 of the result document (--json-report, required with it), of the
host's executable found through PATH and of every later word of --host that
names an existing file (for a built-in host, of the conform executable that
serves it), conform's version and commit, the matrix version and a digest of
each certified item's definition (its metadata and scenario files), the
expectations file's digest (or "strict" without --expect), and the OS and
architecture. It is canonical JSON (RFC 8785) that follows
matrix/certificate/schema/certificate.schema.json, and carries a digest of
its own content; it is not signed, so it shows that nothing it binds
changed, not who wrote it. --certificate refuses --skip: items skipped by
request are never certified. conform verify FILE checks every binding.`

// certFlag is certify's --certificate.
type certFlag struct{ path string }

func addCertFlag(fs *flag.FlagSet) *certFlag {
	c := &certFlag{}
	fs.StringVar(&c.path, "certificate", "", "write a certificate binding the verdict to the report, host, matrix and expectations to `FILE` (needs --json-report)")
	return c
}

// check refuses, before anything runs, a certificate without a result
// document to bind, of a run that skips items by request, or whose path
// cannot be written.
func (c *certFlag) check(r *reportFlags, g *gateFlags) error {
	if c.path == "" {
		return nil
	}
	if *r.json == "" {
		return usagef("certify: --certificate needs --json-report FILE: the certificate binds the result document written there")
	}
	if g.skip != "" {
		return usagef("certify: --certificate refuses --skip: items skipped by request are never certified; drop one of them")
	}
	return nil
}

// write writes the certificate of doc, which was written to --json-report,
// with the verdict of err, the run's result.
func (c *certFlag) write(r *reportFlags, g *gateFlags, doc *reports.Document, result error) error {
	if c.path == "" {
		return nil
	}
	b, err := reports.Encode(doc)
	if err != nil {
		return err
	}
	cert, err := certificate.New(certificate.Inputs{
		Path: c.path, Doc: doc, Report: b, ReportPath: *r.json, ExpectPath: g.expect, Passed: result == nil,
	})
	if err != nil {
		return errors.Join(errors.New("certify: cannot write the certificate"), err)
	}
	return certificate.Write(c.path, cert)
}
