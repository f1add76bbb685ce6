package tell

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The tell stage's layout, read with go/ast (the core's rules,
// referee/layout_test.go, hold here too): no type over maxMethods methods,
// no file over maxFileLines lines, the package under pkgTarget lines; and
// what makes it pure: it imports no store, no transport, no clock source
// and not the core (a cycle, and the door to reading records back).
const (
	maxMethods   = 30
	maxFileLines = 800
	pkgTarget    = 5000
)

// forbidden are the imports the tell stage must not have.
var forbidden = []string{
	"github.com/pbem-referee/referee/store",
	"github.com/pbem-referee/referee/referee",
	"go.etcd.io/bbolt",
	"net", "net/http", "net/smtp", "os", "log", "log/slog", "math/rand", "math/rand/v2", "crypto/rand",
}

func TestTellLayout_Issue25(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]int{}
	total, files := 0, 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		files++
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, bad := range forbidden {
				if p == bad {
					t.Errorf("%s imports %s: the tell stage takes plain values and returns mails (doc.go)", name, p)
				}
			}
		}
		full, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range full.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
				typ := fd.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					methods[id.Name]++
				}
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if se, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := se.X.(*ast.Ident); ok && x.Name == "time" && se.Sel.Name == "Now" {
						t.Errorf("%s reads the clock (time.Now): the tell stage is given Input.Now", name)
					}
				}
				return true
			})
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		l := strings.Count(string(b), "\n")
		total += l
		if l > maxFileLines {
			t.Errorf("%s has %d lines (at most %d): split it by job", name, l, maxFileLines)
		}
	}
	if files < 5 || methods["mailView"] < 5 {
		t.Fatalf("read %d files, %d methods of mailView: the check reads nothing", files, methods["mailView"])
	}
	for typ, n := range methods {
		if n > maxMethods {
			t.Errorf("type %s declares %d methods (at most %d)", typ, n, maxMethods)
		}
	}
	if total > pkgTarget {
		t.Errorf("the tell package has %d non-test lines (target %d)", total, pkgTarget)
	}
	t.Logf("tell package: %d non-test lines in %d files", total, files)
}
