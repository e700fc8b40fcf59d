package builtin

import (
	"path/filepath"
	"testing"
)

func TestCommandResolvesARelativeHostAgainstTheCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	argv, err := Command("./my-host --stdio")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "my-host"); argv[0] != want || argv[1] != "--stdio" {
		t.Errorf("Command(./my-host --stdio) = %q, want [%s --stdio]", argv, want)
	}
	words, err := Words("./my-host --stdio")
	if err != nil || words[0] != "./my-host" {
		t.Errorf("Words keeps the command as written, got %q, %v", words, err)
	}
}
