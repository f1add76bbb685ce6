package referee

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRaceSkipsRunInTheContentPass: a test of this package that skips
// itself under the race detector (if raceEnabled { t.Skip(...) }) must be
// named in the Makefile's content target, which runs it without the
// detector: otherwise `make check` runs it nowhere (two whole-game tests
// were in that state).
func TestRaceSkipsRunInTheContentPass(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^content:.*\n\t.*-run '\^\(([^)]*)\)\$\$'`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no content target with a -run '^(...)$$' list in ../Makefile")
	}
	inContent := map[string]bool{}
	for _, name := range strings.Split(string(m[1]), "|") {
		inContent[name] = true
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fn := regexp.MustCompile(`^func (Test\w+)\(t \*testing\.T\)`)
	skipping := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		test := ""
		for i, line := range lines {
			if sm := fn.FindStringSubmatch(line); sm != nil {
				test = sm[1]
				continue
			}
			if strings.HasPrefix(line, "func ") {
				test = ""
			}
			if test == "" || strings.TrimSpace(line) != "if raceEnabled {" || i+1 >= len(lines) ||
				!strings.Contains(lines[i+1], "t.Skip") {
				continue
			}
			skipping++
			if !inContent[test] {
				t.Errorf("%s (%s) skips under -race but is not in the Makefile's content target: it runs nowhere", test, f)
			}
		}
	}
	if skipping < 5 {
		t.Errorf("found only %d tests that skip under -race: is the scan still right?", skipping)
	}
}
