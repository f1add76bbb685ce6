package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseVectorsFrame_Issue25: the one frame of the vector files (CASE
// <name> <title> ... END, "#" comment lines): a case's name, title, cited
// rule ids and lines with their line numbers; every broken frame is an
// error naming the file and line.
func TestParseVectorsFrame_Issue25(t *testing.T) {
	src := "# a comment\n\nCASE TV-05b deferred placements (DB-5.6.1 to DB-5.6.3, A-10, §8.1, N-1)\n" +
		"SETUP ann bob\n  # indented comment\nann: PLACE MH1 SEED\nEND\n" +
		"CASE ST01 tile ST01 (D-15, FR-5.9.2)\nEND\n"
	cases, err := ParseVectors("x.vectors", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []VectorCase{
		{ID: "TV-05b", Title: "deferred placements (DB-5.6.1 to DB-5.6.3, A-10, §8.1, N-1)",
			Rules: []string{"TV-05", "DB-5.6.1", "DB-5.6.3", "A-10"}, File: "x.vectors", Line: 3,
			Lines: []VectorLine{{4, "SETUP ann bob"}, {6, "ann: PLACE MH1 SEED"}}},
		{ID: "ST01", Title: "tile ST01 (D-15, FR-5.9.2)", Rules: []string{"D-15", "FR-5.9.2"}, File: "x.vectors", Line: 8},
	}
	if !reflect.DeepEqual(cases, want) {
		t.Fatalf("got %+v\nwant %+v", cases, want)
	}
	for src, msg := range map[string]string{
		"CASE A-1\nCASE A-2\nEND\n":          "x.vectors:2: CASE inside case A-1",
		"END\n":                              "x.vectors:1: END outside a case",
		"SETUP\n":                            "x.vectors:1: line outside a case",
		"CASE A-1\nX\n":                      "x.vectors:1: case A-1 has no END",
		"CASE\nEND\n":                        "x.vectors:1: CASE without a name",
		"CASE A-1 t\nEND\nCASE A-1 u\nEND\n": "x.vectors:3: case A-1 again (first at line 1)",
	} {
		_, err := ParseVectors("x.vectors", strings.NewReader(src))
		if err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

// TestRunVectorFilesReportsTheCase_Issue25: a failing case is reported
// by its file, line and rule ids (RunVectorFiles' report), and a case's
// Fatalf names the line that failed.
func TestRunVectorFilesReportsTheCase_Issue25(t *testing.T) {
	c := VectorCase{ID: "TV-03", Rules: []string{"TV-03", "DB-5.5.3"}, File: "testdata/spec.vectors", Line: 57,
		Lines: []VectorLine{{60, "EXPECT luca.ST = Y4"}}}
	rec := &recorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		c.Fatalf(rec, c.Lines[0], "got %s", "Y3")
	}()
	if want := "testdata/spec.vectors:60: EXPECT luca.ST = Y4: got Y3"; rec.msg != want {
		t.Errorf("Fatalf said %q, want %q", rec.msg, want)
	}
	if got, want := caseReport(c), "testdata/spec.vectors:57: vector TV-03 (TV-03 DB-5.5.3) fails"; got != want {
		t.Errorf("report %q, want %q", got, want)
	}
}

// recorder keeps the message of a Fatalf instead of ending the test.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = strings.TrimSpace(fmt.Sprintf(format, args...))
	panic("fatal")
}

// FuzzParseVectors: any text either parses into cases that render back
// to text parsing to the same cases (names, titles, rule ids, lines), no
// line of a case being a frame line, or fails with an error naming the
// file and line; never a panic. The seeds are the four games' files.
func FuzzParseVectors(f *testing.F) {
	seeds, _ := filepath.Glob("../*/testdata/*.vectors")
	if len(seeds) < 4 {
		f.Fatalf("seeds: %v", seeds)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("CASE A-1\nEND\nEND\n")
	f.Add("CASE TV-01b x (DB-1.1)\n#\nX\nEND")
	f.Fuzz(func(t *testing.T, src string) {
		cases, err := ParseVectors("f.vectors", strings.NewReader(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.vectors:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		var b strings.Builder
		for _, c := range cases {
			if c.ID == "" || c.Line < 1 {
				t.Fatalf("case %+v", c)
			}
			b.WriteString("CASE " + c.ID + " " + c.Title + "\n")
			last := c.Line
			for _, l := range c.Lines {
				if l.N <= last || l.Text == "END" || strings.HasPrefix(l.Text, "#") ||
					strings.Fields(l.Text)[0] == "CASE" || l.Text != strings.TrimSpace(l.Text) {
					t.Fatalf("case %s: line %+v", c.ID, l)
				}
				last = l.N
				b.WriteString(l.Text + "\n")
			}
			b.WriteString("END\n")
		}
		again, err := ParseVectors("f.vectors", strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("rendered cases do not parse: %v\n%s", err, b.String())
		}
		if len(again) != len(cases) {
			t.Fatalf("%d cases, then %d", len(cases), len(again))
		}
		for i, c := range cases {
			a := again[i]
			if a.ID != c.ID || a.Title != c.Title || !reflect.DeepEqual(a.Rules, c.Rules) || len(a.Lines) != len(c.Lines) {
				t.Fatalf("case %d: %+v, then %+v", i, c, a)
			}
			for k := range c.Lines {
				if a.Lines[k].Text != c.Lines[k].Text {
					t.Fatalf("case %s line %d: %q, then %q", c.ID, k, c.Lines[k].Text, a.Lines[k].Text)
				}
			}
		}
	})
}
