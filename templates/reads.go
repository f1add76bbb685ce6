package templates

import (
	"text/template"
	"text/template/parse"
)

// What an option template reads (issue 25: the menu of a prompt renders
// one template per option, most of a move's rendering). A menu line that
// reads only its option and the decision's kind reads the same in every
// mail that offers the option: the caller may keep it (tell's menu
// lines). OptionOnly says so, from the template's parse tree, at load:
// nothing is taken on trust from the template's author.
//
// The rule, checked over the template and every template it calls: every
// value that is written, tested, ranged over or given to a function comes
// only from literals, the option (.Data.Option and its fields), the
// decision's kind (.Data.Decision.Kind), the reader's language and game
// (.Lang, .Game, and the keyword methods .KwLine, .Kw, .Ar, .KwText,
// .KwUsage) and values made of those. The context itself ($ or the dot of
// the template) may go only to a {{template}}, which is checked the same
// way; a function never gets it (call is refused, and so is any other
// field: the view, the option's number, the seats).

// OptionOnly reports whether t's text is a function of the option, the
// decision's kind, the language and the game only (the rule above).
func (t *Tmpl) OptionOnly() bool {
	if t == nil {
		return false
	}
	return t.optionOnly
}

// valKind is what a value of a template is, for the check: the context
// (restricted uses) or a value made of allowed things only (any use).
type valKind int

const (
	kindSafe valKind = iota + 1
	kindCtx
)

// ctxPaths are the fields and methods of the context (Ctx) whose value is
// allowed; a path that starts with one of these (Data.Option.Cmd) is.
var ctxPaths = [][]string{
	{"Lang"}, {"Game"}, {"KwLine"}, {"Kw"}, {"Ar"}, {"KwText"}, {"KwUsage"},
	{"Data", "Option"}, {"Data", "Decision", "Kind"},
}

// readCheck is one run of the check over a template and its callees.
type readCheck struct {
	set *template.Template
	// done holds the templates checked or being checked, by the kind of
	// their dot (a template calling itself is checked once).
	done map[readKey]bool
}

type readKey struct {
	name string
	dot  valKind
}

// optionOnly runs the check on t, a template of set, with the context as
// its dot.
func optionOnly(set, t *template.Template) bool {
	c := &readCheck{set: set, done: map[readKey]bool{}}
	return c.template(t.Name(), kindCtx)
}

func (c *readCheck) template(name string, dot valKind) bool {
	k := readKey{name, dot}
	if c.done[k] {
		return true
	}
	c.done[k] = true
	t := c.set.Lookup(name)
	if t == nil || t.Tree == nil {
		return false
	}
	e := &readEnv{c: c, dot: dot, root: dot, vars: map[string]valKind{}}
	// Twice: a variable that becomes the context later in a range was
	// the context at the top of the next round too.
	for range 2 {
		if !e.node(t.Tree.Root) {
			return false
		}
	}
	return true
}

// readEnv is the check inside one template: its dot, its $ and its
// variables (one scope: a variable that is the context anywhere counts as
// the context everywhere).
type readEnv struct {
	c         *readCheck
	dot, root valKind
	vars      map[string]valKind
}

// scoped: a with or a range over a pipe that reads only what is allowed
// runs its body with dot set to that value (itself allowed) and its else
// branch with dot unchanged.
func (e *readEnv) scoped(n *parse.BranchNode) bool {
	k, ok := e.pipe(n.Pipe)
	if !ok || k != kindSafe || !e.node(n.ElseList) {
		return false
	}
	in := *e
	in.dot = kindSafe
	return in.node(n.List)
}

func (e *readEnv) node(n parse.Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *parse.ListNode:
		if n == nil {
			return true
		}
		for _, x := range n.Nodes {
			if !e.node(x) {
				return false
			}
		}
		return true
	case *parse.TextNode, *parse.CommentNode, *parse.BreakNode, *parse.ContinueNode:
		return true
	case *parse.ActionNode:
		k, ok := e.pipe(n.Pipe)
		// Written out, a value must be allowed; assigned, it may be the
		// context (its uses are checked).
		return ok && (k == kindSafe || len(n.Pipe.Decl) > 0)
	case *parse.IfNode:
		k, ok := e.pipe(n.Pipe)
		return ok && k == kindSafe && e.node(n.List) && e.node(n.ElseList)
	case *parse.WithNode:
		return e.scoped(&n.BranchNode)
	case *parse.RangeNode:
		return e.scoped(&n.BranchNode)
	case *parse.TemplateNode:
		dot := kindSafe
		if n.Pipe != nil {
			k, ok := e.pipe(n.Pipe)
			if !ok {
				return false
			}
			dot = k
		}
		return e.c.template(n.Name, dot)
	}
	return false
}

// pipe checks a pipeline and returns the kind of its value; its declared
// variables take that kind.
func (e *readEnv) pipe(p *parse.PipeNode) (valKind, bool) {
	if p == nil {
		return kindSafe, true
	}
	k := kindSafe
	for i, cmd := range p.Cmds {
		// A command after '|' gets the value before it as an argument.
		if i > 0 && k != kindSafe {
			return 0, false
		}
		var ok bool
		if k, ok = e.command(cmd); !ok {
			return 0, false
		}
	}
	for _, v := range p.Decl {
		if len(v.Ident) != 1 {
			return 0, false
		}
		if e.vars[v.Ident[0]] != kindCtx {
			e.vars[v.Ident[0]] = k
		}
	}
	return k, true
}

// command checks one command: an operand alone, or a function or method
// with its arguments.
func (e *readEnv) command(c *parse.CommandNode) (valKind, bool) {
	if len(c.Args) == 1 {
		return e.value(c.Args[0])
	}
	switch f := c.Args[0].(type) {
	case *parse.IdentifierNode:
		if f.Ident == "call" {
			return 0, false
		}
	case *parse.FieldNode, *parse.VariableNode, *parse.ChainNode:
		// A method of an allowed value (the keyword methods of the
		// context).
		if k, ok := e.value(f); !ok || k != kindSafe {
			return 0, false
		}
	default:
		return 0, false
	}
	for _, a := range c.Args[1:] {
		if k, ok := e.value(a); !ok || k != kindSafe {
			return 0, false
		}
	}
	return kindSafe, true
}

// value checks an operand and returns its kind.
func (e *readEnv) value(n parse.Node) (valKind, bool) {
	switch n := n.(type) {
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode, *parse.NilNode, *parse.IdentifierNode:
		return kindSafe, true
	case *parse.DotNode:
		return e.dot, true
	case *parse.FieldNode:
		return e.chain(e.dot, n.Ident)
	case *parse.VariableNode:
		base := e.root
		if n.Ident[0] != "$" {
			k, ok := e.vars[n.Ident[0]]
			if !ok {
				return 0, false
			}
			base = k
		}
		return e.chain(base, n.Ident[1:])
	case *parse.ChainNode:
		base, ok := e.value(n.Node)
		if !ok {
			return 0, false
		}
		return e.chain(base, n.Field)
	case *parse.PipeNode:
		return e.pipe(n)
	}
	return 0, false
}

// chain is the kind of the fields path of a value of kind base.
func (e *readEnv) chain(base valKind, path []string) (valKind, bool) {
	if len(path) == 0 || base == kindSafe {
		return base, base != 0
	}
	for _, p := range ctxPaths {
		if len(path) >= len(p) && equalPrefix(path, p) {
			return kindSafe, true
		}
	}
	return 0, false
}

func equalPrefix(path, p []string) bool {
	for i := range p {
		if path[i] != p[i] {
			return false
		}
	}
	return true
}
