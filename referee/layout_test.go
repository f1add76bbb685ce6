package referee

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The layout of the core (issue 25, the rooms), read with go/ast so that a
// number that grows fails here, not in a review:
//
//   - no type of the referee package declares more than maxMethods
//     methods: a type that grows past it is two jobs (split it by stage,
//     as work.go describes);
//   - the methods of each room live in the files of its job (roomFiles):
//     a reader finds a method from what it does;
//   - no Go file of the package (tests included) is over maxFileLines;
//   - the package's non-test lines stay under its ceiling (pkgCeiling).
const (
	maxMethods   = 30
	maxFileLines = 800
	// pkgTarget is the size a package should keep to; the referee package
	// is over it (9.5k lines when the rooms were split by type, 7.4k once
	// reading, tell, the organiser's and the seat's doors, the guards,
	// deadlines and hooks had moved out, 6.1k once the command table, the
	// read-only answers, the records, the tentative runs, the lifecycle
	// rules and the failure shape had, 5.4k once a game's seating and its
	// settling had (referee/seating and referee/settle), 5.2k once the
	// organiser's words, refusals and record, seat authentication,
	// HOOK/UNHOOK and a change's hook calls, the organiser's help and the
	// tell stage's values had, 5.0k once a rollback's cut of the engine
	// log, the organiser's hello throttle, the new game's request, a
	// seat's HELP, the hooks' lines, a bounce's failed addresses, the open
	// games' listing, the page's result, a seat's reader and the notes'
	// renumbering had) and
	// may not grow past pkgCeiling: lower the ceiling as rooms move into
	// sub-packages of their own.
	pkgTarget  = 5000
	pkgCeiling = 4974
)

// roomFiles: the files that may hold the methods of each room.
var roomFiles = map[string][]string{
	"seatMail":   {"request.go", "readnotes.go", "commands_seat.go", "prose.go"},
	"seatHost":   {"commands_seat.go"},
	"playerHost": {"commands_player.go"},
	"settling":   {"settle.go", "tick.go"},
	"teller":     {"mail.go", "hooks.go", "gamepages.go"},
	"orgWork":    {"organiser.go"},
	"orgHost":    {"orghost.go"},
	"orgGame":    {"orghost.go"},
	"playerWork": {"request.go", "commands_player.go"},
	"queries":    {"query.go", "export.go"},
	"pageCore":   {"gamepages.go"},
	"pageSnap":   {"gamepages.go"},
	"organisers": {"organiser.go", "lifecycle.go"},
	"asides":     {"intake.go", "abuse.go"},
}

// coreMethods parses the package's non-test files: the methods of each
// receiver type, by file, and the lines of each file.
func coreMethods(t *testing.T) (methods map[string]map[string]string, lines map[string]int) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if len(files) < 20 {
		t.Fatalf("parsed %d files of the referee package: the checks read nothing", len(files))
	}
	methods, lines = map[string]map[string]string{}, map[string]int{}
	for name, f := range files {
		lines[name] = fset.File(f.Pos()).LineCount()
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			id, ok := typ.(*ast.Ident)
			if !ok {
				continue
			}
			if methods[id.Name] == nil {
				methods[id.Name] = map[string]string{}
			}
			methods[id.Name][fd.Name.Name] = filepath.Base(name)
		}
	}
	return methods, lines
}

func TestLayoutTypesKeepToOneJob_Issue25(t *testing.T) {
	methods, _ := coreMethods(t)
	for _, typ := range []string{"Referee", "work", "gameWork", "seatMail"} {
		if len(methods[typ]) < 5 {
			t.Errorf("type %s has %d methods: the check reads nothing", typ, len(methods[typ]))
		}
	}
	for typ, ms := range methods {
		if len(ms) > maxMethods {
			t.Errorf("type %s declares %d methods (at most %d): split it by the stage or job of its methods (work.go)", typ, len(ms), maxMethods)
		}
	}
}

func TestLayoutRoomsInTheirFiles_Issue25(t *testing.T) {
	methods, lines := coreMethods(t)
	for typ, files := range roomFiles {
		if len(methods[typ]) == 0 {
			t.Errorf("room %s has no methods: roomFiles names a type that is gone", typ)
		}
		for _, f := range files {
			if _, ok := lines[f]; !ok {
				t.Errorf("room %s: roomFiles names %s, which is not a file of the package", typ, f)
			}
		}
		var stray []string
		for m, f := range methods[typ] {
			if !slices.Contains(files, f) {
				stray = append(stray, m+" in "+f)
			}
		}
		sort.Strings(stray)
		for _, s := range stray {
			t.Errorf("%s.%s: a method of room %s belongs in %v", typ, s, typ, files)
		}
	}
}

func TestLayoutFileAndPackageSizes_Issue25(t *testing.T) {
	_, lines := coreMethods(t)
	total := 0
	for _, n := range lines {
		total += n
	}
	if total > pkgCeiling {
		t.Errorf("the referee package has %d non-test lines, over its ceiling %d (target %d): move a room into a sub-package of its own", total, pkgCeiling, pkgTarget)
	}
	t.Logf("referee package: %d non-test lines in %d files (target %d, ceiling %d)", total, len(lines), pkgTarget, pkgCeiling)
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 60 {
		t.Fatalf("read only %d Go files in referee/", len(names))
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if l := strings.Count(string(b), "\n"); l > maxFileLines {
			t.Errorf("%s has %d lines (at most %d): split it by job", name, l, maxFileLines)
		}
	}
}
