package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// declared returns the names a package directory (relative to the module's
// root) declares in its non-test files: types, functions and methods (by
// their bare name).
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("../..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go file (%v)", dir, err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				out[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						out[ts.Name.Name] = true
					}
				}
			}
		}
	}
	return out
}

var (
	// drawPathRe: a path of the module in the drawing, maybe with a name
	// after it ("referee/reading.Mail") or names in parentheses after it
	// ("referee/commands (Seat, Player)").
	drawPathRe = regexp.MustCompile(`\b(referee(?:/[a-z]+)+)(?:\.([A-Z]\w*))?(?: \(([A-Z]\w*(?:, [A-Z]\w*)*)\))?`)
	// drawNameRe: a Go name of the core's box: qualified ("referee.Process",
	// "engine.Table") or a room's camelCase name ("seatMail").
	drawNameRe = regexp.MustCompile(`\b(?:(referee|engine)\.([A-Z]\w*)|([a-z]+[A-Z]\w*))\b`)
)

// TestReadmeDrawingMatchesTheRooms_Issue25 (issue 25, "the README's
// drawing and tables match the new rooms"): the drawing of the house in
// the README's "Where things live" names only what exists, and every room
// outside the core:
//   - every path it writes (referee/tell, referee/reading.Mail,
//     referee/commands (Seat, Player)) is a package of the module, and
//     each name after it is declared there;
//   - every Go name in the core's box (referee.Process, engine.Table,
//     seatMail, gameWork) is declared in its package (the core's when
//     unqualified);
//   - every package under referee/edge, referee/pages, referee/wiring,
//     referee/tools and referee/rigs is named in it by its last element.
func TestReadmeDrawingMatchesTheRooms_Issue25(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Where things live\n")
	if !ok {
		t.Fatal(`README.md has no "Where things live" section`)
	}
	_, draw, ok := strings.Cut(sec, "\n```\n")
	if ok {
		draw, _, ok = strings.Cut(draw, "\n```\n")
	}
	if !ok {
		t.Fatal(`"Where things live" has no drawing`)
	}
	decls := map[string]map[string]bool{}
	has := func(dir, name string) bool {
		if decls[dir] == nil {
			decls[dir] = declared(t, dir)
		}
		return decls[dir][name]
	}
	checked := 0
	for _, m := range drawPathRe.FindAllStringSubmatch(draw, -1) {
		dir := m[1]
		if fi, err := os.Stat(filepath.Join("../..", dir)); err != nil || !fi.IsDir() {
			t.Errorf("the drawing names %s, which is no package", dir)
			continue
		}
		checked++
		names := strings.Split(m[3], ", ")
		if m[3] == "" {
			names = nil
		}
		if m[2] != "" {
			names = append(names, m[2])
		}
		for _, n := range names {
			checked++
			if !has(dir, n) {
				t.Errorf("the drawing names %s in %s, which does not declare it", n, dir)
			}
		}
	}
	// The core's box: the lines between its top and bottom borders.
	var box []string
	in := false
	for _, l := range strings.Split(draw, "\n") {
		if strings.Contains(l, "+----") {
			in = !in
			continue
		}
		if in {
			box = append(box, drawPathRe.ReplaceAllString(l, ""))
		}
	}
	if len(box) == 0 {
		t.Fatal("no box of the core in the drawing")
	}
	for _, m := range drawNameRe.FindAllStringSubmatch(strings.Join(box, "\n"), -1) {
		dir, name := "referee", m[3]
		if m[1] != "" {
			dir, name = m[1], m[2]
		}
		checked++
		if !has(dir, name) {
			t.Errorf("the drawing's core names %s, which %s does not declare", m[0], dir)
		}
	}
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`[a-z0-9]+`).FindAllString(draw, -1) {
		words[w] = true
	}
	for _, root := range []string{"referee/edge", "referee/pages", "referee/wiring", "referee/tools", "referee/rigs"} {
		err := filepath.WalkDir(filepath.Join("../..", root), func(path string, d os.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case !d.IsDir():
				return nil
			case d.Name() == "testdata":
				return filepath.SkipDir
			}
			if gos, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gos) == 0 {
				return nil
			}
			checked++
			if !words[d.Name()] {
				rel, _ := filepath.Rel("../..", path)
				t.Errorf("the drawing does not name %s (%s)", d.Name(), rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 40 {
		t.Fatalf("only %d names checked", checked)
	}
}
