package dicebrewing

import (
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
)

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

// Parse implements engine.State: it checks the syntax and the static facts
// (spaces, cards, codes, colours, players) of one command line.
func (s *state) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, engine.Reject("", engine.CodeSyntax, "line", line)
	}
	p := &parser{s: s, seat: seat, line: line, f: f, i: 1}
	m, err := p.parse()
	if err != nil {
		return nil, err
	}
	return m, nil
}

type parser struct {
	s    *state
	seat int
	line string
	f    []string
	i    int
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

func (p *parser) end(m *move) (engine.Move, error) {
	if !p.done() {
		return nil, p.syntax(p.peek())
	}
	return m, nil
}

func (p *parser) parse() (engine.Move, error) {
	kw := p.f[0]
	m := &move{Verb: kw}
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
				if err != nil || n < 1 || n > p.s.rules.Faces {
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
		if err != nil || n < 1 || n > p.s.rules.Faces {
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
		if p.s.rules.Ingr(code) < 0 && p.s.rules.Tok(code) < 0 {
			return nil, engine.Reject("DB-5.7.2", "unknown_code", "code", code)
		}
		m.Code = code
		if p.peek() == "WITH" {
			p.next()
			if p.s.rules.Ingr(code) < 0 {
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

// spaceToken parses a slot name: MH1..DS3, with "+" for the speed-up slot.
func spaceToken(t string) (sp int, up bool, ok bool) {
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

func (p *parser) place(m *move) (engine.Move, error) {
	for !p.done() {
		t := p.next()
		if t == "THEN" {
			if len(m.Items) != 1 || !p.done() {
				return nil, p.syntax(t)
			}
			m.Then = true
			break
		}
		sp, up, ok := spaceToken(t)
		if !ok {
			if len(m.Items) == 0 {
				return nil, engine.Reject("DB-5.4.1", "unknown_space", "space", t)
			}
			return nil, p.syntax(t)
		}
		if len(m.Items) == 2 {
			return nil, engine.Reject("DB-5.3.3", "too_many_items")
		}
		it := item{Space: sp, Up: up}
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

func (p *parser) play(m *move) (engine.Move, error) {
	code := p.next()
	if p.s.rules.Tok(code) < 0 {
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
		if p.s.card(t) == nil {
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

func (p *parser) brew(m *move) (engine.Move, error) {
	id := p.next()
	if id == "" {
		return nil, p.syntax("")
	}
	if p.s.card(id) == nil {
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
			case p.s.rules.Ingr(t) >= 0:
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
		} else if p.s.rules.Tok(t) >= 0 {
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
func (p *parser) dice(inPlace bool) ([]dieRef, error) {
	var out []dieRef
	for !p.done() {
		t := p.peek()
		if t == "USE" || t == "GET" || t == "IMPROVE" || t == "THEN" {
			break
		}
		if inPlace {
			if _, _, ok := spaceToken(t); ok {
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
func (p *parser) die(w string) (dieRef, error) {
	r := dieRef{Seat: -1}
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
			r.Loc = refAR
		case "S":
			r.Loc = refST
		default:
			sp, up, ok := spaceToken(loc)
			if !ok {
				return r, engine.Reject("", "bad_die", "die", orig)
			}
			r.Loc, r.Space, r.Up = refBoard, sp, up
		}
	}
	if strings.HasSuffix(w, "+") {
		r.Plus = true
		w = w[:len(w)-1]
	}
	c, f, ok := catalog.SplitColourValue(w)
	if !ok || f > p.s.rules.Faces {
		return r, engine.Reject("", "bad_die", "die", orig)
	}
	r.C, r.F = c, f
	return r, nil
}

// player resolves a player name or "P<n>" (1-based seat) and returns the
// seat and the canonical name used in command texts (seatOf).
func (p *parser) player(w string) (int, string, error) {
	if seat, ok := seatOf(p.s.H.Seats, w); ok {
		return seat, p.s.refName(seat), nil
	}
	return 0, "", engine.Reject("", "unknown_player", "player", w)
}

// seatOf reads w as a seat of a game whose seats are named names: "P<n>"
// (1-based) is seat n-1, as the commands write a seat by number (refName,
// NumberSeats), even where a seat is named "p2" (issue 24); else the first
// seat whose name is w in any case (the parser's words are upper case:
// engine.Fields).
func seatOf(names []string, w string) (int, bool) {
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

// refName is the name of a seat as command texts write it: the seat name
// when it is one plain word that no other seat's name is in another case,
// else "P<n>" (issue 24: "Ann" next to "ann" would be read back by a
// reader as either).
func (s *state) refName(seat int) string { return refNameOf(s.H.Seats, seat) }

func refNameOf(names []string, seat int) string {
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

// NumberSeats implements engine.SeatNamer (issue 24): the seats a command
// names are the owners of its targets, written "<seat>:" in front of a die
// or a building (PLAY SHIELD ann:G6@S, PLAY BLOCKB ann:MH); each such seat
// s with number(s) is written P<s+1>, which seatOf reads as s whatever the
// names.
func (game) NumberSeats(cmd string, names []string, number func(seat int) bool) string {
	if !strings.Contains(cmd, ":") {
		return cmd
	}
	words := strings.Split(cmd, " ")
	changed := false
	for i, w := range words {
		who, rest, ok := strings.Cut(w, ":")
		if !ok || i == 0 {
			continue
		}
		if seat, ok := seatOf(names, who); ok && number(seat) {
			words[i] = "P" + strconv.Itoa(seat+1) + ":" + rest
			changed = true
		}
	}
	if !changed {
		return cmd
	}
	return strings.Join(words, " ")
}

// Route implements engine.State (DB-10.1): free commands apply on receipt;
// every other line joins the queue of one step of the current round.
//
//   - PLACE, END, PICK and REROLL go to Phase 1; BUY and NOBUY to Phase 2;
//     BREW to Phase 3; GET to the reward choice of Phase 3.
//   - PASS joins the phase of the nearest line before it (PLAY and DONE
//     lines aside), else the current phase.
//   - PLAY and DONE join the line after them: before the first PLACE of the
//     message they go to window W0 (while W0 is still to come), before a
//     later PLACE to the W1 of that placement turn, before a BUY to the
//     purchase turn, before the first BREW to window W3. With no line
//     after them they join the phase of the line before, else the current
//     step.
//   - The last Phase 2 line of a message ends the purchase turn (a NOBUY
//     is added to it, DB-10.1a); to buy in several messages, write all
//     the purchase lines in the last one.
//
// Lines for a step that is over are rejected (slot_closed).
func (s *state) Route(seat int, orders []engine.Order) []error {
	var errs engine.RouteErrors
	fail := func(i int, err error) { errs.Fail(len(orders), i, err) }
	cur := s.Step
	if cur == stepOver {
		for i := range orders {
			fail(i, engine.Reject("DB-7.1", engine.CodeGameOver))
		}
		return errs
	}
	// Phase of each line: the anchors first.
	phase := make([]string, len(orders))
	for i, o := range orders {
		switch o.Keyword() {
		case "STORE", "AUTOSTORE", "TOKENS":
			phase[i] = "now"
		case "PLACE", "END":
			phase[i] = stepPlace
		case "PICK", "REROLL":
			phase[i] = "reroll"
		case "BUY", "NOBUY":
			phase[i] = stepBuy
		case "BREW":
			phase[i] = stepBrew
		case "GET":
			phase[i] = "reward"
		case "PASS", "PLAY", "DONE":
		default:
			phase[i] = "unknown"
		}
	}
	curPhase := func() string {
		switch cur {
		case stepW0, stepPlace:
			return stepPlace
		case stepBuy:
			return stepBuy
		}
		return stepBrew
	}
	// PASS lines: the nearest phase before them.
	for i, o := range orders {
		if o.Keyword() != "PASS" {
			continue
		}
		phase[i] = curPhase()
		for j := i - 1; j >= 0; j-- {
			if p := phase[j]; p != "" && p != "now" && p != "unknown" {
				phase[i] = mainPhase(p)
				break
			}
		}
	}
	// PLAY and DONE lines: the line after them.
	firstPlace, firstBrew := -1, -1
	for i, o := range orders {
		if o.Keyword() == "PLACE" && firstPlace < 0 {
			firstPlace = i
		}
		if o.Keyword() == "BREW" && firstBrew < 0 {
			firstBrew = i
		}
	}
	for i, o := range orders {
		k := o.Keyword()
		if k != "PLAY" && k != "DONE" {
			continue
		}
		next := -1
		for j := i + 1; j < len(orders); j++ {
			if kw := orders[j].Keyword(); kw != "PLAY" && kw != "DONE" && phase[j] != "now" {
				next = j
				break
			}
		}
		switch {
		case next >= 0 && next == firstPlace && cur == stepW0:
			phase[i] = stepW0
		case next >= 0 && mainPhase(phase[next]) == stepBrew:
			phase[i] = stepW3
		case next >= 0 && phase[next] != "unknown":
			phase[i] = mainPhase(phase[next])
		default:
			prev := ""
			for j := i - 1; j >= 0; j-- {
				if p := phase[j]; p != "" && p != "now" && p != "unknown" && orders[j].Keyword() != "PLAY" && orders[j].Keyword() != "DONE" {
					prev = mainPhase(p)
					break
				}
			}
			switch {
			case prev == stepBrew:
				phase[i] = "late"
			case prev != "":
				phase[i] = prev
			case cur == stepW0 || cur == stepW3:
				phase[i] = cur
			case cur == stepBrew:
				phase[i] = "late"
			default:
				phase[i] = curPhase()
			}
		}
		if k == "DONE" && phase[i] == stepPlace {
			fail(i, engine.Reject("DB-5.8.4", "done_no_window"))
		}
	}
	lastBuy := -1
	for i, o := range orders {
		if errs != nil && errs[i] != nil {
			continue
		}
		switch p := phase[i]; p {
		case "now":
			orders[i].Now = true
			continue
		case "unknown":
			fail(i, engine.Reject("", engine.CodeUnknownCommand, "word", o.Keyword()))
			continue
		case "late":
			fail(i, engine.Reject("DB-5.8.3", "token_window", "token", secondWord(o), "window", "brew"))
			continue
		default:
			orders[i].Slot = s.slot(p)
			if err := s.slotErr(seat, p); err != nil {
				fail(i, err)
				continue
			}
			if p == stepBuy {
				lastBuy = i
				if err := s.marketErr(o); err != nil {
					fail(i, err)
					continue
				}
			}
		}
	}
	// DB-10.1a: the purchase turn runs the message's Phase 2 lines and ends
	// after the last one.
	if lastBuy >= 0 {
		o := &orders[lastBuy]
		for a, alt := range o.Alts {
			last := strings.ToUpper(engine.FirstWord(alt[len(alt)-1]))
			if last != "NOBUY" && last != "DONE" && last != "PASS" {
				o.Alts[a] = append(append([]string(nil), alt...), "NOBUY")
			}
		}
	}
	return errs
}
