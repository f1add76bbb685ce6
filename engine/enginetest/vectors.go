package enginetest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The games' test vectors live in testdata/*.vectors, in one file format
// (engine/doc.go, "Tests, by role"): "CASE <name> <title>" opens a case,
// "END" closes it, a line starting with "#" is a comment; every other line
// belongs to the case and is one directive of the game's runner (its first
// word in capitals, the game's own vocabulary). The CASE line cites the
// rules the case proves: its name and title hold rule ids (DB-5.4.3,
// FR-7.4, A-3, D-15, TV-07 ...); a case of a specification's test vector
// is named after it (TV-07, or TV-07b for a second case of it).
// ParseVectors reads that frame; the game's runner reads the lines.

// VectorLine is a line of a case and its line number in the file.
type VectorLine struct {
	N    int
	Text string
}

// VectorCase is one test vector: its name and title (the CASE line), the
// rule ids the CASE line cites, the file and line it starts at, and its
// lines.
type VectorCase struct {
	ID, Title string
	Rules     []string
	File      string
	Line      int
	Lines     []VectorLine
}

// ruleID is an id a CASE line may cite: a game's rule (DB-, FR-, HA-,
// BC-), a specification's test vector (TV-), ambiguity (A-, AMB-), data
// table (D-) or player policy (P-). A name such as DB-5.3.4b or
// FR-7.4-4p cites the rule it starts with.
var ruleID = regexp.MustCompile(`\b(?:DB|FR|HA|BC|TV|AMB|A|D|P)-\d+(?:\.\d+)*`)

// CitedIDs lists the rule ids a text cites, each once, in order.
func CitedIDs(text string) []string {
	var out []string
	for _, id := range ruleID.FindAllString(text, -1) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// ParseVectors reads the cases of a vector file's text; name is the file
// named in errors ("name:line: ..."). A case without an END, an END or a
// line outside a case, a CASE inside one or without a name, and two cases
// of one name are errors.
func ParseVectors(name string, r io.Reader) ([]VectorCase, error) {
	var out []VectorCase
	var cur *VectorCase
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case f[0] == "CASE":
			if cur != nil {
				return nil, fmt.Errorf("%s:%d: CASE inside case %s (line %d): END it first", name, n, cur.ID, cur.Line)
			}
			if len(f) < 2 {
				return nil, fmt.Errorf("%s:%d: CASE without a name", name, n)
			}
			if at, dup := seen[f[1]]; dup {
				return nil, fmt.Errorf("%s:%d: case %s again (first at line %d)", name, n, f[1], at)
			}
			seen[f[1]] = n
			cur = &VectorCase{ID: f[1], Title: strings.Join(f[2:], " "), Rules: CitedIDs(strings.Join(f[1:], " ")), File: name, Line: n}
		case line == "END":
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: END outside a case", name, n)
			}
			out = append(out, *cur)
			cur = nil
		default:
			if cur == nil {
				return nil, fmt.Errorf("%s:%d: line outside a case: %q", name, n, line)
			}
			cur.Lines = append(cur.Lines, VectorLine{n, line})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, n, err)
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: case %s has no END", name, cur.Line, cur.ID)
	}
	return out, nil
}

// ReadVectors reads the cases of a vector file (ParseVectors); an error
// fails the test.
func ReadVectors(t testing.TB, path string) []VectorCase {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	cases, err := ParseVectors(path, fh)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// VectorFiles reads every case of dir/testdata/*.vectors, in file order;
// two cases of one name, even in two files, fail the test.
func VectorFiles(t testing.TB, dir string) []VectorCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "testdata", "*.vectors"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s/testdata/*.vectors (%v)", dir, err)
	}
	var all []VectorCase
	where := map[string]string{}
	for _, f := range files {
		for _, c := range ReadVectors(t, f) {
			at := fmt.Sprintf("%s:%d", c.File, c.Line)
			if first, dup := where[c.ID]; dup {
				t.Fatalf("%s: case %s again (first at %s)", at, c.ID, first)
			}
			where[c.ID] = at
			all = append(all, c)
		}
	}
	return all
}

// RunVectorFiles runs each case of the package's testdata/*.vectors as a
// subtest named by the case, with run; it fails when there are fewer than
// least cases. A case that fails is reported where it is: its file and
// line and the rule ids it cites ("testdata/spec.vectors:57: vector TV-03
// (DB-5.5.3 DB-5.6.1) fails"), besides the game's own message about the
// line that failed (VectorCase.Fatalf).
func RunVectorFiles(t *testing.T, least int, run func(*testing.T, VectorCase)) {
	t.Helper()
	cases := VectorFiles(t, ".")
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Error(caseReport(c))
				}
			})
			run(t, c)
		})
	}
	if len(cases) < least {
		t.Errorf("only %d vectors (at least %d)", len(cases), least)
	}
}

// caseReport says where a failing case is: "file:line: vector <name>
// (<rule ids>) fails".
func caseReport(c VectorCase) string {
	return fmt.Sprintf("%s:%d: vector %s (%s) fails", c.File, c.Line, c.ID, strings.Join(c.Rules, " "))
}

// Fatalf fails the case at line l: "file:line: text: message".
func (c VectorCase) Fatalf(t testing.TB, l VectorLine, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s:%d: %s: %s", c.File, l.N, l.Text, fmt.Sprintf(format, args...))
}
