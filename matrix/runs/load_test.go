package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/matrix/runs/runstest"
)

// checkoutSample is the checkout's copy of runstest.OwnFixture.
const checkoutSample = "../../" + runstest.OwnFixture

func TestOwnScenariosAreKnownByContentNotPath(t *testing.T) {
	same, other := runstest.Copies(t)
	for _, c := range []struct {
		path    string
		trusted bool
	}{
		{checkoutSample, true},                  // a checkout's unchanged copy
		{runstest.OwnFixture, true},             // not on disk here: the embedded copy
		{same, true},                            // a byte-identical copy anywhere
		{other, false},                          // one byte more
		{"fixtures/matrix/no/such.json", false}, // names nothing embedded
	} {
		r, ok, err := ownRunnable(c.path)
		if err != nil || ok != c.trusted || r.Trusted != c.trusted {
			t.Errorf("ownRunnable(%s) = trusted %v, ok %v, %v; want trusted %v", c.path, r.Trusted, ok, err, c.trusted)
		}
		if ok && (r.Fixture == nil || r.Fixture.Name != "06-nonzero-exit" || r.Fixture.File != c.path) {
			t.Errorf("ownRunnable(%s) loaded %+v, want 06-nonzero-exit named by its path", c.path, r.Fixture)
		}
	}
	rs, err := Load(other)
	if err != nil || len(rs) != 1 || rs[0].Trusted {
		t.Errorf("Load(one byte more) = %+v, %v; want one untrusted fixture", rs, err)
	}
	rs, err = Load(same)
	if err != nil || len(rs) != 1 || !rs[0].Trusted {
		t.Errorf("Load(byte-identical) = %+v, %v; want one trusted fixture", rs, err)
	}
}

func TestLoadDirectoryInPathOrderAndScenarios(t *testing.T) {
	rs, err := Load("../../fixtures/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 2 {
		t.Fatalf("Load(fixtures/scenarios) = %d runnables, want every scenario", len(rs))
	}
	for i, r := range rs {
		if r.Scenario == nil || r.Fixture != r.Scenario.Fixture {
			t.Errorf("runnable %d (%s) is not a scenario with its fixture", i, r.Fixture.File)
		}
		if i > 0 && filepath.ToSlash(rs[i-1].Fixture.File) >= filepath.ToSlash(r.Fixture.File) {
			t.Errorf("runnables out of path order: %s before %s", rs[i-1].Fixture.File, r.Fixture.File)
		}
	}
}

// A fixture named through a link is refused without reading what the link
// points to: a parse error would quote a line of it, and a stranger's
// folder may link to a secret file.
func TestLoadReadsNoFixtureThroughALink(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("TOPSECRET-first-line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x.txtar", "x.json"} {
		link := filepath.Join(dir, name)
		if err := os.Symlink(secret, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		_, err := Load(link)
		if err == nil {
			t.Fatalf("%s: a link to a file was loaded", name)
		}
		if strings.Contains(err.Error(), "TOPSECRET") {
			t.Errorf("%s: the error quotes the file behind the link: %v", name, err)
		}
		if !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s: the error does not say the path is a link: %v", name, err)
		}
	}
}
