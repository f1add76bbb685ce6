package enginetest

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The games' test vectors live in testdata/*.vectors, each game with its
// own directives, in one frame: "CASE <id> <title>" opens a case, "END"
// closes it, "#" starts a comment line; each other line belongs to the
// case. ReadVectors reads that frame; the game's runner reads the lines.

// VectorLine is a line of a case and its line number in the file.
type VectorLine struct {
	N    int
	Text string
}

// VectorCase is one test vector: its id and title (the CASE line), the
// file and line it starts at, and its lines.
type VectorCase struct {
	ID, Title string
	File      string
	Line      int
	Lines     []VectorLine
}

// ReadVectors reads the cases of a vector file. With inlineComments a "#"
// anywhere starts a comment; otherwise only a line starting with "#" is one.
func ReadVectors(t testing.TB, path string, inlineComments bool) []VectorCase {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []VectorCase
	var cur *VectorCase
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "#"); inlineComments && i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch {
		case strings.HasPrefix(line, "CASE "):
			if cur != nil {
				t.Fatalf("%s:%d: CASE inside a case", path, n)
			}
			f := strings.Fields(line)
			cur = &VectorCase{ID: f[1], Title: strings.Join(f[2:], " "), File: path, Line: n}
		case line == "END":
			if cur == nil {
				t.Fatalf("%s:%d: END outside a case", path, n)
			}
			out = append(out, *cur)
			cur = nil
		default:
			if cur == nil {
				t.Fatalf("%s:%d: line outside a case: %q", path, n, line)
			}
			cur.Lines = append(cur.Lines, VectorLine{n, line})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s: case %s has no END", path, cur.ID)
	}
	return out
}

// RunVectorFiles runs each case of the files testdata/*.vectors (a "#"
// starts a comment line only) as a subtest named <id>_line<n>, n the line
// the case starts at, with run; it fails when there is no file or fewer
// than least cases.
func RunVectorFiles(t *testing.T, least int, run func(*testing.T, VectorCase)) {
	t.Helper()
	files, _ := filepath.Glob("testdata/*.vectors")
	if len(files) == 0 {
		t.Fatal("no testdata/*.vectors")
	}
	n := 0
	for _, f := range files {
		for _, c := range ReadVectors(t, f, false) {
			n++
			t.Run(c.ID+"_line"+strconv.Itoa(c.Line), func(t *testing.T) { run(t, c) })
		}
	}
	if n < least {
		t.Errorf("only %d vectors", n)
	}
}
