// Parse's second half: the parts of a brewery turn (PROCESS, BREW, SELL,
// COLLAB ...), research, install, and the annual and SET commands.

package notation

import (
	"slices"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// parts parses the parts of a Brewery action joined by THEN (BC-5.5.9).
func (p *parser) parts(full bool) ([]*Move, error) {
	var out []*Move
	for {
		m, err := p.part(full)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
		if m.Verb == "PROCESS" && p.peek() == "COLLAB" {
			// BC-10.5: "PROCESS ... COLLAB p BEFORE|AFTER" is the
			// Collaborate part before or after the Process part (BC-5.5.2).
			c, err := p.part(full)
			if err != nil {
				return nil, err
			}
			switch p.next() {
			case "BEFORE":
				out = append(out[:len(out)-1], c, m)
			case "AFTER":
				out = append(out, c)
			default:
				p.i--
				return nil, engine.Reject("", engine.CodeSyntax, "line", p.line, "expected", "COLLAB "+c.Portion+" BEFORE|AFTER")
			}
		}
		if p.peek() != "THEN" {
			break
		}
		p.next()
	}
	if len(out) > 1 {
		for _, m := range out {
			switch m.Verb {
			case "PROCESS", "COLLAB", "DISCARD", "EXCHANGE", "LOAN", "PLANT", "HARVEST":
			default:
				return nil, engine.Reject("BC-5.5.9", "then_only_process", "part", m.Verb)
			}
		}
	}
	return out, nil
}

func (p *parser) part(full bool) (*Move, error) {
	if m, ok, err := p.free(); ok || err != nil {
		if err != nil {
			return nil, err
		}
		if m.Verb == "PICK" || (m.Verb == "CFARM" && !full) {
			return nil, p.syntax(m.Verb)
		}
		return m, nil
	}
	verb := p.next()
	switch verb {
	case "PROCESS":
		m := &Move{Verb: "PROCESS"}
		if p.peek() == "BREW" {
			p.next()
			for !p.done() {
				t := p.peek()
				rid, slot, _ := strings.Cut(t, "@")
				id := p.r.RecipeID(rid)
				if id == "" {
					break
				}
				if slot != "" && slot != "T1" && slot != "T2" && slot != "PUB" {
					return nil, engine.Reject("BC-5.5.1", "bad_slot", "slot", slot)
				}
				p.next()
				m.Brews = append(m.Brews, Brew{Recipe: id, Slot: slot})
			}
			if len(m.Brews) == 0 {
				return nil, engine.Reject("BC-5.5.5", "unknown_recipe", "word", p.peek())
			}
			if len(m.Brews) > catalog.NSlots {
				return nil, engine.Reject("BC-5.5.1", "too_many_batches", "n", len(m.Brews))
			}
		}
		for {
			switch p.peek() {
			case "MASH":
				p.next()
				m.Mash = true
				continue
			case "YLAB":
				p.next()
				m.Ylab = true
				continue
			}
			break
		}
		return m, nil
	case "COLLAB":
		m := &Move{Verb: "COLLAB"}
		t := p.next()
		switch t {
		case "M", "MALT", "H", "HOPS", "Y", "YEAST":
			m.Portion = code(t)
		case "ADV":
			m.Portion = "ADV"
			cs := p.codes()
			if len(cs) != 1 || !slices.Contains(catalog.AdvCodes, cs[0]) {
				return nil, engine.Reject("BC-5.6.1", "collab_adv", "line", p.line)
			}
			m.Code = cs[0]
		default:
			return nil, engine.Reject("BC-5.6.1", "bad_portion", "word", t)
		}
		return m, nil
	}
	if !full {
		return nil, p.syntax(verb)
	}
	switch verb {
	case "RESEARCH":
		return p.research(false)
	case "INSTALL":
		return p.install()
	case "SECRET":
		id := p.r.RecipeID(p.next())
		if id == "" {
			return nil, engine.Reject("BC-5.12.5", "unknown_recipe", "line", p.line)
		}
		return &Move{Verb: "SECRET", Recipe: id}, nil
	case "PASS":
		return &Move{Verb: "PASS"}, nil
	}
	return nil, engine.Reject("BC-5.4.3", "bad_brewery_action", "word", verb)
}

// research parses "<track> [choice ...]" after RESEARCH (BC-5.7, BC-10.5),
// or "SKIP" where a free research move may be declined. The choices
// end at THEN or at a "+" word.
func (p *parser) research(skip bool) (*Move, error) {
	w := p.next()
	if skip && w == "SKIP" {
		return &Move{Verb: "RESEARCH", Skip: true}, nil
	}
	t := catalog.TrackIndex(w)
	if t < 0 {
		return nil, engine.Reject("BC-5.7.1", "bad_track", "line", p.line)
	}
	m := &Move{Verb: "RESEARCH", Track: t}
	for !p.done() && p.peek() != "THEN" && !strings.HasPrefix(p.peek(), "+") {
		c := p.next()
		switch {
		case code(c) != "":
			c = code(c)
		case strings.HasPrefix(c, "SPACE_"):
		case p.r.BldID(c) != "" && p.r.Buildings[p.r.BldID(c)].Space != "":
			c = p.r.Buildings[p.r.BldID(c)].Space
		case p.r.RecipeID(c) != "":
			c = p.r.RecipeID(c)
		default:
			return nil, engine.Reject("BC-5.7.2", "bad_choice", "word", c)
		}
		m.Choice = append(m.Choice, c)
		if len(m.Choice) > 4 {
			return nil, p.syntax(c)
		}
	}
	return m, nil
}

// plusWords parses the "+BASIC x" / "+ADV x" trigger choices (BC-5.10.2)
// and, where research is true, a "RESEARCH <track> [choice]" or "RESEARCH
// SKIP" for a worker's free research move (A-4), to the end of the line.
// classCodes reads the ingredient codes after a +BASIC or +ADV word, each
// of that class (BC-5.10.2), at least one.
func (p *parser) classCodes(word string, class []string) ([]string, error) {
	cs := p.codes()
	for _, c := range cs {
		if !slices.Contains(class, c) {
			return nil, engine.Reject("BC-5.10.2", "wrong_class", "ing", c)
		}
	}
	if len(cs) == 0 {
		return nil, p.syntax(word)
	}
	return cs, nil
}

func (p *parser) plusWords(m *Move, research bool) error {
	for !p.done() {
		switch w := p.next(); w {
		case "+BASIC", "+ANY":
			cs, err := p.classCodes(w, catalog.BasicCodes)
			if err != nil {
				return err
			}
			m.PlusB = append(m.PlusB, cs...)
		case "+ADV":
			cs, err := p.classCodes(w, catalog.AdvCodes)
			if err != nil {
				return err
			}
			m.PlusA = append(m.PlusA, cs...)
		case "RESEARCH", "+RESEARCH":
			if !research || len(m.Parts) > 0 {
				return p.syntax(w)
			}
			r, err := p.research(true)
			if err != nil {
				return err
			}
			m.Parts = []*Move{r}
		default:
			return p.syntax(w)
		}
	}
	return nil
}

func (p *parser) install() (*Move, error) {
	b := p.r.BldID(p.next())
	if b == "" {
		return nil, engine.Reject("BC-5.8.1", "unknown_building", "line", p.line)
	}
	m := &Move{Verb: "INSTALL", Bld: b}
	if p.peek() == "+OPS" {
		p.next()
		cs := p.codes()
		if len(cs) != 3 {
			return nil, engine.Reject("BC-5.8.5", "ops_three", "line", p.line)
		}
		for _, c := range cs {
			if !slices.Contains(catalog.BasicCodes, c) {
				return nil, engine.Reject("BC-5.8.5", "wrong_class", "ing", c)
			}
		}
		m.PlusOps = cs
	}
	return m, nil
}

// annual parses "ANNUAL <track> <args>|SKIP" (BC-4.2, BC-5.7.3).
func (p *parser) annual() (engine.Move, error) {
	t := catalog.TrackIndex(p.next())
	if t < 0 {
		return nil, engine.Reject("BC-5.7.3", "bad_track", "line", p.line)
	}
	m := &Move{Verb: "ANNUAL", Track: t}
	if p.peek() == "SKIP" {
		p.next()
		m.Skip = true
		return m, nil
	}
	switch w := p.peek(); {
	case w == "INSTALL":
		p.next()
		im, err := p.install()
		if err != nil {
			return nil, err
		}
		m.Parts = []*Move{im}
	case w == "PROCESS" || w == "COLLAB" || FreeVerbs[w]:
		parts, err := p.parts(false)
		if err != nil {
			return nil, err
		}
		m.Parts = parts
	default:
		m.Choice = p.codes()
		if len(m.Choice) == 0 {
			return nil, engine.Reject("BC-5.7.3", "annual_choice", "line", p.line)
		}
	}
	return m, nil
}

// set parses the standing preferences (BC-10.2).
func (p *parser) set() (engine.Move, error) {
	key := p.next()
	m := &Move{Verb: "SET", Key: key}
	switch key {
	case "DISCARD", "PICK":
		if p.peek() == "OFF" {
			p.next()
			m.Val = "OFF"
			return m, nil
		}
		cs := p.codes()
		if len(cs) == 0 {
			return nil, engine.Reject("BC-10.2", "set_value", "key", key)
		}
		m.Val = strings.Join(cs, " ")
	case "ANY", "ADV":
		cs := p.codes()
		want := catalog.BasicCodes
		if key == "ADV" {
			want = catalog.AdvCodes
		}
		if len(cs) == 0 {
			return nil, engine.Reject("BC-10.2", "set_value", "key", key)
		}
		for _, c := range cs {
			if !slices.Contains(want, c) {
				return nil, engine.Reject("BC-10.2", "wrong_class", "ing", c)
			}
		}
		m.Val = strings.Join(cs, " ")
	case "INTERN":
		v := p.next()
		if v != "BREWERY" && v != "MARKET" && v != "ASK" {
			return nil, engine.Reject("BC-10.2", "set_value", "key", key)
		}
		m.Val = v
	case "ANNUAL":
		v := p.next()
		if v != "AUTO" && v != "ASK" {
			return nil, engine.Reject("BC-10.2", "set_value", "key", key)
		}
		m.Val = v
	case "AUTOHARVEST":
		// BC-10.2 names "SET AUTOHARVEST ON"; the end-of-Fall harvest is
		// always made (BC-4.3, A-14), so ON is accepted and OFF refused.
		switch v := p.next(); v {
		case "ON":
			m.Val = v
		case "OFF":
			return nil, engine.Reject("BC-4.3", "autoharvest_always")
		default:
			return nil, engine.Reject("BC-10.2", "set_value", "key", key)
		}
	default:
		return nil, engine.Reject("BC-10.2", "set_key", "key", key)
	}
	return m, nil
}
