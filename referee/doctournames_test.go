package referee

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// goNames is what a directory's Go files (tests left out) declare: every
// top-level name, and Type.Name for each method and struct field.
func goNames(t *testing.T, dir string) (names map[string]bool, files map[string]map[string]bool) {
	t.Helper()
	names, files = map[string]bool{}, map[string]map[string]bool{}
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]bool{}
		add := func(n string) { names[n], in[n] = true, true }
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name.Name)
					continue
				}
				rt := d.Recv.List[0].Type
				if s, ok := rt.(*ast.StarExpr); ok {
					rt = s.X
				}
				if ix, ok := rt.(*ast.IndexExpr); ok {
					rt = ix.X
				}
				if id, ok := rt.(*ast.Ident); ok {
					add(id.Name + "." + d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name)
						if sel, ok := s.Type.(*ast.SelectorExpr); ok && s.Assign != 0 {
							if x, ok := sel.X.(*ast.Ident); ok { // an alias: type Game = records.Game
								add(s.Name.Name + "=" + x.Name + "." + sel.Sel.Name)
							}
						}
						var fields *ast.FieldList
						switch ty := s.Type.(type) {
						case *ast.StructType:
							fields = ty.Fields
						case *ast.InterfaceType:
							fields = ty.Methods
						}
						if fields == nil {
							continue
						}
						for _, fl := range fields.List {
							for _, n := range fl.Names {
								add(s.Name.Name + "." + n.Name)
							}
							if len(fl.Names) == 0 { // embedded: its name
								ty := fl.Type
								if st, ok := ty.(*ast.StarExpr); ok {
									ty = st.X
								}
								switch e := ty.(type) {
								case *ast.Ident:
									add(s.Name.Name + "." + e.Name)
								case *ast.SelectorExpr:
									add(s.Name.Name + "." + e.Sel.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name)
						}
					}
				}
			}
		}
		files[filepath.Base(path)] = in
	}
	return names, files
}

// importedDirs maps the name of every package the core imports from this
// module to its directory (relative to the core's).
func importedDirs(t *testing.T) map[string]string {
	t.Helper()
	const module = "github.com/pbem-referee/referee/"
	dirs := map[string]string{}
	fset := token.NewFileSet()
	paths, _ := filepath.Glob("*.go")
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok {
				dirs[filepath.Base(rest)] = filepath.Join("..", rest)
			}
		}
	}
	return dirs
}

var (
	// a qualified name: records.AuthSeat, store.Tx.KeepDecoded, Request.Text.
	tourDotted = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*)\.([A-Z][A-Za-z0-9_]*|[a-z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\b`)
	tourFile   = regexp.MustCompile(`\b((?:[a-z]+/)*[a-z_]+\.go)\b`)
	tourPkg    = regexp.MustCompile(`\breferee/[a-z]+(?:/[a-z]+)*(?:\.go)?\b`)
	tourTest   = regexp.MustCompile(`\bTest[A-Z][A-Za-z0-9_]*`)
)

// TestDocTourNamesWhatExists (issue 25, "for the people who come next"):
// the tour of one mail in doc.go names only what exists. Where each name
// of the core lives is TestDocTourNamesWhereThingsAre_Issue25's; here every
// qualified name (a core type's method or field: Request.Text, work.flush;
// a name of a package the core imports: records.AuthSeat, store.DB.Ride)
// is declared, and every file, package and test the doc names exists. A
// rename that leaves the tour behind fails here.
func TestDocTourNamesWhatExists(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(src), "\n") {
		if c, ok := strings.CutPrefix(l, "//"); ok {
			lines = append(lines, strings.TrimSpace(c))
		}
	}
	doc := strings.Join(lines, " ")
	problems := tourProblems(t, doc)
	for _, p := range problems {
		t.Error(p)
	}
}

// tourProblems lists what doc names and the tree does not have.
func tourProblems(t *testing.T, doc string) []string {
	t.Helper()
	core, _ := goNames(t, ".")
	dirs := importedDirs(t)
	pkgNames := map[string]map[string]bool{}
	pkg := func(name string) map[string]bool {
		if _, ok := pkgNames[name]; !ok {
			if dir, ok := dirs[name]; ok {
				pkgNames[name], _ = goNames(t, dir)
			} else {
				pkgNames[name] = nil
			}
		}
		return pkgNames[name]
	}
	var problems []string
	checked := 0
	for _, m := range tourDotted.FindAllStringSubmatch(doc, -1) {
		first, second, third := m[1], m[2], m[3]
		if strings.HasSuffix(m[0], ".go") || first == "org" || first == "e" {
			continue // a file; a template's name (org.org_*); "e.g."
		}
		switch {
		case core[first]: // a type of the core: its method or field
			checked++
			if !core[first+"."+second] && !aliasHas(core, first, second, pkg) {
				problems = append(problems, "the tour names "+m[0]+": "+first+" has no "+second)
			}
		case pkg(first) != nil: // a package the core imports
			checked++
			want := second
			if third != "" {
				want = second + "." + third
			}
			if !pkg(first)[want] {
				problems = append(problems, "the tour names "+m[0]+": package "+first+" declares no "+want)
			}
		}
	}
	for _, m := range tourFile.FindAllString(doc, -1) {
		checked++
		path := m
		if strings.Contains(m, "/") {
			path = filepath.Join("..", m)
			if !strings.HasPrefix(m, "referee/") {
				path = filepath.Join("..", "..", m)
			}
		}
		if _, err := os.Stat(path); err != nil {
			problems = append(problems, "the tour names "+m+": no such file")
		}
	}
	for _, m := range tourPkg.FindAllString(doc, -1) {
		if strings.HasSuffix(m, ".go") {
			continue // a file: checked above
		}
		checked++
		if st, err := os.Stat(filepath.Join("..", m)); err != nil || !st.IsDir() {
			problems = append(problems, "the tour names package "+m+": no such directory")
		}
	}
	tests := testNames(t)
	for _, m := range tourTest.FindAllString(doc, -1) {
		checked++
		if !tests[m] {
			problems = append(problems, "the tour names "+m+": no such test in referee/")
		}
	}
	if checked < 60 {
		problems = append(problems, "the tour check read only "+strconv.Itoa(checked)+" names: the patterns miss the doc")
	}
	sort.Strings(problems)
	return problems
}

// aliasHas tells whether the core's type name is an alias of another
// package's type that has member.
func aliasHas(core map[string]bool, name, member string, pkg func(string) map[string]bool) bool {
	for k := range core {
		if target, ok := strings.CutPrefix(k, name+"="); ok {
			p, typ, _ := strings.Cut(target, ".")
			return pkg(p)[typ+"."+member]
		}
	}
	return false
}

// testNames is every Test function of the core's test files.
func testNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	paths, _ := filepath.Glob("*_test.go")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]*)\(`).FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
	}
	return names
}

// The check fails on a tour that names what is not there (a test of the
// test: each kind of mistake once).
func TestDocTourCheckFinds(t *testing.T) {
	for _, bad := range []string{
		"work.flushAll (work.go) walks",          // a method that is not
		"the seat (records.AuthSeats: the rule)", // a package's name that is not
		"store.DB.Rides",                         // a method of a package's type
		"Request.Txt",                            // a field of a core type
		"package referee/teller hands",           // a package that is not
		"(TestSeatMailIsNeverQuiet)",             // a test that is not
		"the seat's room (seats.go) reads",       // a file that is not
	} {
		doc := bad + strings.Repeat(" Process (referee.go) x", 60)
		if ps := tourProblems(t, doc); len(ps) == 0 {
			t.Errorf("no problem found in %q", bad)
		}
	}
}
