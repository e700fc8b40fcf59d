package canon

import (
	"time"

	"github.com/galaxy-stack/conform/internal/rapidtest"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"
)

// expectPropertyFails runs prop against a recording rapid.TB and asserts
// that rapid finds a counterexample for the broken variant name.
func expectPropertyFails(name string, prop func(*rapid.T)) string {
	failed, log := rapidtest.Check(name, 3*time.Second, prop)
	ExpectWithOffset(1, failed).To(BeTrue(), "the property did not catch the broken variant %q", name)
	return log
}
