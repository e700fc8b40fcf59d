package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/galaxy-stack/conform/internal/termsafe"
	"github.com/galaxy-stack/conform/matrix/certificate"
)

var _ = register(def[verifyFlags]{
	Name:      "verify",
	UsageLine: "conform verify CERTIFICATE [--report F] [--host CMD] [--expect F]",
	Short:     "check a certificate against the files it binds",
	Long: `Verify checks a certificate that conform certify --certificate wrote. It
recomputes every binding and names each input that changed: the
certificate's own digest (an edited certificate), conform's version and
commit (verify with the conform that certified), the OS and architecture,
the result document, each host file, the matrix version and each certified
item's definition, and the expectations file.

The result document and the expectations file are found where the
certificate says, relative to the certificate's directory, unless --report
or --expect names them; the host's files are found from the certified
command line in the current directory, unless --host gives another command
line (the host moved). A certificate of a run without --expect ("strict")
refuses --expect.

Exit status: 0 every binding holds and the verdict is passed; 1 an input
changed (each is listed), or every binding holds and the certified verdict
is failed; 2 the certificate cannot be read or does not follow
matrix/certificate/schema/certificate.schema.json, or a flag does not fit
it.`,
	Interspersed: true,
	Flags: func(fs *flag.FlagSet) *verifyFlags {
		f := &verifyFlags{}
		fs.StringVar(&f.o.Report, "report", "", "the result document the certificate binds (default: the certificate's path)")
		fs.StringVar(&f.o.Host, "host", "", "the host command line whose files are hashed (default: the certified one)")
		fs.StringVar(&f.o.Expect, "expect", "", "the expectations file the certificate binds (default: the certificate's path)")
		return f
	},
	Run: runVerify,
})

// verifyFlags are the flags of conform verify.
type verifyFlags struct{ o certificate.Options }

func runVerify(f *verifyFlags, args []string, out streams) error {
	if len(args) != 1 {
		return usagef("verify: want one certificate file\nusage: conform verify CERTIFICATE [--report F] [--host CMD] [--expect F]")
	}
	path := args[0]
	c, err := certificate.Read(path)
	if err != nil {
		return usagef("verify: %s", termsafe.Line(err.Error()))
	}
	changes, err := certificate.Verify(path, c, f.o)
	var ue *certificate.UsageError
	if errors.As(err, &ue) {
		return usagef("%s", ue.Msg)
	}
	if err != nil {
		return err
	}
	w := termsafe.NewWriter(out.stdout)
	defer w.Flush()
	if len(changes) > 0 {
		fmt.Fprintf(w, "certificate %s does not hold: %d bound inputs changed:\n", path, len(changes))
		for _, ch := range changes {
			fmt.Fprintf(w, "  %s\n", termsafe.Line(ch.String()))
		}
		return errFailed
	}
	fmt.Fprintf(w, "certificate %s holds: report, host (%d files), %d items of matrix %s, expectations %s, %s on %s/%s\n",
		path, len(c.Host.Files), len(c.Matrix.Items), c.Matrix.Version, expectText(c.Expectations), harnessLabel(c), c.OS, c.Arch)
	fmt.Fprintf(w, "verdict: %s\n", c.Verdict)
	if c.Verdict != certificate.Passed {
		return errFailed
	}
	return nil
}

func expectText(e certificate.Expectations) string {
	if e.File == nil {
		return "strict"
	}
	return e.File.Path
}

func harnessLabel(c *certificate.Certificate) string {
	s := c.Harness.Name + " " + c.Harness.Version
	if c.Harness.Commit != "" {
		s += " (" + c.Harness.Commit + ")"
	}
	return s
}
