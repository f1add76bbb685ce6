package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The documents a newcomer reads (issue 25, "for the people who come
// next") lean on names: the README, CONTRIBUTING.md and the package docs
// cite the tests that prove a rule and the files where a change goes. A
// renamed test or a moved file leaves the document pointing at nothing,
// and nothing else fails; these tests do.

var (
	// testDefRe is a test, example, benchmark or fuzz target's declaration.
	testDefRe = regexp.MustCompile(`(?m)^func ((?:Test|Example|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)\(`)
	// testCiteRe is such a name cited in prose; a trailing * cites every
	// test of that prefix (TestCommandTable*).
	testCiteRe = regexp.MustCompile(`\b((?:Test|Example|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)(\*?)`)
	// placeholderTests are the names documents use as a stand-in
	// ("go test -run TestX").
	placeholderTests = map[string]bool{"TestX": true}
)

// moduleFiles walks the module's files (not its hidden directories, test
// data or build output) and calls fn with each path relative to the
// module's root and its content.
func moduleFiles(t *testing.T, fn func(rel string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(strings.TrimPrefix(path, "../../")), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDocsCiteTestsThatExist_Issue25: every test, example, benchmark or
// fuzz target named in a Markdown file or in a Go comment of the module is
// declared in one of its test files (by its whole name, or as a prefix
// when the citation ends with *).
func TestDocsCiteTestsThatExist_Issue25(t *testing.T) {
	defined := map[string]bool{}
	type cite struct{ where, name, star string }
	var cites []cite
	moduleFiles(t, func(rel string, b []byte) {
		if strings.HasSuffix(rel, "_test.go") {
			for _, m := range testDefRe.FindAllSubmatch(b, -1) {
				defined[string(m[1])] = true
			}
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasSuffix(rel, ".go") {
				_, c, ok := strings.Cut(line, "// ")
				if !ok || strings.Contains(line, "\"") && !strings.HasPrefix(strings.TrimSpace(line), "//") {
					continue // not a comment, or one after a string that may hold "//"
				}
				line = c
			}
			for _, m := range testCiteRe.FindAllStringSubmatch(line, -1) {
				cites = append(cites, cite{rel + ":" + itoa(i+1), m[1], m[2]})
			}
		}
	})
	if len(defined) < 500 || len(cites) < 100 {
		t.Fatalf("%d tests declared, %d citations found: the walk missed the module", len(defined), len(cites))
	}
	names := make([]string, 0, len(defined))
	for n := range defined {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, c := range cites {
		if defined[c.name] || placeholderTests[c.name] {
			continue
		}
		if c.star == "*" {
			i := sort.SearchStrings(names, c.name)
			if i < len(names) && strings.HasPrefix(names[i], c.name) {
				continue
			}
		}
		t.Errorf("%s cites %s%s, which no test file declares", c.where, c.name, c.star)
	}
}

// docPathRe is a path of the module in back quotes: it starts with one of
// the module's top directories.
var docPathRe = regexp.MustCompile("`((?:referee|engine|templates|mailfmt|store|cmd)/[^`\\s]*)`")

// TestDocsNamePathsThatExist_Issue25: every path of the module that the
// README, CONTRIBUTING.md or templates/README.md writes in back quotes
// (referee/commands/seat.go, engine/layout_test.go, templates/pages) is a
// file or directory of the module; a path with a placeholder (<game>,
// *) names a family and is not checked.
func TestDocsNamePathsThatExist_Issue25(t *testing.T) {
	checked := 0
	for _, doc := range []string{"README.md", "CONTRIBUTING.md", "templates/README.md"} {
		b, err := os.ReadFile(filepath.Join("../..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range docPathRe.FindAllStringSubmatch(line, -1) {
				p := strings.TrimSuffix(m[1], "/")
				if strings.ContainsAny(p, "<>*{}") {
					continue
				}
				checked++
				if _, err := os.Stat(filepath.Join("../..", p)); err != nil {
					t.Errorf("%s:%d names %s, which is not in the module", doc, i+1, m[1])
				}
			}
		}
	}
	if checked < 40 {
		t.Fatalf("only %d paths checked", checked)
	}
}

// itoa is strconv.Itoa for line numbers.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
