package variants_test

import (
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/hosts/builtin"
	"github.com/galaxy-stack/conform/hosts/variants"
)

func TestHostServeTakesVariant(t *testing.T) {
	name := variants.Names()[0]
	for _, args := range [][]string{{"reference", "--variant", name}, {"--variant=" + name, "reference"}} {
		host, mutant, variant, err := builtin.ParseServeVariant(args)
		if err != nil || host != "reference" || mutant != "" || variant != name {
			t.Errorf("ParseServeVariant(%q) = %q, %q, %q, %v", args, host, mutant, variant, err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reference", "--variant", "nope"}, `unknown variant "nope"`},
		{[]string{"doubles", "--variant", name}, `--variant needs the "reference" host`},
		{[]string{"reference", "--variant", name, "--mutant", "symlink-escape"}, "exclude each other"},
	} {
		if _, _, _, err := builtin.ParseServeVariant(tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseServeVariant(%q) = %v; want an error containing %q", tc.args, err, tc.want)
		}
	}
}
