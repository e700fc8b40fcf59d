package proc

import (
	"strings"
	"testing"
)

func TestHeadKeepsTheFirstBytesAndSwallowsTheRest(t *testing.T) {
	var kept strings.Builder
	h := &Head{W: &kept, N: 5}
	for _, chunk := range []string{"abc", "defg", "hij"} {
		if n, err := h.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", chunk, n, err, len(chunk))
		}
	}
	if kept.String() != "abcde" {
		t.Errorf("kept %q, want the first five bytes %q", kept.String(), "abcde")
	}
}
