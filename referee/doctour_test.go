package referee

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

// tourRefRe is a name of the package followed by the file that holds it,
// as doc.go's tour writes them: "processTx (referee.go)", "work.flush
// (work.go)", "authSeat, query.go".
var tourRefRe = regexp.MustCompile(`\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)(?: \(|, )([a-z_]+\.go)\b`)

// TestDocTourNamesWhereThingsAre_Issue25 (issue 25: referee/doc.go is a
// tour of one mail through the core): every function, method or type of
// the package that doc.go names with a file ("work.flush (work.go)") is
// declared in that file (a type: or has methods there, its room), so that the tour cannot drift from the code when
// a stage moves. Words of prose before a file name ("the desk (desk.go)")
// that name nothing of the package are not checked.
func TestDocTourNamesWhereThingsAre_Issue25(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// where: "name" or "Type.method" -> the files declaring it.
	where := map[string][]string{}
	var doc string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if name == "doc.go" {
			doc = f.Doc.Text()
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				key := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						key = id.Name + "." + key
						// A type is where its methods are too (a room:
						// "settling (settle.go)").
						where[id.Name] = append(where[id.Name], name)
					}
				}
				where[key] = append(where[key], name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						where[ts.Name.Name] = append(where[ts.Name.Name], name)
					}
				}
			}
		}
	}
	if doc == "" {
		t.Fatal("doc.go has no package doc")
	}
	text := strings.Join(strings.Fields(doc), " ")
	checked := 0
	for _, m := range tourRefRe.FindAllStringSubmatch(text, -1) {
		ref, file := m[1], m[2]
		if _, err := os.Stat(file); err != nil {
			if !strings.HasSuffix(file, "_test.go") {
				t.Errorf("doc.go names %s, which is no file of the package", file)
			}
			continue
		}
		files, ok := where[ref]
		if !ok {
			continue // prose, or a name of another package
		}
		checked++
		found := false
		for _, f := range files {
			found = found || f == file
		}
		if !found {
			t.Errorf("doc.go puts %s in %s; it is declared in %s", ref, file, strings.Join(files, ", "))
		}
	}
	if checked < 12 {
		t.Fatalf("only %d of the tour's names checked: has doc.go's form changed?", checked)
	}
}
