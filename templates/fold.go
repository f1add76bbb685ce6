package templates

import (
	"strconv"
	"text/template"
	"text/template/parse"
)

// Constant tables folded at load (issue 25: rendering is most of a move's
// CPU). A template that names words by a code writes the table in place:
//
//	{{index (dict "MH1" "a seed -> a Y die" "MH2" "a Y die -> a K die" ...) $s}}
//
// text/template evaluates such a call at every execution: each literal
// boxed, the variadic slice made, the map built, for a table that never
// changes. foldConstants builds each table once, when the templates are
// loaded, and has the call return it: the same map, so the same text. A
// dict call is folded when every argument is a string literal; the map is
// shared by every execution, which only read it (no template function
// changes a map).

// constPrefix starts the names of the functions that return the folded
// tables: a name no template writes.
const constPrefix = "foldedDict_"

// foldConstants folds the constant dict calls of every template of s and
// gives every template set the functions that return them. It runs once,
// at load, before anything executes.
func (s *Set) foldConstants() {
	f := &folder{funcs: template.FuncMap{}}
	s.eachTree(func(tr *parse.Tree) { f.node(tr, tr.Root) })
	if len(f.funcs) == 0 {
		return
	}
	for _, t := range s.byKey {
		t.Funcs(f.funcs)
	}
	s.folded = len(f.funcs)
}

// eachTree calls fn once for every parse tree of s's templates (the
// common templates' trees are shared by every scope of their language:
// each is visited once).
func (s *Set) eachTree(fn func(*parse.Tree)) {
	seen := map[*parse.Tree]bool{}
	for _, t := range s.byKey {
		for _, d := range t.Templates() {
			if d.Tree == nil || seen[d.Tree] {
				continue
			}
			seen[d.Tree] = true
			fn(d.Tree)
		}
	}
}

// folder walks parse trees and folds their constant dict calls.
type folder struct {
	funcs template.FuncMap
}

func (f *folder) node(tr *parse.Tree, n parse.Node) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			f.node(tr, c)
		}
	case *parse.ActionNode:
		f.pipe(tr, n.Pipe)
	case *parse.IfNode:
		f.branch(tr, &n.BranchNode)
	case *parse.RangeNode:
		f.branch(tr, &n.BranchNode)
	case *parse.WithNode:
		f.branch(tr, &n.BranchNode)
	case *parse.TemplateNode:
		f.pipe(tr, n.Pipe)
	case *parse.PipeNode:
		f.pipe(tr, n)
	case *parse.ChainNode:
		f.node(tr, n.Node)
	}
}

func (f *folder) branch(tr *parse.Tree, b *parse.BranchNode) {
	f.pipe(tr, b.Pipe)
	f.node(tr, b.List)
	f.node(tr, b.ElseList)
}

func (f *folder) pipe(tr *parse.Tree, p *parse.PipeNode) {
	if p == nil {
		return
	}
	for i, c := range p.Cmds {
		// A command after a '|' gets the value before it as its last
		// argument: only the first command of a pipeline is folded.
		f.command(tr, c, i == 0)
	}
}

func (f *folder) command(tr *parse.Tree, c *parse.CommandNode, first bool) {
	for _, a := range c.Args {
		f.node(tr, a)
	}
	id, ok := c.Args[0].(*parse.IdentifierNode)
	if !ok || !first || id.Ident != "dict" || len(c.Args) < 3 || (len(c.Args)-1)%2 != 0 {
		return
	}
	m := make(map[string]any, (len(c.Args)-1)/2)
	for i := 1; i < len(c.Args); i += 2 {
		k, ok1 := c.Args[i].(*parse.StringNode)
		v, ok2 := c.Args[i+1].(*parse.StringNode)
		if !ok1 || !ok2 {
			return
		}
		m[k.Text] = v.Text
	}
	name := constPrefix + strconv.Itoa(len(f.funcs))
	f.funcs[name] = func() map[string]any { return m }
	c.Args = []parse.Node{parse.NewIdentifier(name).SetTree(tr).SetPos(id.Pos)}
}
