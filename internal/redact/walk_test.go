package redact_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/galaxy-stack/conform/internal/redact"
)

var valued = redact.New(redact.Secret{Name: "HOST_SECRET", Value: `v"al<ue>-123`})

func TestJSON(t *testing.T) {
	in := "{\n  \"ok\": \"nothing here\",\n  \"n\": 12,\n  \"token\": \"ghp_abcdefghijklmnopqrstuvwxyz0123\",\n  \"v\": \"v\\\"al\\u003cue\\u003e-123\",\n  \"ghp_abcdefghijklmnopqrstuvwxyz0123\": [true, null]\n}\n"
	want := "{\n  \"ok\": \"nothing here\",\n  \"n\": 12,\n  \"token\": \"[REDACTED:github-token]\",\n  \"v\": \"[REDACTED:$HOST_SECRET]\",\n  \"[REDACTED:github-token]\": [true, null]\n}\n"
	if got := string(valued.JSON([]byte(in))); got != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	clean := []byte(`{"a":"b\"c","d":[1,2]}`)
	if got := valued.JSON(clean); !bytes.Equal(got, clean) {
		t.Errorf("JSON of clean text = %s", got)
	}
	for _, bad := range []string{`{"a":"ghp_abcdefghijklmnopqrstuvwxyz0123`, `"\x"`, ``} {
		_ = valued.JSON([]byte(bad)) // no panic
	}
}

type inner struct {
	Text string
	Raw  json.RawMessage
}

type outer struct {
	Name    string
	Ptr     *inner
	List    []inner
	Arr     [2]string
	Map     map[string]any
	Any     any
	Bytes   []byte
	private string
}

func TestWalk(t *testing.T) {
	const tok = "ghp_abcdefghijklmnopqrstuvwxyz0123"
	v := &outer{
		Name:    "name " + tok,
		Ptr:     &inner{Text: tok, Raw: json.RawMessage(`{"k":"` + tok + `"}`)},
		List:    []inner{{Text: "x " + tok}},
		Arr:     [2]string{tok, "fine"},
		Map:     map[string]any{tok: "v", "nested": []any{tok, map[string]any{"k": tok}}},
		Any:     tok,
		Bytes:   []byte(tok),
		private: tok,
	}
	valued.Walk(v)
	b, err := json.Marshal(struct {
		*outer
		Bytes string
	}{v, ""})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "ghp_") {
		t.Errorf("Walk left a token: %s", b)
	}
	if v.Arr[1] != "fine" || v.Name != "name [REDACTED:github-token]" {
		t.Errorf("Walk: %+v", v)
	}
	if string(v.Bytes) != tok || v.private != tok {
		t.Errorf("Walk changed bytes or an unexported field")
	}
	valued.Walk(*v) // not a pointer: nothing happens
	valued.Walk((*outer)(nil))
}

// TestWriterKeyBlock prints a private key a line per Write, as the
// progress lines of certify print a reason.
func TestWriterKeyBlock(t *testing.T) {
	var b bytes.Buffer
	w := valued.Writer(&b)
	for _, line := range []string{
		"✗ 12 the host printed a key\n",
		"    -----BEGIN RSA PRIVATE KEY-----\n",
		"    Proc-Type: 4,ENCRYPTED\n",
		"    MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n",
		"    VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n",
		"    -----END RSA PRIVATE KEY----- and then\n",
		"    repro: conform certify --only 12\n",
	} {
		if _, err := w.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	got := b.String()
	for _, leak := range []string{"MIIEow", "VTLw7o", "ENCRYPTED"} {
		if strings.Contains(got, leak) {
			t.Errorf("the key block leaked %q:\n%s", leak, got)
		}
	}
	for _, keep := range []string{"✗ 12 the host printed a key\n", " and then\n", "    repro: conform certify --only 12\n"} {
		if !strings.Contains(got, keep) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := valued.Writer(&b)
	n, err := w.Write([]byte("token ghp_abcdefghijklmnopqrstuvwxyz0123\n"))
	if err != nil || n != 41 {
		t.Errorf("Write = %d, %v", n, err)
	}
	w.Write([]byte("plain\n"))
	if got, want := b.String(), "token [REDACTED:github-token]\nplain\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
