package referee

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 22, "a newcomer's first ten minutes": `make demo` on a fresh clone
// prints what it is doing before Go compiles (a compile printed nothing
// for 13 minutes under load), then runs the demo. The Makefile's demo
// target: an echo comes before the first command that compiles, and the
// demo runs last.
func TestMakeDemoPrintsBeforeItCompiles_Issue22(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	var recipe []string
	in := false
	for _, l := range strings.Split(string(mk), "\n") {
		switch {
		case strings.HasPrefix(l, "demo:"):
			in = true
		case in && strings.HasPrefix(l, "\t"):
			recipe = append(recipe, strings.TrimLeft(strings.TrimSpace(l), "@"))
		case in:
			in = false
		}
	}
	if len(recipe) < 2 {
		t.Fatalf("the demo target has %d commands: %q", len(recipe), recipe)
	}
	first := -1
	for i, c := range recipe {
		if strings.Contains(c, "$(GO) build") || strings.Contains(c, "$(GO) run") || strings.Contains(c, "go build") || strings.Contains(c, "go run") {
			first = i
			break
		}
	}
	if first <= 0 || !strings.HasPrefix(recipe[0], "echo ") {
		t.Errorf("make demo compiles before it prints anything: %q", recipe)
	}
	if last := recipe[len(recipe)-1]; !strings.Contains(last, "demo") {
		t.Errorf("make demo does not end with the demo: %q", last)
	}
}
