package referee

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRaceSkipsRunInTheContentPass: a test of any package of the module
// that skips itself under the race detector (if raceEnabled {
// t.Skip(...) }) must be named in the Makefile's content target on the
// line of its own package, which runs it without the detector: otherwise
// `make check` runs it nowhere (two whole-game tests were in that state;
// the check read only this package's line until the review of session 10).
func TestRaceSkipsRunInTheContentPass(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?m)^content:.*\n((?:\t.*\n)+)`).FindSubmatch(mk)
	if body == nil {
		t.Fatal("no content target in ../Makefile")
	}
	inContent := map[string]bool{} // "dir TestName", dir as the Makefile names it
	line := regexp.MustCompile(`-run '\^\(([^)]*)\)\$\$' \./(\S*?)/?$`)
	for _, l := range strings.Split(strings.TrimSpace(string(body[1])), "\n") {
		m := line.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			t.Fatalf("a content line without -run '^(...)$$' ./dir/: %q", l)
		}
		for _, name := range strings.Split(m[1], "|") {
			inContent[m[2]+" "+name] = true
		}
	}
	fn := regexp.MustCompile(`^func (Test\w+)\(t \*testing\.T\)`)
	skipping := 0
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, ".."+string(filepath.Separator))))
		if dir == ".." {
			dir = ""
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
			if !inContent[dir+" "+test] {
				t.Errorf("%s (%s) skips under -race but is not on the Makefile's content line of ./%s/: it runs nowhere", test, path, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if skipping < 8 {
		t.Errorf("found only %d tests that skip under -race: is the scan still right?", skipping)
	}
}
