package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// schema is the version of the state layout below.
const schema = 1

// state is a game of Dice Brewing in progress: its position (the data,
// stored as JSON, and the questions it answers) and the events of the move
// being applied.
type state struct {
	position.Position
	ev []engine.Event
}

// Head implements engine.State.
func (s *state) Head() *engine.Header { return &s.H }

// Clone implements engine.State.
func (s *state) Clone() engine.State { return s.clone() }

func (s *state) clone() *state {
	c := *s
	c.H = s.H.Clone()
	c.Picked = cloneInts(s.Picked)
	if s.Reward != nil {
		r := *s.Reward
		r.Needs = append([]string(nil), s.Reward.Needs...)
		c.Reward = &r
	}
	c.Dice = append([]position.Die(nil), s.Dice...)
	c.Market = cloneInts(s.Market)
	c.BM = cloneInts(s.BM)
	c.Removed = cloneInts(s.Removed)
	c.Display = cloneStrings(s.Display)
	c.Deck = cloneStrings(s.Deck)
	c.BlockedR = cloneStrings(s.BlockedR)
	c.BlockRBy = cloneInts(s.BlockRBy)
	c.P = make([]position.Player, len(s.P))
	for i := range s.P {
		p := s.P[i]
		p.Ingr = cloneInts(p.Ingr)
		p.Tok = cloneInts(p.Tok)
		p.Brewed = cloneStrings(p.Brewed)
		c.P[i] = p
	}
	c.ev = nil
	return &c
}

func cloneInts(x []int) []int {
	if x == nil {
		return nil
	}
	return append([]int(nil), x...)
}

func cloneStrings(x []string) []string {
	if x == nil {
		return nil
	}
	return append([]string(nil), x...)
}

// emit records an event of the move being applied.
func (s *state) emit(e engine.Event) { s.ev = append(s.ev, e) }

// pub records a public event.
func (s *state) pub(typ string, seat int, kv ...any) {
	s.emit(engine.NewEvent(typ, seat, engine.Public, kv...))
}

// toSupply returns a die to the supply, clearing its marks.
func (s *state) toSupply(id int) {
	s.Dice[id] = position.Die{C: s.Dice[id].C, O: -1, L: position.LocSupply}
}

// roll rolls a die (kind "dice") and marks it rolled this round while
// rolls can still earn unlucky-roll credit (Phases 1 and 2, DB-5.2.2).
func (s *state) roll(id int) int {
	v := s.H.Rand.Roll("dice", s.Rules.Faces)
	d := &s.Dice[id]
	d.F = v
	if s.Step == position.StepW0 || s.Step == position.StepPlace || s.Step == position.StepBuy {
		d.R = true
	}
	return v
}
