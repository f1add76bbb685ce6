package templates

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"text/template"
	"text/template/parse"
)

// funcClasses classifies every function a template may call (issue 25:
// a template's text is kept by its data, kept.go, which holds only while
// a template reads nothing but its data and the Set's functions):
//   - "args": a function of its arguments alone;
//   - "set": a function of its arguments and the Set, which does not
//     change after load (the language's grammar and day names, the
//     templates themselves, the tables folded at load);
//   - "data": text/template's call, which calls a function held in the
//     data: data holding a function is never kept (keyableType).
//
// A new function fails TestFuncsReadOnlyTheirArguments until it is
// classified here, and an "args" one until its code reads nothing else.
var funcClasses = map[string]string{
	// funcs.go and the grammar's.
	"upper": "args", "lower": "args", "title": "args", "join": "args", "fields": "args", "hasPrefix": "args",
	"lastChar": "args", "repeat": "args", "pad": "args", "lpad": "args", "wrap": "args", "fold": "args",
	"indent": "args", "add": "args", "sub": "args", "mul": "args", "seq": "args", "dict": "args", "list": "args", "pick": "args",
	"who": "args", "whoall": "args", "val": "args",
	"default": "args", "has": "args", "str": "args", "num": "args", "int": "args", "len": "args", "contains": "args",
	"dayname": "set", "plural": "set", "count": "set", "elide": "set", "tmpl": "set", keptTemplateFunc: "set",
	// text/template's own.
	"and": "args", "or": "args", "not": "args", "index": "args", "slice": "args", "print": "args",
	"printf": "args", "println": "args", "eq": "args", "ne": "args", "lt": "args", "le": "args", "gt": "args",
	"ge": "args", "html": "args", "js": "args", "urlquery": "args", "call": "data",
}

// classOf is name's class ("" when unclassified); the tables folded at
// load (fold.go) are the Set's.
func classOf(name string) string {
	if strings.HasPrefix(name, constPrefix) {
		return "set"
	}
	return funcClasses[name]
}

// TestFuncsReadOnlyTheirArguments (issue 25, the review of kept.go): every
// function of funcs and of a Set's (setFuncs), and every function a
// loaded template calls, is classified (funcClasses); the code of every
// function of funcs (and of every function of this package it calls)
// reads no package-level variable and calls no package outside a short
// list of pure ones (no clock, randomness, file or environment); and each
// gives the same result twice for generated arguments, leaving them as
// they were.
func TestFuncsReadOnlyTheirArguments(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for name := range funcs {
		names[name] = true
	}
	for name := range s.setFuncs("common", "en", template.New("x")) {
		names[name] = true
	}
	// Every function the loaded templates call (their identifiers).
	used := map[string]bool{}
	for _, tt := range s.byKey {
		for _, d := range tt.Templates() {
			if d.Tree != nil {
				identifiers(d.Tree.Root, used)
			}
		}
	}
	if len(used) < 20 {
		t.Fatalf("%d functions called by the templates: the walk finds nothing", len(used))
	}
	for name := range used {
		names[name] = true
	}
	for name := range names {
		if classOf(name) == "" {
			t.Errorf("template function %q is not classified in funcClasses: say whether it reads only its arguments", name)
		}
	}
	if keyableType(reflect.TypeOf(func() {})) || keyableType(reflect.TypeOf(struct{ F func() }{})) {
		t.Error("data holding a function is kept: call could read anything")
	}
	checkFuncsCode(t)
	checkFuncsCalls(t)
}

// branchIdentifiers adds the function names of an if, range or with.
func branchIdentifiers(b *parse.BranchNode, out map[string]bool) {
	identifiers(b.Pipe, out)
	identifiers(b.List, out)
	identifiers(b.ElseList, out)
}

// identifiers adds the function names of n's commands to out.
func identifiers(n parse.Node, out map[string]bool) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			identifiers(c, out)
		}
	case *parse.ActionNode:
		identifiers(n.Pipe, out)
	case *parse.IfNode:
		branchIdentifiers(&n.BranchNode, out)
	case *parse.RangeNode:
		branchIdentifiers(&n.BranchNode, out)
	case *parse.WithNode:
		branchIdentifiers(&n.BranchNode, out)
	case *parse.TemplateNode:
		identifiers(n.Pipe, out)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			identifiers(c, out)
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			identifiers(a, out)
		}
	case *parse.ChainNode:
		identifiers(n.Node, out)
	case *parse.IdentifierNode:
		out[n.Ident] = true
	}
}

// pureImports are the packages a function of funcs may call.
var pureImports = []string{"strings", "strconv", "utf8", "fmt", "reflect", "slices", "sort", "math", "unicode"}

// checkFuncsCode reads the package's code: the functions funcs names
// (by identifier, or written in place) and every function of the package
// they call must read no package-level variable and call only
// pureImports.
func checkFuncsCode(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	decls := map[string]*ast.FuncDecl{}
	vars := map[string]bool{}
	var funcsLit *ast.CompositeLit
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					decls[d.Name.Name] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, sp := range d.Specs {
					for i, n := range sp.(*ast.ValueSpec).Names {
						vars[n.Name] = true
						if n.Name == "funcs" {
							funcsLit, _ = sp.(*ast.ValueSpec).Values[i].(*ast.CompositeLit)
						}
					}
				}
			}
		}
	}
	if funcsLit == nil || len(funcsLit.Elts) != len(funcs) {
		t.Fatalf("the funcs map not found in the code")
	}
	// The bodies to read: the functions funcs holds, and those they call.
	var todo []ast.Node
	done := map[string]bool{}
	for _, el := range funcsLit.Elts {
		todo = append(todo, el.(*ast.KeyValueExpr).Value)
	}
	for len(todo) > 0 {
		n := todo[0]
		todo = todo[1:]
		locals := map[string]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							locals[id.Name] = true
						}
					}
				}
			case *ast.Field:
				for _, id := range n.Names {
					locals[id.Name] = true
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					locals[id.Name] = true
				}
			case *ast.SelectorExpr:
				if pkg, ok := n.X.(*ast.Ident); ok && !locals[pkg.Name] && !vars[pkg.Name] && decls[pkg.Name] == nil {
					if !slices.Contains(pureImports, pkg.Name) {
						t.Errorf("%s: a template function calls %s.%s (not a pure package: classify it, or read only the arguments)",
							fset.Position(n.Pos()), pkg.Name, n.Sel.Name)
					}
				}
			case *ast.Ident:
				if locals[n.Name] {
					return true
				}
				if vars[n.Name] {
					t.Errorf("%s: a template function reads the package variable %s", fset.Position(n.Pos()), n.Name)
				}
				if d := decls[n.Name]; d != nil && !done[n.Name] {
					done[n.Name] = true
					todo = append(todo, d)
				}
			}
			return true
		})
	}
	if len(done) < 10 {
		t.Fatalf("%d functions read: the reading finds nothing", len(done))
	}
}

// checkFuncsCalls calls every function of funcs twice with the same
// generated arguments: the same result (or the same panic), the
// arguments as they were.
func checkFuncsCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	strs := []string{"", "a", "Ab c", "été", "x\ny  z", "  lead", "MH1", "12", "日本語", "a b c d e f g h i j k l m n o p"}
	gen := func(ty reflect.Type) reflect.Value {
		switch ty.Kind() {
		case reflect.String:
			return reflect.ValueOf(strs[rng.IntN(len(strs))]).Convert(ty)
		case reflect.Int:
			return reflect.ValueOf(rng.IntN(12))
		case reflect.Bool:
			return reflect.ValueOf(rng.IntN(2) == 1)
		case reflect.Slice:
			if ty.Elem().Kind() == reflect.String {
				return reflect.ValueOf([]string{strs[rng.IntN(len(strs))], "a", strs[rng.IntN(len(strs))]}).Convert(ty)
			}
		case reflect.Map:
			if ty.Key().Kind() == reflect.String && ty.Elem().Kind() == reflect.String {
				return reflect.ValueOf(map[string]string{strs[rng.IntN(len(strs))]: strs[rng.IntN(len(strs))], "a": "b"}).Convert(ty)
			}
		}
		var v any
		switch rng.IntN(7) {
		case 0:
			v = strs[rng.IntN(len(strs))]
		case 1:
			v = rng.IntN(12)
		case 2:
			v = []string{strs[rng.IntN(len(strs))], strs[rng.IntN(len(strs))]}
		case 3:
			v = map[string]any{strs[rng.IntN(len(strs))]: rng.IntN(3), "a": "b"}
		case 4:
			v = nil
		case 5:
			v = float64(rng.IntN(100)) / 4
		case 6:
			v = []any{"a", 1, true}
		}
		if v == nil {
			return reflect.Zero(ty)
		}
		return reflect.ValueOf(v)
	}
	call := func(f reflect.Value, args []reflect.Value) (out string) {
		defer func() {
			if r := recover(); r != nil {
				out = fmt.Sprintf("panic %v", r)
			}
		}()
		var b strings.Builder
		for _, r := range f.Call(args) {
			fmt.Fprintf(&b, "%#v;", r.Interface())
		}
		return b.String()
	}
	names := make([]string, 0, len(funcs))
	for name := range funcs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f := reflect.ValueOf(funcs[name])
		ft := f.Type()
		for range 200 {
			var args []reflect.Value
			n := ft.NumIn()
			if ft.IsVariadic() {
				n--
			}
			for i := range n {
				args = append(args, gen(ft.In(i)))
			}
			if ft.IsVariadic() {
				for k := range rng.IntN(5) {
					if name == "dict" && k%2 == 0 {
						args = append(args, reflect.ValueOf(any(strs[rng.IntN(len(strs))])))
						continue
					}
					args = append(args, gen(ft.In(n).Elem()))
				}
			}
			before := fmt.Sprintf("%#v", valuesOf(args))
			first, second := call(f, args), call(f, args)
			if first != second {
				t.Errorf("%s%s: %s, then %s", name, before, first, second)
			}
			if after := fmt.Sprintf("%#v", valuesOf(args)); after != before {
				t.Errorf("%s changed its arguments: %s -> %s", name, before, after)
			}
		}
	}
}

func valuesOf(vs []reflect.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.Interface()
	}
	return out
}
