package notation

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

// ParseLine reads one command line of the seat into its move: the syntax
// and the static facts (spaces, cards, codes, colours, players).
func ParseLine(r *catalog.Rules, seats []string, seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, engine.Reject("", engine.CodeSyntax, "line", line)
	}
	p := &parser{r: r, seats: seats, seat: seat, line: line, f: f, i: 1}
	m, err := p.parse()
	if err != nil {
		return nil, err
	}
	return m, nil
}

// usage is the expected form of each command, for syntax errors.
var usage = map[string]string{
	"STORE":     "STORE <dice...> | STORE ALL | STORE ALL>=n",
	"AUTOSTORE": "AUTOSTORE n [B] | AUTOSTORE OFF",
	"TOKENS":    "TOKENS NONE [ROUND|GAME] | TOKENS ASK",
	"PLACE":     "PLACE <slot> <item>[, <slot> <item>] [THEN]",
	"END":       "END",
	"PICK":      "PICK <dice...>",
	"REROLL":    "REROLL [<dice...>]",
	"PASS":      "PASS",
	"PLAY":      "PLAY <token> <target>",
	"DONE":      "DONE",
	"BUY":       "BUY <ingredient> [WITH <blue die>] | BUY <token>",
	"NOBUY":     "NOBUY",
	"BREW":      "BREW <card> [IMPROVE <ingredient>|<blue die>] [USE <dice...>] [GET <choices...>]",
	"GET":       "GET <colour>|<token> ...",
}

type parser struct {
	r     *catalog.Rules
	seats []string
	seat  int
	line  string
	f     []string
	i     int
}

func (p *parser) syntax(token string) error {
	kw := p.f[0]
	kv := []any{"line", p.line, "expected", usage[kw]}
	if token != "" {
		kv = append(kv, "token", token)
	}
	return engine.Reject("", engine.CodeSyntax, kv...)
}

func (p *parser) peek() string {
	if p.i < len(p.f) {
		return p.f[p.i]
	}
	return ""
}

func (p *parser) next() string {
	t := p.peek()
	p.i++
	return t
}

func (p *parser) done() bool { return p.i >= len(p.f) }

func (p *parser) end(m *Move) (engine.Move, error) {
	if !p.done() {
		return nil, p.syntax(p.peek())
	}
	return m, nil
}

func (p *parser) parse() (engine.Move, error) {
	kw := p.f[0]
	m := &Move{Verb: kw}
	switch kw {
	case "PASS", "DONE", "NOBUY", "END":
		return p.end(m)
	case "STORE":
		if p.done() {
			return nil, p.syntax("")
		}
		t := p.peek()
		if t == "ALL" || strings.HasPrefix(t, "ALL>=") {
			p.next()
			m.All = true
			rest := strings.TrimPrefix(t, "ALL")
			if rest == "" && strings.HasPrefix(p.peek(), ">=") {
				rest = p.next()
				if rest == ">=" {
					rest += p.next()
				}
			}
			if rest != "" {
				n, err := strconv.Atoi(strings.TrimPrefix(rest, ">="))
				if err != nil || n < 1 || n > p.r.Faces {
					return nil, p.syntax(t)
				}
				m.AllMin = n
			}
			return p.end(m)
		}
		refs, err := p.dice(false)
		if err != nil {
			return nil, err
		}
		m.Dice = refs
		return p.end(m)
	case "PICK":
		refs, err := p.dice(false)
		if err != nil {
			return nil, err
		}
		if len(refs) == 0 {
			return nil, p.syntax("")
		}
		m.Dice = refs
		return p.end(m)
	case "REROLL":
		refs, err := p.dice(false)
		if err != nil {
			return nil, err
		}
		m.Dice = refs
		return p.end(m)
	case "AUTOSTORE":
		t := p.next()
		if t == "OFF" {
			return p.end(m)
		}
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 || n > p.r.Faces {
			return nil, p.syntax(t)
		}
		m.N = n
		if p.peek() != "" && catalog.ColourIndex(p.peek()) == catalog.ColB {
			p.next()
			m.Blue = true
		}
		return p.end(m)
	case "TOKENS":
		switch t := p.next(); t {
		case "ASK":
			m.Scope = "ASK"
		case "NONE":
			m.Scope = "ROUND"
			if p.peek() == "ROUND" || p.peek() == "GAME" {
				m.Scope = p.next()
			}
		default:
			return nil, p.syntax(t)
		}
		return p.end(m)
	case "PLACE":
		return p.place(m)
	case "PLAY":
		return p.play(m)
	case "BUY":
		code := p.next()
		if code == "" {
			return nil, p.syntax("")
		}
		if p.r.Ingr(code) < 0 && p.r.Tok(code) < 0 {
			return nil, engine.Reject("DB-5.7.2", "unknown_code", "code", code)
		}
		m.Code = code
		if p.peek() == "WITH" {
			p.next()
			if p.r.Ingr(code) < 0 {
				return nil, engine.Reject("DB-5.7.5", "no_discount", "code", code)
			}
			r, err := p.die(p.next())
			if err != nil {
				return nil, err
			}
			m.With = &r
		}
		return p.end(m)
	case "BREW":
		return p.brew(m)
	case "GET":
		g, err := p.choices()
		if err != nil {
			return nil, err
		}
		if len(g) == 0 {
			return nil, p.syntax("")
		}
		m.Get = g
		return p.end(m)
	}
	return nil, engine.Reject("", engine.CodeUnknownCommand, "word", kw)
}

// SpaceToken parses a slot name: MH1..DS3, with "+" for the speed-up slot.
func SpaceToken(t string) (sp int, up bool, ok bool) {
	if strings.HasSuffix(t, "+") {
		up = true
		t = t[:len(t)-1]
	}
	for i, n := range catalog.SpaceNames {
		if n == t {
			return i, up, true
		}
	}
	return 0, false, false
}

func (p *parser) place(m *Move) (engine.Move, error) {
	for !p.done() {
		t := p.next()
		if t == "THEN" {
			if len(m.Items) != 1 || !p.done() {
				return nil, p.syntax(t)
			}
			m.Then = true
			break
		}
		sp, up, ok := SpaceToken(t)
		if !ok {
			if len(m.Items) == 0 {
				return nil, engine.Reject("DB-5.4.1", "unknown_space", "space", t)
			}
			return nil, p.syntax(t)
		}
		if len(m.Items) == 2 {
			return nil, engine.Reject("DB-5.3.3", "too_many_items")
		}
		it := Item{Space: sp, Up: up}
		w := p.next()
		switch {
		case w == "":
			return nil, p.syntax(t)
		case w == "SEED":
			it.Seed = true
		default:
			r, err := p.die(w)
			if err != nil {
				return nil, err
			}
			it.Die = r
		}
		switch p.peek() {
		case "REROLL":
			p.next()
			if sp != catalog.SpSS1 || up {
				return nil, p.syntax("REROLL")
			}
			refs, err := p.dice(true)
			if err != nil {
				return nil, err
			}
			if len(refs) == 0 {
				return nil, p.syntax("REROLL")
			}
			it.Reroll = refs
		case "SWAP":
			p.next()
			if sp != catalog.SpSS2 || up {
				return nil, p.syntax("SWAP")
			}
			r, err := p.die(p.next())
			if err != nil {
				return nil, err
			}
			it.Swap = &r
		}
		if sp == catalog.SpSS2 && !up && it.Swap == nil {
			return nil, engine.Reject("DB-5.5.7", "swap_needed")
		}
		m.Items = append(m.Items, it)
	}
	if len(m.Items) == 0 {
		return nil, p.syntax("")
	}
	if len(m.Items) == 2 && m.Items[0].Space == catalog.SpSS1 && !m.Items[0].Up && len(m.Items[0].Reroll) == 0 {
		return nil, engine.Reject("DB-5.5.6", "reroll_list_needed")
	}
	return m, nil
}

func (p *parser) play(m *Move) (engine.Move, error) {
	code := p.next()
	if p.r.Tok(code) < 0 {
		if code == "" {
			return nil, p.syntax("")
		}
		return nil, engine.Reject("DB-5.8", "unknown_token", "token", code)
	}
	m.Token = code
	t := p.next()
	if t == "" {
		return nil, p.syntax("")
	}
	switch code {
	case catalog.TokBLOCKB:
		who, what, ok := strings.Cut(t, ":")
		if !ok {
			return nil, p.syntax(t)
		}
		seat, name, err := p.player(who)
		if err != nil {
			return nil, err
		}
		b := -1
		for i, n := range catalog.BuildingNames {
			if n == what {
				b = i
			}
		}
		if b < 0 {
			return nil, engine.Reject("DB-5.8.5", "unknown_building", "building", what)
		}
		m.TSeat, m.TName, m.TBuilding = seat, name, b
	case catalog.TokBLOCKR:
		if p.r.RecipeIndex[t] == nil {
			return nil, engine.Reject("DB-5.8.6", "unknown_card", "card", t)
		}
		m.Card = t
	default:
		r, err := p.die(t)
		if err != nil {
			return nil, err
		}
		m.Target = &r
	}
	return p.end(m)
}

func (p *parser) brew(m *Move) (engine.Move, error) {
	id := p.next()
	if id == "" {
		return nil, p.syntax("")
	}
	if p.r.RecipeIndex[id] == nil {
		return nil, engine.Reject("DB-5.9.3", "unknown_card", "card", id)
	}
	m.Card = id
	seen := map[string]bool{}
	for !p.done() {
		kw := p.next()
		if seen[kw] {
			return nil, p.syntax(kw)
		}
		seen[kw] = true
		switch kw {
		case "IMPROVE":
			t := p.next()
			switch {
			case t == "":
				return nil, p.syntax(kw)
			case p.r.Ingr(t) >= 0:
				m.ImproveCode = t
			default:
				r, err := p.die(t)
				if err != nil {
					return nil, err
				}
				if r.C != catalog.ColB {
					return nil, engine.Reject("DB-5.9.4", "improve_not_blue", "die", r.String())
				}
				m.ImproveDie = &r
			}
			if n := p.peek(); n != "" && n != "USE" && n != "GET" {
				return nil, engine.Reject("DB-5.9.4", "one_improvement", "card", id)
			}
		case "USE":
			refs, err := p.dice(false)
			if err != nil {
				return nil, err
			}
			if len(refs) == 0 {
				return nil, p.syntax(kw)
			}
			m.Dice = refs
		case "GET":
			g, err := p.choices()
			if err != nil {
				return nil, err
			}
			if len(g) == 0 {
				return nil, p.syntax(kw)
			}
			m.Get = g
		default:
			return nil, p.syntax(kw)
		}
	}
	return m, nil
}

// choices parses reward choices: colours (Y, K, G, B) and token codes.
func (p *parser) choices() ([]string, error) {
	var out []string
	for !p.done() {
		t := p.peek()
		if c := catalog.ColourIndex(t); c >= 0 {
			out = append(out, catalog.ColourLetters[c])
		} else if p.r.Tok(t) >= 0 {
			out = append(out, t)
		} else if len(out) > 0 && (t == "USE" || t == "IMPROVE") {
			break
		} else {
			return nil, engine.Reject("DB-5.9.8", "bad_choice", "choice", t)
		}
		p.next()
	}
	return out, nil
}

// dice parses die references up to the end, a clause keyword or (inside a
// PLACE) the next slot.
func (p *parser) dice(inPlace bool) ([]DieRef, error) {
	var out []DieRef
	for !p.done() {
		t := p.peek()
		if t == "USE" || t == "GET" || t == "IMPROVE" || t == "THEN" {
			break
		}
		if inPlace {
			if _, _, ok := SpaceToken(t); ok {
				break
			}
		}
		r, err := p.die(t)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		p.next()
	}
	return out, nil
}

// die parses one die reference: [owner:]<colour><face>[+][@A|@S|@<slot>].
func (p *parser) die(w string) (DieRef, error) {
	r := DieRef{Seat: -1}
	orig := w
	if w == "" {
		return r, p.syntax("")
	}
	if who, rest, ok := strings.Cut(w, ":"); ok {
		seat, name, err := p.player(who)
		if err != nil {
			return r, err
		}
		if seat != p.seat {
			r.Seat, r.Owner = seat, name
		}
		w = rest
	}
	if at := strings.IndexByte(w, '@'); at >= 0 {
		loc := w[at+1:]
		w = w[:at]
		switch loc {
		case "A":
			r.Loc = RefAR
		case "S":
			r.Loc = RefST
		default:
			sp, up, ok := SpaceToken(loc)
			if !ok {
				return r, engine.Reject("", "bad_die", "die", orig)
			}
			r.Loc, r.Space, r.Up = RefBoard, sp, up
		}
	}
	if strings.HasSuffix(w, "+") {
		r.Plus = true
		w = w[:len(w)-1]
	}
	c, f, ok := catalog.SplitColourValue(w)
	if !ok || f > p.r.Faces {
		return r, engine.Reject("", "bad_die", "die", orig)
	}
	r.C, r.F = c, f
	return r, nil
}

// player resolves a player name or "P<n>" (1-based seat) and returns the
// seat and the canonical name used in command texts (seatOf).
func (p *parser) player(w string) (int, string, error) {
	if seat, ok := SeatOf(p.seats, w); ok {
		return seat, RefNameOf(p.seats, seat), nil
	}
	return 0, "", engine.Reject("", "unknown_player", "player", w)
}

// SeatOf reads w as a seat of a game whose seats are named names: "P<n>"
// (1-based) is seat n-1, as the commands write a seat by number (refName,
// NumberSeats), even where a seat is named "p2" (issue 24); else the first
// seat whose name is w in any case (the parser's words are upper case:
// engine.Fields).
func SeatOf(names []string, w string) (int, bool) {
	if len(w) > 1 && (w[0] == 'P' || w[0] == 'p') {
		if k, err := strconv.Atoi(w[1:]); err == nil && k >= 1 && k <= len(names) {
			return k - 1, true
		}
	}
	for i, n := range names {
		if strings.EqualFold(n, w) {
			return i, true
		}
	}
	return 0, false
}

func RefNameOf(names []string, seat int) string {
	n := names[seat]
	plain := n != ""
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			plain = false
		}
	}
	if plain && strings.EqualFold(n[:1], "P") {
		if _, err := strconv.Atoi(n[1:]); err == nil {
			plain = false // "P2" as a name would be read as a seat number
		}
	}
	for i, o := range names {
		if i != seat && strings.EqualFold(o, n) {
			plain = false
		}
	}
	if !plain {
		return "P" + strconv.Itoa(seat+1)
	}
	return n
}
