package tell

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// Renderer turns the engine's structured data (views, prompts, events, rule
// errors) into the words of templates/, in the reader's language. When a game
// has no template for something, it falls back to a plain, complete rendering
// of the data, so nothing is ever hidden from a player by a missing template.
type Renderer struct {
	T *templates.Set
	// everyGroup renders option.group for every option of a menu and
	// every menu line afresh, as before the heads were shared (groupHeads)
	// and the lines kept (menuLines): the tests' reference.
	everyGroup bool
	lines      menuLines
	words      wordFuncs
}

// NewRenderer loads the embedded templates.
func NewRenderer() (*Renderer, error) {
	t, err := templates.Load()
	if err != nil {
		return nil, err
	}
	return &Renderer{T: t}, nil
}

// Reader is who a rendering is for.
type Reader struct {
	Game string // game (template scope)
	Lang string // language
	Seat int    // the reader's seat, -1 for observers
	// Seats are the names of the players holding the seats now, by seat
	// (who must act, whose row a summary shows: Holding); Before their
	// earlier holders by seat (nil: no seat changed hands), so that an
	// event line names who held the seat at its move (issue 24).
	Seats  []string
	Before [][]Holder
	// Names are the seats' names in the game (the engine's, the first
	// holders': Seat.Name), by seat, so that a menu line and an echoed
	// command name each seat as its holder now (Reader.Command); nil
	// shows commands as the game writes them.
	Names []string
	// Compact: the summary without what rarely changes (see
	// templates.Ctx.Compact).
	Compact bool
}

// Ctx is the template context of a rendering for rd: the reader's language
// (English when it is not one of templates.Languages) and its words.
func (r *Renderer) Ctx(rd Reader, data any) templates.Ctx {
	lang := rd.Lang
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	c := templates.Ctx{Lang: lang, Game: rd.Game, Seat: rd.Seat, Seats: rd.Seats, Data: data, Compact: rd.Compact}
	if r != nil && r.T != nil {
		c.Word, c.Arg = r.words.of(r.T, rd.Game, lang)
	}
	return c
}

// Lookup renders template name of the reader's game in the reader's
// language; ok is false when there is no such template.
func (r *Renderer) Lookup(rd Reader, name string, data any) (s string, ok bool, err error) {
	if r == nil || r.T == nil || !r.T.Has(rd.Game, rd.Lang, name) {
		return "", false, nil
	}
	s, err = r.T.Render(rd.Game, rd.Lang, name, r.Ctx(rd, data))
	return s, true, err
}

// find is template name of the reader's game in the reader's language,
// found once to render many times; nil when there is none.
func (r *Renderer) find(rd Reader, name string) *templates.Tmpl {
	if r == nil || r.T == nil {
		return nil
	}
	return r.T.Find(rd.Game, rd.Lang, name)
}

// groupTemplate is the heading template of a menu of decisions of kind:
// option.group.<kind> when the game defines it (a heading that reads
// less than the other kinds' may then be shared by group and kept:
// Heaven & Ale's move menu, issue 25), else option.group.
func (r *Renderer) groupTemplate(rd Reader, kind string) *templates.Tmpl {
	if t := r.find(rd, "option.group."+kind); t != nil {
		return t
	}
	return r.find(rd, "option.group")
}

// optionLine is a menu line: the option's number right-aligned in two
// columns, ") " and the option ("%2d) %s").
func optionLine(n int, line string) string {
	num := strconv.Itoa(n)
	if len(num) < 2 {
		num = " " + num
	}
	return num + ") " + line
}

// groupHeads are the option.group texts a menu has rendered, by the
// option's group and params: the heading of a group is rendered once per
// menu, not once per option (issue 25). option.group is a function of the
// option's Group and Params, the decision and the view, never of the
// option's number or command (templates.OptionData): the options of one
// menu share the decision and the view, so two options with the same
// group and params get the same text. Params are compared when they hold
// strings, numbers and booleans only; an option with other params is
// rendered on its own, unless the template reads neither the params nor
// the command (templates.Reads, checked on its parse tree: Heaven &
// Ale's option.group.move), when the group alone decides. A template
// that reads its params by name (templates.Reads.ParamKeys) is compared
// by those params only (Heaven & Ale's purchase headings read the
// tile's prices, not the spot's: rendered once a tile, issue 25).
type groupHeads struct {
	done []groupHead
}

type groupHead struct {
	group  string
	params map[string]any
	text   string
}

// render is option.group's text for od, shared or made by fresh (which
// renders t, or finds it kept from an earlier mail: menuLines).
func (h *groupHeads) render(t *templates.Tmpl, kc templates.Ctx, od templates.OptionData, every bool, fresh func() (string, error)) (string, error) {
	reads, keyed := t.Keyed()
	byGroup := keyed && !reads.Params && !reads.Cmd
	shared := !every && (byGroup || scalarParams(od.Option.Params, reads.ParamKeys))
	if shared {
		for _, d := range h.done {
			if d.group == od.Option.Group && (byGroup || sameParams(d.params, od.Option.Params, reads.ParamKeys)) {
				return d.text, nil
			}
		}
	}
	if fresh == nil {
		fresh = func() (string, error) { return t.Render(kc.With(od)) }
	}
	s, err := fresh()
	if err == nil && shared {
		h.done = append(h.done, groupHead{group: od.Option.Group, params: od.Option.Params, text: s})
	}
	return s, err
}

// scalarParams reports whether every value of m is a string, a number, a
// boolean or nil; of the keys only, when not nil.
func scalarParams(m map[string]any, keys []string) bool {
	for k, v := range m {
		if keys != nil && !slices.Contains(keys, k) {
			continue
		}
		switch v.(type) {
		case nil, string, bool, int, int64, float64:
		default:
			return false
		}
	}
	return true
}

// sameParams reports whether two maps of scalarParams hold the same keys
// and values (of the same types); of the keys only, when not nil (a key
// in neither is the same).
func sameParams(a, b map[string]any, keys []string) bool {
	if keys != nil {
		for _, k := range keys {
			va, ina := a[k]
			vb, inb := b[k]
			if ina != inb || va != vb {
				return false
			}
		}
		return true
	}
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || va != vb {
			return false
		}
	}
	return true
}

// Summary renders a seat's view.
func (r *Renderer) Summary(rd Reader, view any) (string, error) {
	if s, ok, err := r.Lookup(rd, "summary", view); ok {
		return templates.Fold(s), err
	}
	b, err := json.MarshalIndent(view, "", "  ")
	return string(b), err
}

// Prompt renders the question a seat is asked, followed by its numbered
// options (one line each, through option.<kind> when the game defines it).
func (r *Renderer) Prompt(rd Reader, p *engine.Prompt, view any) (string, error) {
	text, _, err := r.PromptMenu(rd, p, view)
	return text, err
}

// PromptMenu is Prompt and, for a numbered prompt, each option's words as
// its menu line shows them (the line without its number: the command as
// the reader writes it and what the game says of it; the spaces of the
// menu's columns closed up), option n at n-1: the JSON part's
// option_names.
func (r *Renderer) PromptMenu(rd Reader, p *engine.Prompt, view any) (string, []string, error) {
	var b strings.Builder
	var names []string
	data := templates.PromptData{Prompt: *p, View: view}
	if s, ok, err := r.Lookup(rd, "prompt."+p.Decision.Kind, data); ok {
		if err != nil {
			return "", nil, err
		}
		b.WriteString(s)
	} else {
		fmt.Fprintf(&b, "%s: %s", rd.name(p.Decision.Seat), p.Decision.Kind)
		if len(p.Decision.Params) > 0 {
			fmt.Fprintf(&b, " %s", compact(p.Decision.Params))
		}
	}
	if p.Numbered {
		b.WriteString("\n")
		lines := make([]string, len(p.Options))
		names = make([]string, len(p.Options))
		widest := 0
		// The context, the two templates and the names are found once
		// per menu, not once per option (issue 25: the menu was most of
		// a move's rendering).
		kc := r.Ctx(rd, nil)
		optT, groupT := r.find(rd, "option."+p.Decision.Kind), r.groupTemplate(rd, p.Decision.Kind)
		var heads groupHeads
		type group struct {
			rank  int
			head  string
			cols  bool // short lines side by side (a third field "columns")
			lines []string
		}
		var groups []*group
		byHead := map[string]*group{}
		for i, o := range p.Options {
			od := templates.OptionData{N: i + 1, Option: o, Decision: p.Decision, View: view}
			var line string
			if optT != nil {
				s, err := r.lines.render(optT, kc, rd, od, r.everyGroup)
				if err != nil {
					return "", nil, err
				}
				line = s
				if said := rd.Command(o.Cmd); said != o.Cmd {
					line = sayCommand(line, kc.KwLine(o.Cmd), kc.KwLine(said))
				}
			} else {
				// The command as the reader writes it (issue 12.7): FABRIQUER
				// D2 for a French reader; English is accepted too.
				line = kc.KwLine(rd.Command(o.Cmd))
			}
			names[i] = oneSpaced(line)
			lines[i] = optionLine(i+1, line)
			widest = max(widest, utf8.RuneCountInString(lines[i]))
			if groupT != nil {
				// A heading is shared within the menu by its group and
				// params, and kept from one mail to the next when its
				// template allows (menuLines: Dice Brewing's headings read
				// the view by the option's group only, issue 25).
				s, err := heads.render(groupT, kc, od, r.everyGroup, func() (string, error) {
					return r.lines.render(groupT, kc, rd, od, r.everyGroup)
				})
				if err != nil {
					return "", nil, err
				}
				rk, head, _ := strings.Cut(s, "\t")
				head, layout, _ := strings.Cut(head, "\t")
				g := byHead[head]
				if g == nil {
					n, _ := strconv.Atoi(strings.TrimSpace(rk))
					g = &group{rank: n, head: head, cols: layout == "columns"}
					byHead[head] = g
					groups = append(groups, g)
				}
				g.lines = append(g.lines, lines[i])
			}
		}
		switch {
		case len(groups) > 0:
			// A menu in words (issue 22): by kind of action, the best
			// known first, every option on its own line, never cut.
			sort.SliceStable(groups, func(i, j int) bool { return groups[i].rank < groups[j].rank })
			for _, g := range groups {
				if g.head != "" {
					b.WriteString("\n" + g.head)
				}
				if g.cols {
					writeColumns(&b, g.lines)
					continue
				}
				for _, l := range g.lines {
					b.WriteString("\n  ")
					b.WriteString(l)
				}
			}
			// The legend reads the decision's kind only, in every game
			// today: kept as a menu line (menuLines).
			if legendT := r.find(rd, "option.legend"); legendT != nil {
				s, err := r.lines.render(legendT, kc, rd, templates.OptionData{Decision: p.Decision, View: view}, r.everyGroup)
				if err != nil {
					return "", nil, err
				}
				if s = strings.TrimSpace(s); s != "" {
					b.WriteString("\n" + s)
				}
			}
		case len(lines) > 8 && widest <= optionColumn-2:
			// Many short options go in two columns, numbered down the first
			// column then the second, so that the menu stays on one screen.
			half := (len(lines) + 1) / 2
			for i := 0; i < half; i++ {
				b.WriteString("\n  ")
				if i+half < len(lines) {
					b.WriteString(lines[i])
					writePad(&b, lines[i], optionColumn)
					b.WriteString(lines[i+half])
				} else {
					b.WriteString(lines[i])
				}
			}
		default:
			for _, l := range lines {
				b.WriteString("\n  ")
				b.WriteString(l)
			}
		}
	}
	// Every line fits (issue 12.4): a line the game's template could not
	// lay out (a market with many prices) wraps with a hanging indent.
	return templates.Fold(b.String()), names, nil
}

// sayCommand is a menu line rendered with the game's command was, with
// the command as the reader copies it instead (Reader.Command, issue 24:
// a seat written by number after a hand-over), a comment after the
// command still in its column.
func sayCommand(line, was, said string) string {
	rest, ok := strings.CutPrefix(line, was)
	if !ok {
		return strings.Replace(line, was, said, 1)
	}
	pad := len(rest) - len(strings.TrimLeft(rest, " "))
	if pad > 0 && pad < len(rest) {
		pad = max(1, pad+utf8.RuneCountInString(was)-utf8.RuneCountInString(said))
		rest = strings.Repeat(" ", pad) + strings.TrimLeft(rest, " ")
	}
	return said + rest
}

// writeColumns lays a group's short option lines side by side, as many
// as fit in templates.Width, row by row (issue 22: a grouped menu of a
// hundred options stays a screen or two long).
func writeColumns(b *strings.Builder, lines []string) {
	w := 0
	for _, l := range lines {
		w = max(w, utf8.RuneCountInString(l))
	}
	per := max(1, (templates.Width-2+2)/(w+2))
	for i, l := range lines {
		switch {
		case i%per == 0:
			b.WriteString("\n  ")
		default:
			b.WriteString("  ")
		}
		if i%per < per-1 && i < len(lines)-1 {
			l = padRunes(l, w)
		}
		b.WriteString(l)
	}
}

// optionColumn is the width of the first column of a two-column menu.
const optionColumn = 38

func padRunes(s string, n int) string {
	if k := padCount(s, n); k > 0 {
		return s + strings.Repeat(" ", k)
	}
	return s
}

// padCount is how many spaces pad s to n runes (padRunes, writePad).
func padCount(s string, n int) int { return max(0, n-utf8.RuneCountInString(s)) }

// Event renders one event line as the reader may see it; ok is false when
// the reader does not see the event at all.
func (r *Renderer) Event(rd Reader, ev engine.Event) (string, bool, error) {
	e, ok := ev.For(rd.Seat)
	if !ok {
		return "", false, nil
	}
	if code, ok := e.Params["code"].(string); ok && code != "" {
		// An event that carries a rule error ("the second item was
		// dropped") gets its translated sentence as the param "reason":
		// no raw code reaches a player (issue 12.6).
		re := &engine.RuleError{Code: code}
		re.Rule, _ = e.Params["rule"].(string)
		re.Params, _ = e.Params["params"].(map[string]any)
		if reason, err := r.Error(rd, re); err == nil && reason != re.Error() {
			params := make(map[string]any, len(e.Params)+1)
			for k, v := range e.Params {
				params[k] = v
			}
			params["reason"] = reason
			e.Params = params
		}
	}
	if s, ok, err := r.Lookup(rd, "event."+e.Type, e); ok {
		return s, true, err
	}
	who := ""
	if e.Seat >= 0 {
		who = rd.name(e.Seat) + ": "
	}
	return who + e.Type + " " + compact(e.Params), true, nil
}

// Error renders a rule error: the game's words for its code, else the
// referee's own, else the shared ones.
func (r *Renderer) Error(rd Reader, e *engine.RuleError) (string, error) {
	if r != nil && r.T != nil && !r.T.Has(rd.Game, rd.Lang, "error."+e.Code) && r.T.Has("referee", rd.Lang, "error."+e.Code) {
		rd.Game = "referee"
	}
	if code, ok := e.Params["code"].(string); ok && code != "" && code != e.Code {
		// An error that wraps another (Dice Brewing's second item, checked
		// after the first) gets the inner one's sentence as "reason".
		in := &engine.RuleError{Code: code}
		in.Rule, _ = e.Params["rule"].(string)
		in.Params, _ = e.Params["params"].(map[string]any)
		if reason, err := r.Error(rd, in); err == nil {
			params := make(map[string]any, len(e.Params)+1)
			for k, v := range e.Params {
				params[k] = v
			}
			params["reason"] = reason
			e = &engine.RuleError{Code: e.Code, Rule: e.Rule, Params: params}
		}
	}
	name := "error." + e.Code
	if r != nil && r.T != nil && !r.T.Has(rd.Game, rd.Lang, name) && r.T.Has(rd.Game, rd.Lang, "error.other") {
		// A code without words of its own still reads as a sentence,
		// never as the raw code (issue 12.6).
		name = "error.other"
	}
	if s, ok, err := r.Lookup(rd, name, e); ok {
		if err == nil && e.Rule != "" {
			s += " (" + e.Rule + ")"
		}
		return s, err
	}
	return e.Error(), nil
}

func (rd Reader) name(seat int) string {
	if seat >= 0 && seat < len(rd.Seats) {
		return rd.Seats[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// compact renders params as "k=v k=v", keys sorted.
func compact(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := m[k]
		switch v.(type) {
		case string, int, int64, float64, bool:
			parts[i] = fmt.Sprintf("%s=%v", k, v)
		default:
			js, _ := json.Marshal(v)
			parts[i] = fmt.Sprintf("%s=%s", k, js)
		}
	}
	return strings.Join(parts, " ")
}
