package selftest

import (
	"context"
	"fmt"
	"github.com/galaxy-stack/conform/matrix"
	"io"
	"path/filepath"
	"slices"
	"sync"

	"github.com/galaxy-stack/conform/hosts/variants"
	"github.com/galaxy-stack/conform/reports"
)

// Variant statuses.
const (
	Accepted = "accepted"
	Rejected = "rejected"
)

// A Variant is one permitted variation of the reference host the self-test
// certifies: every runnable item must pass it.
type Variant struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Choice is the host's choice the variant takes.
	Choice string `json:"choice"`
}

// KindVariant is the kind of a Variant in `selftest --list`.
const KindVariant = "variant"

// Variants returns every variant, sorted by name.
func Variants() []Variant {
	var out []Variant
	for _, v := range variants.All() {
		out = append(out, Variant{Name: v.Name, Kind: KindVariant, Description: v.Description, Choice: v.Choice})
	}
	return out
}

// A VariantResult is one row of the acceptance matrix.
type VariantResult struct {
	Variant
	Status string `json:"status"`
	// Ran are the items the variant was certified against.
	Ran []int `json:"ran"`
	// FailedItems are the items that failed it: each an over-specified
	// check, since a variant keeps every guarantee.
	FailedItems []int `json:"failedItems"`
	// Reasons are the failed items' first reason lines, by item.
	Reasons map[int]string `json:"reasons,omitempty"`
	// Error says why the variant's certification could not run.
	Error string `json:"error,omitempty"`
	// Rechecked are the items that failed the variant only because a
	// deadline passed, the host died or the harness failed, and were
	// certified once more: such a failure says nothing about a check, and
	// the second result is the one that counts.
	Rechecked []int `json:"rechecked,omitempty"`
}

// selectVariants returns the variants named in names, or all of them when
// names is empty; names that are no variant are left to selectFaults.
func selectVariants(names []string) []Variant {
	all := Variants()
	if len(names) == 0 {
		return all
	}
	var out []Variant
	for _, v := range all {
		if slices.Contains(names, v.Name) {
			out = append(out, v)
		}
	}
	return out
}

func isVariant(name string) bool {
	_, ok := variants.Lookup(name)
	return ok
}

// certifyVariants certifies each variant against the items ids, at most
// parallel at once, and returns the acceptance matrix in the order of vs.
func certifyVariants(ctx context.Context, exe, dir string, vs []Variant, ids []int, parallel int, out io.Writer) []VariantResult {
	res := make([]VariantResult, len(vs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	sem := make(chan struct{}, max(parallel, 1))
	for i, v := range vs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vr := VariantResult{Variant: v, Ran: slices.Clone(ids), FailedItems: []int{}}
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				vr.Status, vr.Error = Broken, ctx.Err().Error()
				res[i] = vr
				return
			}
			defer func() { <-sem }()
			doc, err := certify(ctx, exe, filepath.Join(dir, "variant-"+v.Name+".json"), []string{"--host", "reference", "--variant", v.Name, "--only", joinInts(ids)})
			switch {
			case err != nil:
				vr.Status, vr.Error = Broken, err.Error()
			default:
				items := doc.Items
				if vr.Rechecked = recheck(items); len(vr.Rechecked) > 0 {
					again, err := certify(ctx, exe, filepath.Join(dir, "variant-"+v.Name+"-again.json"), []string{"--host", "reference", "--variant", v.Name, "--only", joinInts(vr.Rechecked)})
					if err == nil {
						items = replaceItems(items, again.Items)
					}
				}
				vr.Status = Accepted
				for _, it := range items {
					if it.Status == reports.Failed {
						vr.FailedItems = append(vr.FailedItems, it.ID)
						if vr.Reasons == nil {
							vr.Reasons = map[int]string{}
						}
						vr.Reasons[it.ID] = firstLine(it.Reason)
						vr.Status = Rejected
					}
				}
			}
			mu.Lock()
			res[i] = vr
			fmt.Fprintf(out, "%-8s %-7s %-32s items %s → %s\n", vr.Status, KindVariant, v.Name, joinRefs(vr.Ran), variantText(vr))
			mu.Unlock()
		}()
	}
	wg.Wait()
	return res
}

// recheck returns the failed items whose every failed check failed on a
// deadline, a host that died or broke the protocol, or the harness: not
// on an assertion or a schema, so that no check of the item spoke.
func recheck(items []reports.Item) []int {
	var out []int
	for _, it := range items {
		if it.Status != reports.Failed || len(it.FailedChecks) == 0 {
			continue
		}
		if !slices.ContainsFunc(it.FailedChecks, func(c reports.FailedCheck) bool {
			return c.Cause == reports.CauseAssertion || c.Cause == reports.CauseSchema
		}) {
			out = append(out, it.ID)
		}
	}
	return out
}

// replaceItems returns items with each item of again in place of the one
// with its ID.
func replaceItems(items, again []reports.Item) []reports.Item {
	out := slices.Clone(items)
	for _, a := range again {
		if i := slices.IndexFunc(out, func(it reports.Item) bool { return it.ID == a.ID }); i >= 0 {
			out[i] = a
		}
	}
	return out
}

func variantText(vr VariantResult) string {
	var again string
	if len(vr.Rechecked) > 0 {
		again = "; certified again after a deadline or host failure: " + joinRefs(vr.Rechecked)
	}
	switch vr.Status {
	case Rejected:
		return "failed " + joinRefs(vr.FailedItems) + " (over-specified)" + again
	case Broken:
		return vr.Error
	}
	return "all passed" + again
}

// variantProblems are the self-test problems of the acceptance matrix.
func variantProblems(vrs []VariantResult) []string {
	var out []string
	for _, vr := range vrs {
		switch vr.Status {
		case Rejected:
			for _, id := range vr.FailedItems {
				out = append(out, fmt.Sprintf("item %s fails variant %s, a permitted variation (an over-specified check): %s", matrix.RefOf(id), vr.Name, vr.Reasons[id]))
			}
		case Broken:
			out = append(out, fmt.Sprintf("variant %s could not be certified: %s", vr.Name, vr.Error))
		}
	}
	return out
}
