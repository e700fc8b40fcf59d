package compare

import (
	"slices"
	"sort"

	"github.com/galaxy-stack/conform/matrix/replay"
)

// Profile says how hosts of different tool profiles were compared: on the
// tools every host offered in some model request.
type Profile struct {
	// Common are the tool names every host offered, sorted.
	Common []string `json:"commonTools"`
	// Extra are, per host, the tool names it offered that some other host
	// did not; they are removed from its model requests before comparing.
	Extra map[string][]string `json:"extraTools"`
}

// offered returns the tool names offered in any model request of ts (a
// checkpoint's active tools were offered in a request before it).
func offered(ts []*replay.Transcript) map[string]bool {
	out := map[string]bool{}
	for _, t := range ts {
		if t == nil {
			continue
		}
		for _, e := range t.Events {
			if e.Request != nil {
				for _, n := range e.Request.ToolNames {
					out[n] = true
				}
			}
		}
	}
	return out
}

// profile returns the common profile of the hosts whose transcripts are
// byHost, or nil when every host offered the same tools.
func profile(hosts []string, byHost [][]*replay.Transcript) *Profile {
	sets := make([]map[string]bool, len(hosts))
	for i := range hosts {
		sets[i] = offered(byHost[i])
	}
	var common []string
	for n := range sets[0] {
		all := true
		for _, s := range sets[1:] {
			all = all && s[n]
		}
		if all {
			common = append(common, n)
		}
	}
	sort.Strings(common)
	p := &Profile{Common: common, Extra: map[string][]string{}}
	for i, h := range hosts {
		var extra []string
		for n := range sets[i] {
			if !slices.Contains(common, n) {
				extra = append(extra, n)
			}
		}
		if len(extra) > 0 {
			sort.Strings(extra)
			p.Extra[h] = extra
		}
	}
	if len(p.Extra) == 0 {
		return nil
	}
	return p
}

// restrict returns a copy of t whose model requests and checkpoint audits
// (their active tool names) hold only the names in common; t is not
// changed.
func restrict(t *replay.Transcript, common []string) *replay.Transcript {
	keep := func(names []string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(common, n) })
	}
	c := *t
	c.Events = slices.Clone(t.Events)
	for i, e := range c.Events {
		if e.Request != nil {
			r := *e.Request
			r.ToolNames = keep(r.ToolNames)
			c.Events[i].Request = &r
		}
		if e.Checkpoint != nil {
			a := *e.Checkpoint
			a.ActiveToolNames = keep(a.ActiveToolNames)
			c.Events[i].Checkpoint = &a
		}
	}
	c.Final.Checkpoints = slices.Clone(t.Final.Checkpoints)
	for i := range c.Final.Checkpoints {
		c.Final.Checkpoints[i].ActiveToolNames = keep(c.Final.Checkpoints[i].ActiveToolNames)
	}
	return &c
}
