package brewcrafters

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// Parse implements engine.State.
func (s *State) Parse(seat int, line string) (engine.Move, error) {
	f := engine.Fields(line)
	if len(f) == 0 {
		return nil, engine.Reject("", engine.CodeSyntax, "line", line)
	}
	if f[0] == "QUEUE" || f[0] == "ALWAYS" {
		f = f[1:]
		if len(f) == 0 {
			return nil, engine.Reject("", engine.CodeSyntax, "line", line, "expected", "QUEUE <command>")
		}
	}
	p := &parser{s: s, f: f, line: line}
	m, err := p.top()
	if err != nil {
		return nil, err
	}
	if !p.done() {
		return nil, p.syntax(p.peek())
	}
	if mv, ok := m.(*move); ok {
		mv.r = s.r
	}
	return m, nil
}

type parser struct {
	s    *State
	f    []string
	i    int
	line string
}

func (p *parser) done() bool { return p.i >= len(p.f) }
func (p *parser) peek() string {
	if p.done() {
		return ""
	}
	return p.f[p.i]
}
func (p *parser) next() string { t := p.peek(); p.i++; return t }
func (p *parser) syntax(tok string) error {
	return engine.Reject("", engine.CodeSyntax, "line", p.line, "token", tok)
}

var ingWords = map[string]string{"MALT": "M", "HOPS": "H", "HOP": "H", "YEAST": "Y", "FRUIT": "F",
	"SPICES": "S", "SPICE": "S", "COFFEE": "C"}

// code reads one ingredient code.
func code(t string) string {
	if w, ok := ingWords[t]; ok {
		return w
	}
	if catalog.IngIndex(t) >= 0 {
		return t
	}
	return ""
}

// codes reads ingredient codes ("M", "2M", "MALT") until a non-code word;
// counts expand ("2M" = M M).
func (p *parser) codes() []string {
	var out []string
	for !p.done() {
		t := p.peek()
		n, c := 1, t
		k := 0
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		if k > 0 && k < len(t) {
			n, _ = strconv.Atoi(t[:k])
			c = t[k:]
		}
		cc := code(c)
		if cc == "" || n < 1 || n > 99 {
			break
		}
		for i := 0; i < n; i++ {
			out = append(out, cc)
		}
		p.next()
	}
	return out
}

func (p *parser) top() (engine.Move, error) {
	verb := p.next()
	switch verb {
	case "M", "MARKET":
		return p.market()
	case "B":
		m := &move{Verb: "B"}
		parts, err := p.parts(true)
		if err != nil {
			return nil, err
		}
		m.Parts = parts
		return m, nil
	case "ANNUAL":
		return p.annual()
	case "DONE", "PASS":
		return &move{Verb: verb}, nil
	case "INTERN":
		v := p.next()
		if v != "BREWERY" && v != "MARKET" {
			return nil, p.syntax(v)
		}
		return &move{Verb: "INTERN", Val: v}, nil
	case "HIRE":
		id := p.next()
		if id == "" {
			return nil, p.syntax(id)
		}
		if id == "BEST" {
			// A ranked list for a queued Agency answer (BC-10.2).
			m := &move{Verb: "HIRE", ID: "BEST"}
			for !p.done() && !strings.HasPrefix(p.peek(), "+") && p.peek() != "RESEARCH" {
				w := p.s.workerID(p.next())
				if p.s.r.Workers[w] == nil {
					return nil, engine.Reject("BC-5.12.3", "unknown_worker", "worker", w)
				}
				m.Args = append(m.Args, w)
			}
			if len(m.Args) == 0 {
				return nil, p.syntax("BEST")
			}
			if err := p.plusWords(m, true); err != nil {
				return nil, err
			}
			return m, nil
		}
		if id != "NONE" {
			id = p.s.workerID(id)
		}
		if id != "NONE" && p.s.r.Workers[id] == nil {
			return nil, engine.Reject("BC-5.12.3", "unknown_worker", "worker", id)
		}
		m := &move{Verb: "HIRE", ID: id}
		if id != "NONE" {
			// The worker's choices, as in "M WORKER" (BC-5.10.2, A-4).
			if err := p.plusWords(m, true); err != nil {
				return nil, err
			}
		}
		return m, nil
	case "SET":
		return p.set()
	case "RESEARCH":
		// The Yeast Lab Technician's free research move.
		return p.research(true)
	case "FIRE", "DISMISS":
		return nil, engine.Reject("BC-5.11.4", "no_firing")
	case "REPAY":
		return nil, engine.Reject("BC-5.1.6", "no_repay")
	}
	p.i--
	if m, ok, err := p.free(); ok || err != nil {
		return m, err
	}
	return nil, engine.Reject("", engine.CodeUnknownCommand, "word", verb)
}

// free parses a free action (BC-5.9) or returns ok=false.
func (p *parser) free() (*move, bool, error) {
	verb := p.peek()
	switch verb {
	case "DISCARD":
		p.next()
		cs := p.codes()
		if len(cs) == 0 {
			return nil, true, engine.Reject("", engine.CodeSyntax, "line", p.line, "expected", "DISCARD 2M 1H")
		}
		m := &move{Verb: "DISCARD"}
		for _, c := range cs {
			m.Bag[catalog.IngIndex(c)]++
		}
		return m, true, nil
	case "EXCHANGE":
		p.next()
		kind := p.next()
		if kind != "COFFEE" && kind != "SPICES" {
			return nil, true, engine.Reject("BC-5.9.2", "bad_exchange", "token", kind)
		}
		m := &move{Verb: "EXCHANGE", ID: kind, N: 1}
		cs := p.codes()
		if len(cs) != 1 || !catalog.IsBasic(catalog.IngIndex(cs[0])) {
			return nil, true, engine.Reject("BC-5.9.2", "bad_exchange", "line", p.line)
		}
		m.Code = cs[0]
		if n, err := strconv.Atoi(p.peek()); err == nil {
			p.next()
			if n < 1 || n > 99 {
				return nil, true, p.syntax(strconv.Itoa(n))
			}
			m.N = n
		}
		return m, true, nil
	case "LOAN":
		p.next()
		m := &move{Verb: "LOAN", N: 1}
		if n, err := strconv.Atoi(p.peek()); err == nil {
			p.next()
			if n < 1 || n > 20 {
				return nil, true, p.syntax(strconv.Itoa(n))
			}
			m.N = n
		}
		return m, true, nil
	case "PLANT", "HARVEST", "PICK", "CFARM":
		p.next()
		cs := p.codes()
		if len(cs) != 1 {
			return nil, true, engine.Reject("", engine.CodeSyntax, "line", p.line, "expected", verb+" M")
		}
		return &move{Verb: verb, Code: cs[0]}, true, nil
	}
	return nil, false, nil
}

// market parses "M [id] keyword [args] [+BASIC x] [+ADV x]".
func (p *parser) market() (engine.Move, error) {
	m := &move{Verb: "M"}
	t := p.next()
	if n, err := strconv.Atoi(t); err == nil && n > 0 {
		t = fmt.Sprintf("M%d", n)
	}
	if sp := p.s.r.Spaces[t]; sp != nil && len(sp.Half) == 1 && sp.Half[0].Kw != p.peek() && sp.Half[0].Kw != t {
		// "M M3": a space with one half stands for its keyword.
		m.Space = t
		t = sp.Half[0].Kw
		p.f = append(p.f[:p.i], append([]string{t}, p.f[p.i:]...)...)
		p.next()
	}
	if sp := p.s.r.Spaces[t]; sp != nil {
		isKw := false
		for _, h := range sp.Half {
			if h.Kw == p.peek() {
				isKw = true
			}
		}
		if isKw {
			m.Space = t
			t = p.next()
		} else if len(sp.Half) > 1 {
			// A dual space needs its half (BC-5.2.4): "M M1 INVESTOR".
			return nil, engine.Reject("BC-5.2.4", "dual_space", "space", t, "kws", sp.Half[0].Kw+" / "+sp.Half[1].Kw)
		}
	}
	eff := ""
	for _, sp := range p.s.r.Space {
		if m.Space != "" && sp.ID != m.Space {
			continue
		}
		for _, h := range sp.Half {
			if h.Kw == t && eff == "" {
				eff = h.Effect
			}
		}
	}
	if eff == "" {
		return nil, engine.Reject("BC-5.2.2", "unknown_space", "word", t)
	}
	m.Kw = t
	count := 0
	for _, sp := range p.s.r.Space {
		for _, h := range sp.Half {
			if h.Kw == t && (m.Space == "" || sp.ID == m.Space) {
				count = h.Count
			}
		}
	}
	switch eff {
	case "partner":
		a := p.next()
		if p.s.r.Partners[a] == nil {
			return nil, engine.Reject("BC-5.3.3", "unknown_partner", "word", a)
		}
		m.Args = []string{a}
	case "worker":
		a := p.s.workerID(p.next())
		if p.s.r.Workers[a] == nil {
			return nil, engine.Reject("BC-5.3.4", "unknown_worker", "worker", a)
		}
		m.Args = []string{a}
	case "choose_adv", "choose_basic", "benefit":
		cs := p.codes()
		want := count
		want2 := advCodes
		if eff != "choose_adv" {
			want2 = basicCodes
		}
		if eff == "benefit" {
			want = 1
		}
		if len(cs) != want {
			return nil, engine.Reject("BC-5.3.6", "choose_count", "want", want, "got", len(cs))
		}
		for _, c := range cs {
			if !slices.Contains(want2, c) {
				return nil, engine.Reject("BC-5.3.6", "wrong_class", "ing", c)
			}
		}
		m.Args = cs
	case "trade":
		a := p.next()
		if _, err := parseTrade(a); err != nil {
			return nil, err
		}
		m.Args = []string{a}
	case "cfarm":
		cs := p.codes()
		if len(cs) != 1 {
			return nil, engine.Reject("BC-5.12.4", "cfarm_one", "line", p.line)
		}
		m.Args = cs
	}
	if err := p.plusWords(m, eff == "worker"); err != nil {
		return nil, err
	}
	return m, nil
}

// tradeSpec is a parsed Traders Market trade "C>4H" (BC-5.12.2).
type tradeSpec struct {
	Give  string
	GiveN int
	Get   string
	GetN  int
}

func parseTrade(t string) (tradeSpec, error) {
	var ts tradeSpec
	l, r, ok := strings.Cut(t, ">")
	if !ok {
		return ts, engine.Reject("BC-5.12.2", "bad_trade", "token", t)
	}
	split := func(x string) (int, string) {
		k := 0
		for k < len(x) && x[k] >= '0' && x[k] <= '9' {
			k++
		}
		n := 1
		if k > 0 {
			n, _ = strconv.Atoi(x[:k])
		}
		c := x[k:]
		if c != "ADV" {
			c = code(c)
		}
		return n, c
	}
	ts.GiveN, ts.Give = split(l)
	ts.GetN, ts.Get = split(r)
	if ts.Give == "" || ts.Get == "" || ts.GiveN < 1 || ts.GetN < 0 || ts.GiveN > 99 || ts.GetN > 99 || ts.Get == "ADV" {
		return ts, engine.Reject("BC-5.12.2", "bad_trade", "token", t)
	}
	return ts, nil
}

func (ts tradeSpec) String() string {
	n := func(k int, c string) string {
		if k == 1 {
			return c
		}
		return strconv.Itoa(k) + c
	}
	return n(ts.GiveN, ts.Give) + ">" + n(ts.GetN, ts.Get)
}

// slotName is the queue slot of a phase of a season.
func slotName(season int, kind string) string { return fmt.Sprintf("s%d.%s", season, kind) }

var freeVerbs = map[string]bool{"DISCARD": true, "EXCHANGE": true, "LOAN": true, "PLANT": true, "HARVEST": true}

// orderVerb is the first word of an order, past a QUEUE prefix.
func orderVerb(o engine.Order) string {
	if len(o.Alts) == 0 || len(o.Alts[0]) == 0 {
		return ""
	}
	f := engine.Fields(o.Alts[0][0])
	if len(f) > 1 && (f[0] == "QUEUE" || f[0] == "ALWAYS") {
		return f[1]
	}
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// Route implements engine.State: SET is applied on receipt; M, INTERN and
// B orders answer this season's Market and Brewery turns (next season's once
// the phase is over); ANNUAL and DONE the season start; DISCARD, PICK and
// HIRE their interrupts; a free action goes with the order after it, or is
// applied on receipt when it is the last.
func (s *State) Route(seat int, orders []engine.Order) []error {
	var errs engine.RouteErrors
	fail := func(i int, err error) { errs.Fail(len(orders), i, err) }
	if s.Res != nil {
		for i := range orders {
			fail(i, engine.Reject("BC-7.1", engine.CodeGameOver))
		}
		return errs
	}
	phaseSlot := func(kind string) string {
		season := s.Season
		past := false
		switch kind {
		case phMarket:
			past = s.Phase == phBrewery || s.Phase == phEnd
		case phBrewery:
			past = s.Phase == phEnd
		case phStart:
			if s.seasonOf() != 3 || s.Phase != phStart {
				season = s.Season + (3 - s.seasonOf())
				if s.seasonOf() == 3 {
					season += 4
				}
			}
		}
		if past {
			season++
		}
		return slotName(season, kind)
	}
	slotOf := func(v string) string {
		switch v {
		case "M", "MARKET", "INTERN":
			return phaseSlot(phMarket)
		case "B":
			return phaseSlot(phBrewery)
		case "ANNUAL", "DONE":
			return phaseSlot(phStart)
		case "PICK":
			return slotName(s.Season, kindPick)
		case "HIRE":
			return slotName(s.Season, kindHire)
		case "RESEARCH":
			return slotName(s.Season, kindResearch)
		}
		return ""
	}
	cur := ""
	if d, ok := s.decisionOf(seat); ok {
		cur = d.Slot
	}
	for i := range orders {
		o := &orders[i]
		for a := range o.Alts {
			for l := range o.Alts[a] {
				f := strings.Fields(o.Alts[a][l])
				if len(f) > 1 && (strings.EqualFold(f[0], "QUEUE") || strings.EqualFold(f[0], "ALWAYS")) {
					o.Alts[a][l] = strings.Join(f[1:], " ")
					// ALWAYS is a standing order (BC-10.2 point 4).
					o.Always = o.Always || strings.EqualFold(f[0], "ALWAYS")
				}
			}
		}
		s.splitRanked(o)
		v := orderVerb(*o)
		if freeVerbs[v] || v == "SET" {
			o.Always = false // applied on receipt or with another order
		}
		switch {
		case v == "SET":
			o.Now = true
		case v == "PASS":
			if cur != "" {
				o.Slot = cur
			} else {
				o.Slot = phaseSlot(phBrewery)
			}
		case slotOf(v) != "":
			o.Slot = slotOf(v)
		case freeVerbs[v]:
			o.Slot = ""
			for j := i + 1; j < len(orders); j++ {
				w := orderVerb(orders[j])
				if !freeVerbs[w] && slotOf(w) != "" {
					o.Slot = slotOf(w)
					break
				}
			}
			if o.Slot == "" {
				if v == "DISCARD" && !strings.HasPrefix(cur, slotName(s.Season, kindDiscard)) && cur == "" {
					o.Slot = slotName(s.Season, kindDiscard)
				} else {
					o.Now = true
				}
			}
		default:
			if _, err := s.Parse(seat, o.Alts[0][0]); err != nil {
				fail(i, err)
			} else {
				fail(i, engine.Reject("", engine.CodeUnknownCommand, "word", v))
			}
		}
	}
	return errs
}

// SlotOpen implements engine.State.
func (s *State) SlotOpen(seat int, slot string) bool {
	var season int
	var kind string
	if _, err := fmt.Sscanf(strings.Replace(slot, ".", " ", 1), "s%d %s", &season, &kind); err != nil {
		return false
	}
	if s.Res != nil || seat < 0 || seat >= s.N || season < s.Season || season > s.last() {
		return false
	}
	if season > s.Season {
		return true
	}
	switch kind {
	case phStart:
		return s.Phase == phStart
	case phMarket:
		return s.Phase == phStart || s.Phase == phMarket
	case phBrewery:
		return s.Phase != phEnd
	case kindDiscard, kindPick, kindHire, kindResearch:
		return true
	}
	return false
}

// splitRanked turns a ranked Market list written with " > " into
// alternatives: "M MALT > HOPS > 7" (or "MARKET 3 > 7 > 1") tries M MALT,
// then M HOPS, then space M7 (BC-10.2). A trade such as "C>4H" has no
// spaces around its ">" and is left alone.
func (s *State) splitRanked(o *engine.Order) {
	if len(o.Alts) != 1 || len(o.Alts[0]) != 1 {
		return
	}
	line := o.Alts[0][0]
	f := strings.Fields(line)
	if len(f) < 2 || !strings.Contains(line, " > ") {
		return
	}
	head := strings.ToUpper(f[0])
	if head != "M" && head != "MARKET" {
		return
	}
	rest := strings.TrimSpace(line[len(f[0]):])
	var alts [][]string
	for _, part := range strings.Split(rest, " > ") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		alts = append(alts, []string{"M " + part})
	}
	o.Alts = alts
}
