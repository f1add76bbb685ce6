package mailfmt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackagesUnder5000Lines_Issue25: mailfmt and each of its
// sub-packages keep under 5,000 non-test lines (issue 25: no package over
// 5,000; the split of session 14 brought mailfmt from 6,916 to two).
func TestPackagesUnder5000Lines_Issue25(t *testing.T) {
	for _, dir := range []string{".", "mailmsg"} {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(names) == 0 {
			t.Fatalf("%s: %v %v", dir, names, err)
		}
		n := 0
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			n += bytes.Count(b, []byte("\n"))
		}
		if n > 5000 {
			t.Errorf("mailfmt/%s: %d non-test lines, over 5,000: split it by job", dir, n)
		}
	}
}
