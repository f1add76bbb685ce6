package notation

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// ParseLine reads one command line (QUEUE and ALWAYS prefixes dropped)
// into its move, with the rules the move's text is written with.
func ParseLine(r *catalog.Rules, line string) (engine.Move, error) {
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
	p := &parser{r: r, f: f, line: line}
	m, err := p.top()
	if err != nil {
		return nil, err
	}
	if !p.done() {
		return nil, p.syntax(p.peek())
	}
	if mv, ok := m.(*Move); ok {
		mv.r = r
	}
	return m, nil
}

type parser struct {
	r    *catalog.Rules
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
		m := &Move{Verb: "B"}
		parts, err := p.parts(true)
		if err != nil {
			return nil, err
		}
		m.Parts = parts
		return m, nil
	case "ANNUAL":
		return p.annual()
	case "DONE", "PASS":
		return &Move{Verb: verb}, nil
	case "INTERN":
		v := p.next()
		if v != "BREWERY" && v != "MARKET" {
			return nil, p.syntax(v)
		}
		return &Move{Verb: "INTERN", Val: v}, nil
	case "HIRE":
		id := p.next()
		if id == "" {
			return nil, p.syntax(id)
		}
		if id == "BEST" {
			// A ranked list for a queued Agency answer (BC-10.2).
			m := &Move{Verb: "HIRE", ID: "BEST"}
			for !p.done() && !strings.HasPrefix(p.peek(), "+") && p.peek() != "RESEARCH" {
				w := p.r.WorkerID(p.next())
				if p.r.Workers[w] == nil {
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
			id = p.r.WorkerID(id)
		}
		if id != "NONE" && p.r.Workers[id] == nil {
			return nil, engine.Reject("BC-5.12.3", "unknown_worker", "worker", id)
		}
		m := &Move{Verb: "HIRE", ID: id}
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
func (p *parser) free() (*Move, bool, error) {
	verb := p.peek()
	switch verb {
	case "DISCARD":
		p.next()
		cs := p.codes()
		if len(cs) == 0 {
			return nil, true, engine.Reject("", engine.CodeSyntax, "line", p.line, "expected", "DISCARD 2M 1H")
		}
		m := &Move{Verb: "DISCARD"}
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
		m := &Move{Verb: "EXCHANGE", ID: kind, N: 1}
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
		m := &Move{Verb: "LOAN", N: 1}
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
		return &Move{Verb: verb, Code: cs[0]}, true, nil
	}
	return nil, false, nil
}

// market parses "M [id] keyword [args] [+BASIC x] [+ADV x]".
func (p *parser) market() (engine.Move, error) {
	m := &Move{Verb: "M"}
	t := p.next()
	if n, err := strconv.Atoi(t); err == nil && n > 0 {
		t = fmt.Sprintf("M%d", n)
	}
	if sp := p.r.Spaces[t]; sp != nil && len(sp.Half) == 1 && sp.Half[0].Kw != p.peek() && sp.Half[0].Kw != t {
		// "M M3": a space with one half stands for its keyword.
		m.Space = t
		t = sp.Half[0].Kw
		p.f = append(p.f[:p.i], append([]string{t}, p.f[p.i:]...)...)
		p.next()
	}
	if sp := p.r.Spaces[t]; sp != nil {
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
	for _, sp := range p.r.Space {
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
	for _, sp := range p.r.Space {
		for _, h := range sp.Half {
			if h.Kw == t && (m.Space == "" || sp.ID == m.Space) {
				count = h.Count
			}
		}
	}
	switch eff {
	case "partner":
		a := p.next()
		if p.r.Partners[a] == nil {
			return nil, engine.Reject("BC-5.3.3", "unknown_partner", "word", a)
		}
		m.Args = []string{a}
	case "worker":
		a := p.r.WorkerID(p.next())
		if p.r.Workers[a] == nil {
			return nil, engine.Reject("BC-5.3.4", "unknown_worker", "worker", a)
		}
		m.Args = []string{a}
	case "choose_adv", "choose_basic", "benefit":
		cs := p.codes()
		want := count
		want2 := catalog.AdvCodes
		if eff != "choose_adv" {
			want2 = catalog.BasicCodes
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
		if _, err := ParseTrade(a); err != nil {
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

// TradeSpec is a parsed Traders Market trade "C>4H" (BC-5.12.2).
type TradeSpec struct {
	Give  string
	GiveN int
	Get   string
	GetN  int
}

func ParseTrade(t string) (TradeSpec, error) {
	var ts TradeSpec
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

func (ts TradeSpec) String() string {
	n := func(k int, c string) string {
		if k == 1 {
			return c
		}
		return strconv.Itoa(k) + c
	}
	return n(ts.GiveN, ts.Give) + ">" + n(ts.GetN, ts.Get)
}

var FreeVerbs = map[string]bool{"DISCARD": true, "EXCHANGE": true, "LOAN": true, "PLANT": true, "HARVEST": true}
