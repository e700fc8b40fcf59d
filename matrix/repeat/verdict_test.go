package repeat

import "testing"

// TestVerdict: a status (or oracle verdict) that varies is flaky before a
// hash that varies is nondeterministic.
func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		s    Scenario
		want string
	}{
		{Scenario{Statuses: []string{"completed", "completed"}, Passed: []bool{true, true}, Hashes: []string{"a", "a"}}, Deterministic},
		{Scenario{Statuses: []string{"completed", "completed"}, Passed: []bool{true, true}, Hashes: []string{"a", "b"}}, Nondeterministic},
		{Scenario{Statuses: []string{"completed", "failed"}, Passed: []bool{true, false}, Hashes: []string{"a", "b"}}, Flaky},
		{Scenario{Statuses: []string{"completed", "completed"}, Passed: []bool{true, false}, Hashes: []string{"a", "a"}}, Flaky},
	} {
		if got := verdict(&c.s); got != c.want {
			t.Errorf("%+v: %s, want %s", c.s, got, c.want)
		}
	}
}
