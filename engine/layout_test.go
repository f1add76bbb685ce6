package engine_test

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// skeletonRoles is the skeleton of a game that doc.go describes ("The
// skeleton of a game"): each role and the file it sits in. A role is a
// method (of the game's Game or State type), a function, a variable or a
// type; the file is where every game keeps it, so that the next game
// follows them and a reader finds a rule's code without a search.
var skeletonRoles = []struct{ name, file string }{
	{"Info", "game.go"}, {"DefaultRuleset", "game.go"}, {"NewBot", "game.go"},
	{"NewState", "game.go"}, {"DecodeState", "game.go"},
	{"Clone", "state.go"},
	{"Pending", "flow.go"},
	{"Parse", "parse.go"}, {"Route", "parse.go"},
	{"Apply", "apply.go"},
	{"Check", "check.go"},
	{"Result", "score.go"},
	{"Adjudicate", "adjudicate.go"},
	{"View", "view.go"},
	{"Greedy", "bot.go"},
}

// subRoles are the roles the game's sub-packages keep (engine/doc.go, "The
// skeleton of a game"): the data file and what is read from it in catalog/,
// the move and its text in notation/.
var subRoles = map[string][]struct{ name, file string }{
	"catalog": {
		{"DefaultRuleset", "data.go"}, {"Rules", "data.go"},
		{"ParseRules", "data.go"}, {"DataFile", "data.go"},
	},
	"notation": {{"Move", "move.go"}},
}

// splitRoles are the roles of the two sub-packages a game takes when its
// rules outgrow one package (engine/doc.go, "The skeleton of a game";
// dicebrewing): its position, the state's data and the questions it
// answers, in position/, and the reading of a position for a seat in
// view/. A game has both or neither; the game's State embeds the Position
// (stateEmbedsPosition).
var splitRoles = map[string][]struct{ name, file string }{
	"position": {{"Position", "position.go"}},
	"view":     {{"View", "view.go"}, {"Build", "build.go"}, {"Moves", "build.go"}},
}

// subImports are the packages of the module that each sub-package may
// import: catalog is a leaf over engine, notation reads the catalog, the
// position reads the catalog, the view reads the position and the move's
// text; none reaches the game's rules.
var subImports = map[string][]string{
	"catalog":  {"engine"},
	"notation": {"engine", "engine/<game>/catalog"},
	"position": {"engine", "engine/<game>/catalog"},
	"view":     {"engine", "engine/<game>/catalog", "engine/<game>/notation", "engine/<game>/position"},
}

// skeletonGames are the games that must follow the skeleton.
var skeletonGames = []string{"dicebrewing", "fromage", "heavenale", "brewcrafters"}

// declaredIn maps each top-level name of a game package (methods by their
// name, functions, variables, types) to the files that declare it.
func declaredIn(t *testing.T, dir string) (map[string][]string, map[string]*ast.File) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	where, files := map[string][]string{}, map[string]*ast.File{}
	add := func(name, file string) { where[name] = append(where[name], file) }
	for _, path := range names {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, path, nil, goparser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(path)
		files[base] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				add(d.Name.Name, base)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name, base)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name, base)
						}
					}
				}
			}
		}
	}
	return where, files
}

// TestEnginesFollowTheSkeleton_Issue25: every game keeps every role of
// the skeleton in the file doc.go names, has its package doc in doc.go,
// and embeds its data file <game>.toml.
func TestEnginesFollowTheSkeleton_Issue25(t *testing.T) {
	placed, roles := 0, 0
	for _, game := range skeletonGames {
		where, files := declaredIn(t, game)
		if len(files) < 10 {
			t.Fatalf("%s: read only %d files", game, len(files))
		}
		for _, r := range skeletonRoles {
			roles++
			got := where[r.name]
			switch {
			case len(got) == 0:
				t.Errorf("%s: no %s (the skeleton's %s)", game, r.name, r.file)
			case !slices.Contains(got, r.file):
				sort.Strings(got)
				t.Errorf("%s: %s sits in %v; the skeleton keeps it in %s (engine/doc.go)", game, r.name, got, r.file)
			default:
				placed++
			}
		}
		for name, f := range files {
			if f.Doc != nil && name != "doc.go" && strings.HasPrefix(f.Doc.Text(), "Package ") {
				t.Errorf("%s: the package doc is in %s; it belongs in doc.go", game, name)
			}
		}
		if d := files["doc.go"]; d == nil || d.Doc == nil || !strings.HasPrefix(d.Doc.Text(), "Package "+game) {
			t.Errorf("%s: doc.go does not hold the package doc", game)
		}
		for sub, list := range subRoles {
			if placeSubRoles(t, game, sub, list, &placed, &roles) == 0 {
				t.Errorf("%s: no %s sub-package (engine/doc.go)", game, sub)
			}
		}
		split := 0
		for sub := range splitRoles {
			if _, err := os.Stat(filepath.Join(game, sub)); err == nil {
				split++
			}
		}
		switch split {
		case 1:
			t.Errorf("%s: one of %v only; a game that splits its state has both (engine/doc.go)", game, slices.Sorted(maps.Keys(splitRoles)))
		case len(splitRoles):
			for sub, list := range splitRoles {
				placeSubRoles(t, game, sub, list, &placed, &roles)
			}
			roles++
			if stateEmbedsPosition(files["state.go"]) {
				placed++
			} else {
				t.Errorf("%s: state.go declares no State type embedding position.Position (engine/doc.go)", game)
			}
		}
		if _, err := os.Stat(filepath.Join(game, "catalog", game+".toml")); err != nil {
			t.Errorf("%s: no data file: %v", game, err)
		}
	}
	t.Logf("%d of %d roles where engine/doc.go says", placed, roles)
}

// placeSubRoles checks that each role of list sits in its file of the
// game's sub-package sub, counting them in placed and roles, and the
// sub-package's imports (checkSubImports); it returns the number of the
// sub-package's files.
func placeSubRoles(t *testing.T, game, sub string, list []struct{ name, file string }, placed, roles *int) int {
	t.Helper()
	where, files := declaredIn(t, filepath.Join(game, sub))
	for _, r := range list {
		*roles++
		if got := where[r.name]; !slices.Contains(got, r.file) {
			t.Errorf("%s/%s: %s sits in %v; the skeleton keeps it in %s (engine/doc.go)", game, sub, r.name, got, r.file)
		} else {
			*placed++
		}
	}
	checkSubImports(t, game, sub, files)
	return len(files)
}

// stateEmbedsPosition reports whether a game's state.go declares a struct
// type with position.Position as an embedded field.
func stateEmbedsPosition(f *ast.File) bool {
	if f == nil {
		return false
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, sp := range g.Specs {
			ts, ok := sp.(*ast.TypeSpec)
			if !ok {
				continue
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, fl := range st.Fields.List {
				if sel, ok := fl.Type.(*ast.SelectorExpr); ok && len(fl.Names) == 0 && sel.Sel.Name == "Position" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "position" {
						return true
					}
				}
			}
		}
	}
	return false
}

// checkSubImports: a sub-package of a game imports, of the module, only
// what subImports allows it (catalog is a leaf, notation reads the
// catalog; neither reaches the game's rules).
func checkSubImports(t *testing.T, game, sub string, files map[string]*ast.File) {
	t.Helper()
	const module = "github.com/pbem-referee/referee/"
	for name, f := range files {
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, `"`)
			rel, ok := strings.CutPrefix(path, module)
			if !ok {
				continue
			}
			allowed := false
			for _, a := range subImports[sub] {
				allowed = allowed || rel == strings.ReplaceAll(a, "<game>", game)
			}
			if !allowed {
				t.Errorf("%s/%s/%s imports %s: the sub-package may import only %v", game, sub, name, rel, subImports[sub])
			}
		}
	}
}

const maxEngineFileLines = 800

// TestEngineFilesUnder800Lines_Issue25: no Go file of engine/ or of a
// game's package (tests included) is over maxEngineFileLines (the whole
// module is held to the same by cmd/referee's TestNoGoFileOver800Lines_Issue25).
func TestEngineFilesUnder800Lines_Issue25(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, game := range skeletonGames {
		for _, dir := range []string{game, filepath.Join(game, "catalog"), filepath.Join(game, "notation"),
			filepath.Join(game, "position"), filepath.Join(game, "view")} {
			more, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil {
				t.Fatal(err)
			}
			paths = append(paths, more...)
		}
	}
	if len(paths) < 50 {
		t.Fatalf("read only %d files", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(b), "\n")
		if n > maxEngineFileLines {
			t.Errorf("%s has %d lines (at most %d): split it by job", p, n, maxEngineFileLines)
		}
	}
}

// TestStateEmbedsPositionReadsTheField: the skeleton's check of a split
// game's state.go sees an embedded position.Position, and only that (a
// named field of the type, or another package's Position, is not it).
func TestStateEmbedsPositionReadsTheField(t *testing.T) {
	for src, want := range map[string]bool{
		"type state struct {\n\tposition.Position\n\tev []int\n}": true,
		"type state struct {\n\tpos position.Position\n}":         false,
		"type state struct {\n\tother.Position\n}":                false,
		"type state struct {\n\tposition.Board\n}":                false,
		"type state = int\n\nvar x struct{ position.Position }":   false,
	} {
		f, err := goparser.ParseFile(token.NewFileSet(), "state.go", "package g\n\n"+src+"\n", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := stateEmbedsPosition(f); got != want {
			t.Errorf("%q: embeds %v, want %v", src, got, want)
		}
	}
	if stateEmbedsPosition(nil) {
		t.Error("no state.go embeds a Position")
	}
}

// testRoles are the tests of a game by role (engine/doc.go, "Tests, by
// role"): each file, with what it must hold where the role is one of
// enginetest's helpers (empty: the file itself). A role given as "a|b"
// sits in either (Dice Brewing's rules are cases of testdata/rules.vectors).
var testRoles = []struct{ file, holds string }{
	{"helpers_test.go", ""},
	{"rules_test.go|testdata/rules.vectors", ""},
	{"vectors_test.go", "enginetest.RunVectorFiles("},
	{"data_test.go", "Ruleset"},
	{"conformance_test.go", "enginetest.Conformance("},
	{"random_test.go", ""},
	{"fuzz_test.go", "func Fuzz"},
	{"table_test.go", ""},
	{"script_test.go", "enginetest.PlayScript"},
	{"adjudicate_test.go", "Adjudicate"},
	{"templates_test.go", "enginetest.Golden("},
	{"bench_test.go", "enginetest.BenchGames("},
	{"testdata/short.toml", ""},
	{"testdata/short-2p.script", ""},
	{"testdata/spec.vectors", "CASE TV-"},
	{"testdata/spec.ids", "TV-01"},
}

// onlyInRole are the helpers that sit in their role's file and no other
// (a second conformance run, vector loop, fuzz target or game benchmark
// elsewhere is a misplaced role).
var onlyInRole = []string{"enginetest.RunVectorFiles(", "enginetest.Conformance(", "func Fuzz", "enginetest.BenchGames("}

// TestEngineTestsFollowTheSkeleton_Issue25: every game keeps each test
// role in the file engine/doc.go names ("Tests, by role"), holding what
// the role is, and the helpers of onlyInRole in no other file.
func TestEngineTestsFollowTheSkeleton_Issue25(t *testing.T) {
	placed, roles := 0, 0
	for _, game := range skeletonGames {
		for _, r := range testRoles {
			roles++
			ok := false
			for _, f := range strings.Split(r.file, "|") {
				b, err := os.ReadFile(filepath.Join(game, f))
				ok = ok || err == nil && strings.Contains(string(b), r.holds)
			}
			if ok {
				placed++
			} else {
				t.Errorf("%s: no %s holding %q (engine/doc.go, \"Tests, by role\")", game, r.file, r.holds)
			}
		}
		tests, _ := filepath.Glob(filepath.Join(game, "*_test.go"))
		for _, path := range tests {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range testRoles {
				if slices.Contains(onlyInRole, r.holds) && filepath.Base(path) != r.file && strings.Contains(string(b), r.holds) {
					t.Errorf("%s holds %q: it belongs in %s (engine/doc.go)", path, r.holds, r.file)
				}
			}
		}
	}
	t.Logf("%d of %d test roles where engine/doc.go says", placed, roles)
}
