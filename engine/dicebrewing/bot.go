package dicebrewing

import (
	"math/rand/v2"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Greedy is the sensible bot of Dice Brewing: it keeps good dice in
// Storage, places for new dice and improvements, buys what helps the
// recipes on display, brews the most valuable recipe it can (with an
// improvement when it has one) and uses a few tokens where they clearly
// help. It looks only at the position and the options it is given, never
// at the game's random source.
type Greedy struct{}

// Choose implements engine.Bot.
func (Greedy) Choose(st engine.State, d engine.Decision, opts []engine.Option, rng *rand.Rand) int {
	s, ok := st.(*state)
	if !ok {
		return 0
	}
	best, bestV := -1, -1e9
	t := s.target4bot(d.Seat)
	// Placement options are scored from the items themselves, without
	// parsing every command.
	var items map[string]notation.Item
	if d.Kind == position.KindPlace || d.Kind == position.KindSecond {
		singles := s.placeSingles(d.Seat, 0)
		items = make(map[string]notation.Item, len(singles))
		for _, a := range singles {
			items["PLACE "+a.it.String()] = a.it
		}
	}
	for i, o := range opts {
		var v float64
		if it, ok := items[strings.TrimSuffix(o.Cmd, " THEN")]; ok {
			v = s.botItem(d.Seat, it, t)
			if strings.HasSuffix(o.Cmd, " THEN") {
				v += 0.05 // keep the door open for a second item
			}
		} else {
			v = s.botValue(d, o.Cmd, t)
		}
		v += rng.Float64() * 1e-3 // break ties at random
		if v > bestV {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return 0
	}
	return best
}

// botTarget is what the greedy bot is working towards: the display card
// with the best worth per missing die, and the dice it still misses.
type botTarget struct {
	card    string
	missing []catalog.Req // requirements not met from Storage
	used    map[int]bool
}

func (s *state) target4bot(seat int) botTarget {
	best := botTarget{}
	bestScore := -1.0
	st := s.BrewDice(seat)
	for _, c := range s.Display {
		if c == "" || s.RecipeBlocked(c) {
			continue
		}
		rc := s.Card(c)
		if len(s.MissingTokens(seat, rc, -1)) > 0 {
			continue // the bot does not plan around ingredients it lacks
		}
		got, miss := s.Assign(rc, st)
		score := (1 + gainWorth(rc.Reward)) / float64(1+2*len(miss))
		if score > bestScore {
			bestScore = score
			best = botTarget{card: c, used: map[int]bool{}}
			for _, id := range got {
				best.used[id] = true
			}
			for _, m := range miss {
				c, f, _ := catalog.SplitColourValue(m)
				best.missing = append(best.missing, catalog.Req{C: c, Min: f})
			}
		}
	}
	return best
}

// helps reports whether a die of colour c and value v would meet one of
// the target's missing requirements.
func (t botTarget) helps(c, v int) bool {
	for _, r := range t.missing {
		if r.C == c && v >= r.Min {
			return true
		}
	}
	return false
}

// wants reports whether the target misses a die of colour c.
func (t botTarget) wants(c int) bool {
	for _, r := range t.missing {
		if r.C == c {
			return true
		}
	}
	return false
}

// botValue scores one option for the greedy bot: higher is better; the
// pass-like options score 0.
func (s *state) botValue(d engine.Decision, cmd string, t botTarget) float64 {
	mv, err := s.Parse(d.Seat, cmd)
	if err != nil {
		return -100
	}
	m := mv.(*notation.Move)
	seat := d.Seat
	switch m.Verb {
	case "PASS", "DONE", "NOBUY", "END":
		return 0
	case "STORE":
		id, err := s.resolve(seat, m.Dice[0], []int{position.LocAR}, false, nil)
		if err != nil {
			return -1
		}
		dd := &s.Dice[id]
		if dd.C != catalog.ColB && (dd.Value() >= 4 || t.helps(dd.C, dd.Value())) || dd.C == catalog.ColB && dd.Value() >= 4 {
			return 5 + float64(dd.Value())/10
		}
		return -1
	case "PLACE":
		v := s.botItem(seat, m.Items[0], t)
		if m.Then {
			v += 0.05 // keep the door open for a second item
		}
		return v
	case "PICK":
		id, err := s.resolve(seat, m.Dice[0], placeLocs, false, s.pickErr(nil))
		if err != nil {
			return -1
		}
		if dd := &s.Dice[id]; dd.Value() <= 2 {
			return 3 - float64(dd.Value())
		}
		if len(s.Picked) == 0 {
			return 0.5 - float64(s.Dice[id].Value())/10
		}
		return -1
	case "REROLL":
		return 0.1
	case "BUY":
		return s.botBuy(seat, m)
	case "BREW":
		return s.botBrew(seat, m)
	case "GET":
		if c := catalog.ColourIndex(m.Get[0]); c >= 0 {
			if t.wants(c) {
				return 3
			}
			return float64(s.Rules.XPColour[c])
		}
		switch m.Get[0] {
		case catalog.TokTAKE:
			return 1.5
		case catalog.TokPLUS:
			return 1.2
		}
		return 0.5
	case "PLAY":
		return s.botPlay(seat, m, d)
	}
	return -1
}

// botItem scores a placement item.
func (s *state) botItem(seat int, it notation.Item, t botTarget) float64 {
	if it.Up {
		switch it.Space {
		case catalog.SpMH1, catalog.SpHP1, catalog.SpMH2:
			return 0.9
		case catalog.SpMH3, catalog.SpHP2:
			return 0.5
		case catalog.SpDS3:
			return 0.3
		}
		return -1
	}
	if it.Seed {
		if (it.Space == catalog.SpMH1 && t.wants(catalog.ColY)) || (it.Space == catalog.SpHP1 && t.wants(catalog.ColG)) {
			return 2
		}
		return 1
	}
	id, err := s.resolve(seat, it.Die, placeLocs, false, nil)
	if err != nil {
		return -1
	}
	dd := &s.Dice[id]
	switch it.Space {
	case catalog.SpMH2:
		if t.used[id] || t.wants(catalog.ColY) {
			return -1
		}
		if t.wants(catalog.ColK) {
			return 1.2
		}
		return 0.2
	case catalog.SpMH3, catalog.SpHP2:
		if t.used[id] {
			return -1
		}
		v := 0.3
		if dd.L == position.LocAR {
			v = 0.9
		}
		if t.helps(dd.C, dd.Value()+s.Rules.ImproveBy) {
			v += 1.2
		}
		return v
	case catalog.SpSS1:
		low := 0
		for x := range s.Dice {
			if s.OwnUsable(seat)(x) && x != id && s.Dice[x].Value() <= 2 && !t.used[x] {
				low++
			}
		}
		return 0.4*float64(low) - 0.3
	case catalog.SpSS2:
		if it.Swap != nil && it.Swap.F <= 2 && t.wants(it.Swap.C) {
			return 0.8
		}
		return -0.5
	case catalog.SpSS3:
		return 1.2
	case catalog.SpDS3:
		blues := 0
		for x := range s.Dice {
			if s.Dice[x].O == seat && s.Dice[x].C == catalog.ColB {
				blues++
			}
		}
		if dd.C == catalog.ColB && blues >= 3 {
			return 0.6
		}
		return -1
	case catalog.SpDS2:
		if !t.used[id] && !t.wants(catalog.ColK) && s.P[seat].Seeds == 0 {
			return 0.1
		}
	}
	return -1
}

// botBuy scores a purchase.
func (s *state) botBuy(seat int, m *notation.Move) float64 {
	p := &s.P[seat]
	if i := s.Rules.Ingr(m.Code); i >= 0 {
		useful := 0.0
		for _, c := range s.Display {
			if c == "" {
				continue
			}
			rc := s.Card(c)
			for _, t := range rc.Tokens {
				if t == i && p.Ingr[i] == 0 {
					useful = max(useful, 2)
				}
			}
			for _, im := range rc.Improve {
				if im.Token == m.Code {
					useful = max(useful, 1.2)
				}
			}
		}
		if useful == 0 {
			return -1
		}
		if m.With != nil {
			useful += 0.5
		}
		return useful
	}
	if p.Coins >= 5 {
		switch m.Code {
		case catalog.TokPLUS, catalog.TokTAKE:
			return 0.8
		case catalog.TokBLOCKR:
			return 0.5
		}
	}
	return -1
}

// botBrew scores a brew by what it earns.
func (s *state) botBrew(seat int, m *notation.Move) float64 {
	rc := s.Card(m.Card)
	v := 10 + float64(s.Rules.BrewXP) + gainWorth(rc.Reward)
	if m.ImproveCode != "" || m.ImproveDie != nil {
		k := -1
		for j, im := range rc.Improve {
			if (m.ImproveCode != "" && im.Token == m.ImproveCode) || (m.ImproveDie != nil && im.Token == "") {
				k = j
			}
		}
		if k >= 0 {
			v += gainWorth(rc.BonusFor(k)) - 0.5
		}
	}
	for _, g := range m.Get {
		if g == "K" {
			v += 0.2
		}
	}
	return v
}

func gainWorth(g catalog.GainSpec) float64 {
	v := float64(g.XP) + float64(g.Coins)/2 + float64(g.Tokens)*0.8
	switch g.Die {
	case "K", "ANY":
		v += 2
	case "":
	default:
		v++
	}
	return v
}

// botPlay scores a token play: in W3, blocking or taking what an opponent
// needs for a brew the bot cannot make itself; PLUS when it makes a
// recipe brewable.
func (s *state) botPlay(seat int, m *notation.Move, d engine.Decision) float64 {
	if d.Kind != position.KindWindow || s.Step != position.StepW3 {
		if m.Token == catalog.TokPLUS {
			return s.plusHelps(seat, m)
		}
		return -1
	}
	switch m.Token {
	case catalog.TokBLOCKR:
		mine := s.brewable(seat, m.Card)
		theirs := false
		for o := range s.P {
			if o != seat && s.brewable(o, m.Card) {
				theirs = true
			}
		}
		if theirs && !mine {
			return 1 + gainWorth(s.Card(m.Card).Reward)/10
		}
	case catalog.TokTAKE:
		if m.Target != nil && m.Target.Seat >= 0 {
			o := m.Target.Seat
			before := s.countBrewable(o)
			c := s.clone()
			c.H.Rand.Blind()
			mv, err := c.Parse(seat, "PLAY "+m.Token+" "+m.Target.String())
			if err == nil {
				if _, err := c.Apply(seat, mv); err == nil && c.countBrewable(o) < before {
					return 1.5
				}
			}
		}
	case catalog.TokPLUS:
		return s.plusHelps(seat, m)
	}
	return -1
}

// plusHelps reports the value of a PLUS that makes a recipe brewable.
func (s *state) plusHelps(seat int, m *notation.Move) float64 {
	if s.Step != position.StepW3 || m.Target == nil {
		return -1
	}
	before := s.countBrewable(seat)
	c := s.clone()
	c.H.Rand.Blind()
	mv, err := c.Parse(seat, "PLAY PLUS "+m.Target.String())
	if err != nil {
		return -1
	}
	if _, err := c.Apply(seat, mv); err != nil {
		return -1
	}
	if c.countBrewable(seat) > before {
		return 2
	}
	return -1
}

func (s *state) countBrewable(seat int) int {
	n := 0
	for _, c := range s.Display {
		if s.brewable(seat, c) {
			n++
		}
	}
	return n
}
