package enginetest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// SourceStrings returns, sorted and once each, the first submatch of re in
// the non-test Go files matching glob: the codes, keys and ids a package's
// sources use, read so that a test of "every code has its words" cannot
// miss a new one. A glob that matches no file fails t (a walk that reads
// nothing would pass whatever the sources say).
func SourceStrings(t testing.TB, glob string, re *regexp.Regexp) []string {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no file (%v)", glob, err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			seen[m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
