package templates

import (
	"slices"
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
//
// One read of the view is allowed (issue 25: Dice Brewing's lines say
// what an option helps brew, from the view): {{index $.Data.View.F
// $o.Cmd}}, a field F of the view indexed by the option's command, given
// straight to index (never kept in a variable, ranged over or passed on),
// with the command read as .Cmd of the context's option itself (a
// variable holding it counts only if it is never given anything else).
// Such a template is OptionKeyed by its fields F: its text is a function
// of the option, the kind, the language, the game and the values
// View.F[Option.Cmd], which AppendViewKey reads for the caller's key.
//
// The same read indexed by the option's group is allowed too (issue 25:
// a menu group's heading reads what the view says of the group):
// {{index $.Data.View.F .Data.Option.Group}}, under the same conditions,
// the group read as .Group of the context's option. And the check says
// whether the text may depend on the option's command at all (Reads.Cmd:
// the command, or the whole option, is read anywhere): a heading that
// reads only the group is the same for every option of the group, in
// every mail, and its key leaves the command out.
//
// The params are read by name when every read of them is {{index P
// "name"}} with a name written in the template, or P.name, where P is the
// option's Params (through variables and the templates called with the
// context): the text is then a function of those params only
// (Reads.ParamKeys), whatever the others are. Any other use of P (written,
// ranged over, tested, given to a function or a template, a variable
// given it and something else) or such a use of the whole option reads
// them whole; a variable or a template's dot holding the option is
// followed (Dice Brewing's db.option reads $o.Params of $o :=
// .Data.Option).

// Reads is what an OptionKeyed template reads besides the option's group
// and params, the decision's kind, the language and the game.
type Reads struct {
	// Cmd: the option's command (or the whole option) is read.
	Cmd bool
	// Params: the option's params, another field of the option but its
	// command and group, or the whole option is read. A template that
	// reads neither params nor command (a group's heading) reads the
	// same for every option of the group (issue 25: Heaven & Ale's
	// headings of a move menu).
	Params bool
	// ParamKeys, when not nil, are the only params read (sorted): every
	// read of the params is of one param by its name, as {{index P
	// "name"}} or P.name, where P is the option's Params (issue 25:
	// Heaven & Ale's purchase headings read a tile's prices, not its
	// spot's, and were rendered once per spot). A key of the text holds
	// these params only. nil when Params is false or the params are read
	// whole (written, ranged over, tested, given to a function or a
	// template but index with a name, or the whole option so used).
	ParamKeys []string
	// ByCmd and ByGroup are the view's fields F read as View.F[the
	// option's Cmd] and View.F[the option's Group], sorted.
	ByCmd, ByGroup []string
}

// Keyed reports whether t's text is a function of the option, the
// decision's kind, the language, the game and the view's values that r
// names (the rule above).
func (t *Tmpl) Keyed() (r Reads, ok bool) {
	if t == nil || !t.optionOnly {
		return Reads{}, false
	}
	return t.reads, true
}

// OptionOnly reports whether t's text is a function of the option, the
// decision's kind, the language and the game only (the rule above).
func (t *Tmpl) OptionOnly() bool {
	if t == nil {
		return false
	}
	return t.optionOnly && len(t.reads.ByCmd) == 0 && len(t.reads.ByGroup) == 0
}

// OptionKeyed reports whether t's text is a function of the option, the
// decision's kind, the language, the game and, for each field F in
// viewByCmd (sorted), the view's F indexed by the option's command (the
// rule above); viewByCmd is empty when t is OptionOnly. A template that
// also reads the view by the option's group is not: see Keyed.
func (t *Tmpl) OptionKeyed() (viewByCmd []string, ok bool) {
	if t == nil || !t.optionOnly || len(t.reads.ByGroup) > 0 {
		return nil, false
	}
	return t.reads.ByCmd, true
}

// valKind is what a value of a template is, for the check: the context
// (restricted uses), a value made of allowed things only (any use), the
// option itself and its command (allowed, and the command may index a
// field of the view), or a field of the view (only as index's map with
// the command as key).
type valKind struct {
	tag   kindTag
	field string // kindView: the view's field
}

type kindTag int

const (
	tagSafe kindTag = iota + 1
	tagCtx
	tagOption
	tagCmd
	tagGroup
	tagView
	// tagParams is the option's params (a map) as a whole: only index
	// with a name and a field chain read it by name; any other use reads
	// it whole (readEnv.flat).
	tagParams
)

var (
	kindSafe   = valKind{tag: tagSafe}
	kindCtx    = valKind{tag: tagCtx}
	kindOption = valKind{tag: tagOption}
	kindCmd    = valKind{tag: tagCmd}
	kindGroup  = valKind{tag: tagGroup}
	kindParams = valKind{tag: tagParams}
)

// safe: a value made of allowed things only (the option and its command
// are such values).
func (k valKind) safe() bool {
	return k.tag == tagSafe || k.tag == tagOption || k.tag == tagCmd || k.tag == tagGroup
}

// joinKinds is the kind of a variable given a value of kind a and one of
// kind b: the context when either is, the same kind when both are, else
// a plain allowed value (a variable given the command and something else
// may not index the view), or nothing (a field of the view is never kept).
func joinKinds(a, b valKind) valKind {
	switch {
	case a == b:
		return a
	case a.tag == tagCtx || b.tag == tagCtx:
		return kindCtx
	case a.safe() && b.safe():
		return kindSafe
	}
	return valKind{}
}

// ctxPaths are the fields and methods of the context (Ctx) whose value is
// allowed; a path that starts with one of these (Data.Option.Cmd) is.
var ctxPaths = [][]string{
	{"Lang"}, {"Game"}, {"KwLine"}, {"Kw"}, {"Ar"}, {"KwText"}, {"KwUsage"},
	{"Data", "Option"}, {"Data", "Decision", "Kind"},
}

// readCheck is one run of the check over a template and its callees.
type readCheck struct {
	set *template.Template
	// view and group hold the fields of the view indexed by the
	// command and by the group; cmd is set when the command or the whole
	// option is read.
	view, group map[string]bool
	cmd, params bool
	// paramKeys are the params read by name; allParams is set when the
	// params are read whole.
	paramKeys map[string]bool
	allParams bool
	// done holds the templates checked or being checked, by the kind of
	// their dot (a template calling itself is checked once).
	done map[readKey]bool
}

type readKey struct {
	name string
	dot  valKind
}

// optionOnly runs the check on t, a template of set, with the context as
// its dot, and says what it reads.
func optionOnly(set, t *template.Template) (r Reads, ok bool) {
	c := &readCheck{set: set, done: map[readKey]bool{}, view: map[string]bool{}, group: map[string]bool{}, paramKeys: map[string]bool{}}
	if !c.template(t.Name(), kindCtx) {
		return Reads{}, false
	}
	r.Cmd, r.Params = c.cmd, c.params
	if c.params && !c.allParams && len(c.paramKeys) > 0 {
		r.ParamKeys = make([]string, 0, len(c.paramKeys))
		for k := range c.paramKeys {
			r.ParamKeys = append(r.ParamKeys, k)
		}
		slices.Sort(r.ParamKeys)
	}
	for f := range c.view {
		r.ByCmd = append(r.ByCmd, f)
	}
	for f := range c.group {
		r.ByGroup = append(r.ByGroup, f)
	}
	slices.Sort(r.ByCmd)
	slices.Sort(r.ByGroup)
	return r, true
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
	k = e.flat(k)
	if !ok || !k.safe() || !e.node(n.ElseList) {
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
		// context or the params (their uses are checked).
		if len(n.Pipe.Decl) == 0 {
			k = e.flat(k)
		}
		return ok && (k.safe() || (k == kindCtx || k == kindParams) && len(n.Pipe.Decl) > 0)
	case *parse.IfNode:
		k, ok := e.pipe(n.Pipe)
		k = e.flat(k)
		return ok && k.safe() && e.node(n.List) && e.node(n.ElseList)
	case *parse.WithNode:
		return e.scoped(&n.BranchNode)
	case *parse.RangeNode:
		// A range's variables hold keys and elements: allowed values,
		// never the option or its command themselves.
		for _, v := range n.Pipe.Decl {
			if len(v.Ident) == 1 {
				if old, seen := e.vars[v.Ident[0]]; seen {
					e.vars[v.Ident[0]] = joinKinds(old, kindSafe)
				} else {
					e.vars[v.Ident[0]] = kindSafe
				}
			}
		}
		return e.scoped(&n.BranchNode)
	case *parse.TemplateNode:
		dot := kindSafe
		if n.Pipe != nil {
			k, ok := e.pipe(n.Pipe)
			if !ok || k.tag == tagView {
				return false
			}
			dot = k
			if k.tag == tagParams {
				dot = e.flat(k)
			}
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
		if i > 0 {
			k = e.flat(k)
		}
		if i > 0 && !k.safe() {
			return valKind{}, false
		}
		var ok bool
		if k, ok = e.command(cmd); !ok {
			return valKind{}, false
		}
	}
	if k.tag == tagView && len(p.Decl) > 0 {
		return valKind{}, false // a field of the view is never kept
	}
	for _, v := range p.Decl {
		if len(v.Ident) != 1 {
			return valKind{}, false
		}
		old, seen := e.vars[v.Ident[0]]
		if seen && old != k && (old.tag == tagParams || k.tag == tagParams || old.tag == tagOption || k.tag == tagOption) {
			// A variable given the params and something else reads
			// them whole.
			old, k = e.flat(old), e.flat(k)
		}
		if seen {
			k2 := joinKinds(old, k)
			if k2.tag == 0 {
				return valKind{}, false
			}
			e.vars[v.Ident[0]] = k2
		} else {
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
			return valKind{}, false
		}
		if f.Ident == "index" && len(c.Args) == 3 {
			// {{index $.Data.View.F $o.Cmd}}: the key holds View.F[Cmd].
			m, ok1 := e.value(c.Args[1])
			key, ok2 := e.value(c.Args[2])
			if ok1 && ok2 && m.tag == tagView && key == kindCmd {
				e.c.view[m.field] = true
				return kindSafe, true
			}
			if ok1 && ok2 && m.tag == tagView && key == kindGroup {
				e.c.group[m.field] = true
				return kindSafe, true
			}
			// {{index P "name"}}: the params read by name.
			if name, lit := c.Args[2].(*parse.StringNode); ok1 && m == kindParams && lit {
				e.c.paramKeys[name.Text] = true
				return kindSafe, true
			}
		}
	case *parse.FieldNode, *parse.VariableNode, *parse.ChainNode:
		// A method of an allowed value (the keyword methods of the
		// context).
		if k, ok := e.value(f); !ok || !e.flat(k).safe() {
			return valKind{}, false
		}
	default:
		return valKind{}, false
	}
	for _, a := range c.Args[1:] {
		if k, ok := e.value(a); !ok || !e.flat(k).safe() {
			return valKind{}, false
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
				return valKind{}, false
			}
			base = k
		}
		return e.chain(base, n.Ident[1:])
	case *parse.ChainNode:
		base, ok := e.value(n.Node)
		if !ok {
			return valKind{}, false
		}
		return e.chain(base, n.Field)
	case *parse.PipeNode:
		return e.pipe(n)
	}
	return valKind{}, false
}

// chain is the kind of the fields path of a value of kind base; a path
// that gives the command or the whole option marks the command read, and
// one that gives the whole option or reaches a field of the option but
// its command and group (its params) marks the params read.
func (e *readEnv) chain(base valKind, path []string) (valKind, bool) {
	k, ok := e.chainKind(base, path)
	if ok && (k.tag == tagCmd || k.tag == tagOption) {
		e.c.cmd = true
	}
	if ok && (k.tag == tagOption || optionRest(base, path)) {
		e.c.params = true
	}
	return k, ok
}

// flat is k as a value used as a whole: the params so used, or the whole
// option, are read whole (Reads.ParamKeys is nil), and the value is an
// allowed one. (A variable or a template's dot holding the option is
// not such a use: the reads through it are checked.)
func (e *readEnv) flat(k valKind) valKind {
	switch k.tag {
	case tagParams:
		e.c.allParams = true
		return kindSafe
	case tagOption:
		e.c.allParams = true
	}
	return k
}

// optionRest reports whether path from a value of kind base reaches a
// field of the option other than its command and group.
func optionRest(base valKind, path []string) bool {
	switch {
	case base.tag == tagOption && len(path) > 0:
		return path[0] != "Cmd" && path[0] != "Group"
	case base.tag == tagCtx && len(path) > 2 && path[0] == "Data" && path[1] == "Option":
		return path[2] != "Cmd" && path[2] != "Group"
	}
	return false
}

func (e *readEnv) chainKind(base valKind, path []string) (valKind, bool) {
	switch {
	case len(path) == 0:
		return base, base.tag != 0
	case base.tag == tagOption:
		switch {
		case len(path) == 1 && path[0] == "Cmd":
			return kindCmd, true
		case len(path) == 1 && path[0] == "Group":
			return kindGroup, true
		case path[0] == "Params":
			return e.chainKind(kindParams, path[1:])
		}
		return kindSafe, true
	case base.tag == tagParams:
		// P.name: the param of that name.
		e.c.paramKeys[path[0]] = true
		return kindSafe, true
	case base.tag == tagCmd, base.tag == tagGroup, base.tag == tagSafe:
		return kindSafe, true
	case base.tag != tagCtx:
		return valKind{}, false
	}
	switch {
	case len(path) == 2 && path[0] == "Data" && path[1] == "Option":
		return kindOption, true
	case len(path) == 3 && path[0] == "Data" && path[1] == "Option" && path[2] == "Cmd":
		return kindCmd, true
	case len(path) == 3 && path[0] == "Data" && path[1] == "Option" && path[2] == "Group":
		return kindGroup, true
	case len(path) >= 3 && path[0] == "Data" && path[1] == "Option" && path[2] == "Params":
		return e.chainKind(kindParams, path[3:])
	case len(path) == 3 && path[0] == "Data" && path[1] == "View":
		return valKind{tag: tagView, field: path[2]}, true
	}
	for _, p := range ctxPaths {
		if len(path) >= len(p) && equalPrefix(path, p) {
			return kindSafe, true
		}
	}
	return valKind{}, false
}

func equalPrefix(path, p []string) bool {
	for i := range p {
		if path[i] != p[i] {
			return false
		}
	}
	return true
}
