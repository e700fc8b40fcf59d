package kit

import (
	"strings"
	"testing"
)

func TestRetainedFromAcceptsEveryWayOfCuttingAStream(t *testing.T) {
	full := strings.Repeat("line of output\n", 1000)
	for _, tc := range []struct {
		name, kept string
		want       bool
	}{
		{"head", full[:300], true},
		{"tail", full[len(full)-300:], true},
		{"middle piece", full[100:400], true},
		{"head and tail around a marker", full[:150] + "\n[... 14700 bytes omitted ...]\n" + full[len(full)-150:], true},
		{"head and a note", full[:300] + "…[truncated]", true},
		{"invented text", "nothing the command wrote", false},
		{"head and tail around too much", full[:150] + strings.Repeat("x", maxMarker+1) + full[len(full)-150:], false},
	} {
		if got := retainedFrom(full, tc.kept); got != tc.want {
			t.Errorf("%s: retainedFrom = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestHoldsStreamInOneFileOrFramedOrJSON(t *testing.T) {
	want := []byte("1\n2\n3\n")
	for _, tc := range []struct {
		name, file string
		ok         bool
	}{
		{"the stream alone", "1\n2\n3\n", true},
		{"framed with another stream", "==> stdout <==\n1\n2\n3\n\n==> stderr <==\nerr\n", true},
		{"as a JSON string", `{"stdout":"1\n2\n3\n","stderr":"err\n"}`, true},
		{"cut", "1\n2\n", false},
		{"another JSON string", `{"stdout":"1\n2\n"}`, false},
	} {
		if got := holdsStream([]byte(tc.file), want); got != tc.ok {
			t.Errorf("%s: holdsStream = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
