package bymail

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"text/template/parse"

	"github.com/pbem-referee/referee/templates"
)

// mailTemplates are the templates an entrant's tournament mail renders
// with a mailData in lang's tournament.tmpl: subject, every mail.<kind>,
// and the templates they call with their context ({{template "rules" .}}),
// by name, parsed (function names unchecked: the parse alone).
func mailTemplates(t *testing.T, lang string) map[string]*parse.Tree {
	t.Helper()
	raw, err := os.ReadFile("../../../templates/tournament/" + lang + "/tournament.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	trees := map[string]*parse.Tree{}
	tr := parse.New(lang)
	tr.Mode = parse.SkipFuncCheck | parse.ParseComments
	if _, err := tr.Parse(string(raw), "{{", "}}", trees); err != nil {
		t.Fatal(err)
	}
	out := map[string]*parse.Tree{}
	var reach func(name string)
	reach = func(name string) {
		if out[name] != nil {
			return
		}
		tree := trees[name]
		if tree == nil {
			t.Fatalf("%s: template %q is not defined", lang, name)
		}
		out[name] = tree
		walkNodes(tree.Root, func(n parse.Node) {
			if tn, ok := n.(*parse.TemplateNode); ok && tn.Pipe != nil && passesContext(tn.Pipe) {
				reach(tn.Name)
			}
		})
	}
	for name := range trees {
		if name == "subject" || strings.HasPrefix(name, "mail.") {
			reach(name)
		}
	}
	return out
}

// passesContext: the pipeline is the template's context itself (. or $).
func passesContext(p *parse.PipeNode) bool {
	if len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return false
	}
	switch a := p.Cmds[0].Args[0].(type) {
	case *parse.DotNode:
		return true
	case *parse.VariableNode:
		return len(a.Ident) == 1 && a.Ident[0] == "$"
	}
	return false
}

// walkNodes calls fn on every node under n, the arguments of every
// command included.
func walkNodes(n parse.Node, fn func(parse.Node)) {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return
	}
	fn(n)
	switch x := n.(type) {
	case *parse.ListNode:
		for _, c := range x.Nodes {
			walkNodes(c, fn)
		}
	case *parse.ActionNode:
		walkNodes(x.Pipe, fn)
	case *parse.PipeNode:
		for _, d := range x.Decl {
			walkNodes(d, fn)
		}
		for _, c := range x.Cmds {
			walkNodes(c, fn)
		}
	case *parse.CommandNode:
		for _, a := range x.Args {
			walkNodes(a, fn)
		}
	case *parse.ChainNode:
		walkNodes(x.Node, fn)
	case *parse.IfNode:
		walkBranch(&x.BranchNode, fn)
	case *parse.RangeNode:
		walkBranch(&x.BranchNode, fn)
	case *parse.WithNode:
		walkBranch(&x.BranchNode, fn)
	case *parse.TemplateNode:
		walkNodes(x.Pipe, fn)
	}
}

func walkBranch(b *parse.BranchNode, fn func(parse.Node)) {
	walkNodes(b.Pipe, fn)
	walkNodes(b.List, fn)
	walkNodes(b.ElseList, fn)
}

// dataField is the field node n reads of the context's Data: .Data.F or
// $.Data.F ("": .Data whole; isData false: n reads no Data).
func dataField(n parse.Node) (f string, isData bool) {
	var ident []string
	switch x := n.(type) {
	case *parse.FieldNode:
		ident = x.Ident
	case *parse.VariableNode:
		if len(x.Ident) == 0 || x.Ident[0] != "$" {
			return "", false
		}
		ident = x.Ident[1:]
	default:
		return "", false
	}
	if len(ident) == 0 || ident[0] != "Data" {
		return "", false
	}
	if len(ident) == 1 {
		return "", true
	}
	return ident[1], true
}

// TestMailTemplatesReadMailData_Issue24: every field the templates of an
// entrant's tournament mail read of their data (.Data.F, $.Data.F: in
// subject, each mail.<kind> and every template they call with their
// context), in every language and every branch (a branch the mails of
// the other tests never take included), is an exported field of
// mailData, and none reads .Data whole (issue 24: the data is typed; a
// misspelt or lower-case key fails here, not only when a mail takes its
// branch).
func TestMailTemplatesReadMailData_Issue24(t *testing.T) {
	typ := reflect.TypeFor[mailData]()
	for _, lang := range templates.Languages {
		trees := mailTemplates(t, lang)
		if trees["rules"] == nil || trees["commands"] == nil || trees["mail.round"] == nil {
			t.Fatalf("%s: the mails' templates not found (%d)", lang, len(trees))
		}
		reads := 0
		for name, tree := range trees {
			walkNodes(tree.Root, func(n parse.Node) {
				f, ok := dataField(n)
				if !ok {
					return
				}
				reads++
				sf, found := typ.FieldByName(f)
				switch {
				case f == "":
					t.Errorf("%s %s: %s reads the data whole, not a field of mailData", lang, name, n)
				case !found || !sf.IsExported():
					t.Errorf("%s %s: %s reads %q, not a field of mailData", lang, name, n, f)
				}
			})
		}
		if reads < 40 {
			t.Errorf("%s: %d reads of the data found: the walk misses them", lang, reads)
		}
	}
}
