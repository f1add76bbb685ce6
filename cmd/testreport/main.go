// Command testreport reads `go test -json` on stdin and prints what a plain
// `go test` prints (package results, the output of failing tests), then the
// tests that were skipped and why: `make test` uses it so that nobody takes
// a green run for one that exercised the real mail stack when Dovecot and
// Postfix were missing. It exits 1 when a test or a package failed.
//
// It owns the summary of a test run. It must not run tests or import the
// project's packages: it reads go test -json only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type key struct{ pkg, test string }

func main() {
	os.Exit(report(os.Stdin, os.Stdout))
}

func report(in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	buf := map[key][]string{}
	var skips []string
	failed := false
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(out, sc.Text()) // not JSON: a build error, say
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			if e.Test == "" {
				fmt.Fprint(out, e.Output)
			} else {
				buf[k] = append(buf[k], e.Output)
			}
		case "fail":
			failed = true
			if e.Test != "" {
				fmt.Fprint(out, strings.Join(buf[k], ""))
			}
			delete(buf, k)
		case "skip":
			if e.Test != "" {
				skips = append(skips, fmt.Sprintf("%s %s: %s", strings.TrimPrefix(e.Package, "github.com/pbem-referee/referee/"), e.Test, reason(buf[k])))
			}
			delete(buf, k)
		case "pass":
			delete(buf, k)
		}
	}
	if len(skips) > 0 {
		sort.Strings(skips)
		fmt.Fprintf(out, "\n%d tests were SKIPPED (they did not run; the reason follows each):\n", len(skips))
		for _, s := range skips {
			fmt.Fprintln(out, "  "+s)
		}
	}
	if failed {
		return 1
	}
	return 0
}

// reason is the message a skipped test gave (its output without the
// framework's own lines).
func reason(lines []string) string {
	var r []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		// "file_test.go:18: message": keep the message.
		if i := strings.Index(t, ".go:"); i > 0 {
			if j := strings.Index(t[i+4:], ": "); j >= 0 {
				t = t[i+4+j+2:]
			}
		}
		r = append(r, t)
	}
	if len(r) == 0 {
		return "(no reason given)"
	}
	return strings.Join(r, " ")
}
