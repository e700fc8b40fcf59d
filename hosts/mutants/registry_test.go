package mutants_test

import (
	"reflect"
	"strings"

	"github.com/galaxy-stack/conform/hosts/mutants"
	"github.com/galaxy-stack/conform/hosts/reference"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// switches counts the fault switches that are on in v, a struct of bools
// and nested structs of bools.
func switches(v reflect.Value) int {
	n := 0
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Kind() {
		case reflect.Bool:
			if f.Bool() {
				n++
			}
		case reflect.Struct:
			n += switches(f)
		}
	}
	return n
}

var _ = Describe("the registry", func() {
	It("names at least 25 mutants, uniquely, in kebab-case, each with a guarantee and a one-line description", func() {
		all := mutants.All()
		Expect(len(all)).To(BeNumerically(">=", 25))
		seen := map[string]bool{}
		for _, m := range all {
			Expect(m.Name).To(MatchRegexp(`^[a-z0-9]+(-[a-z0-9]+)*$`))
			Expect(seen[m.Name]).To(BeFalse(), "duplicate %q", m.Name)
			seen[m.Name] = true
			Expect(m.Guarantee).NotTo(BeEmpty(), m.Name)
			Expect(m.Description).NotTo(BeEmpty(), m.Name)
			Expect(m.Description).NotTo(ContainSubstring("\n"), m.Name)
			Expect(len(m.Description)).To(BeNumerically("<=", 100), m.Name)
			Expect(strings.HasSuffix(m.Description, ".")).To(BeFalse(), "%s: a line, not a sentence", m.Name)
		}
		Expect(mutants.Names()).To(HaveLen(len(all)))
	})

	It("switches exactly one fault on per mutant", func() {
		Expect(switches(reflect.ValueOf(reference.Faults{}))).To(BeZero(), "the zero value is the conformant host")
		for _, m := range mutants.All() {
			Expect(switches(reflect.ValueOf(m.Faults))).To(Equal(1), m.Name)
			Expect(m.Options().Faults).To(Equal(m.Faults))
		}
	})

	It("finds mutants by name and nothing else", func() {
		m, ok := mutants.Lookup("symlink-escape")
		Expect(ok).To(BeTrue())
		Expect(m.Faults.Workspace.FollowSymlinkEscapes).To(BeTrue())
		_, ok = mutants.Lookup("no-such-mutant")
		Expect(ok).To(BeFalse())
	})

	It("has a wire-level spec for every mutant and none for a mutant that does not exist", func() {
		var names []string
		for n := range specs {
			names = append(names, n)
		}
		Expect(names).To(ConsistOf(mutants.Names()), "every mutant needs a spec in specs (doc.go, Adding a mutant, step 3)")
	})

	It("covers every fault switch of the reference host with some mutant", func() {
		var all reference.Faults
		for _, m := range mutants.All() {
			orInto(reflect.ValueOf(&all).Elem(), reflect.ValueOf(m.Faults))
		}
		Expect(unset(reflect.ValueOf(all), "")).To(BeEmpty(), "a fault switch no mutant sets (doc.go, Adding a mutant, step 2)")
	})
})

func orInto(dst, src reflect.Value) {
	for i := 0; i < dst.NumField(); i++ {
		switch f := dst.Field(i); f.Kind() {
		case reflect.Bool:
			if src.Field(i).Bool() {
				f.SetBool(true)
			}
		case reflect.Struct:
			orInto(f, src.Field(i))
		}
	}
}

func unset(v reflect.Value, prefix string) []string {
	var out []string
	for i := 0; i < v.NumField(); i++ {
		name := prefix + v.Type().Field(i).Name
		switch f := v.Field(i); f.Kind() {
		case reflect.Bool:
			if !f.Bool() {
				out = append(out, name)
			}
		case reflect.Struct:
			out = append(out, unset(f, name+".")...)
		}
	}
	return out
}

var _ = Describe("the sentences a mutant breaks", func() {
	It("are named for every mutant, so that selftest can attribute its kills", func() {
		for _, m := range mutants.All() {
			Expect(m.Sentences()).NotTo(BeEmpty(), "%s breaks %q, which names no sentence key", m.Name, m.Guarantee)
		}
	})
})
