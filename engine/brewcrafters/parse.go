package brewcrafters

import (
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// Parse implements engine.State: the line's words read by the game's
// notation (notation.go).
func (s *State) Parse(seat int, line string) (engine.Move, error) {
	return notation.ParseLine(s.r, line)
}

// cmd is the canonical text of a move.
func (s *State) cmd(m *notation.Move) string { return m.Text(s.r) }

// slotName is the queue slot of a phase of a season.
func slotName(season int, kind string) string { return fmt.Sprintf("s%d.%s", season, kind) }

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
		if notation.FreeVerbs[v] || v == "SET" {
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
		case notation.FreeVerbs[v]:
			o.Slot = ""
			for j := i + 1; j < len(orders); j++ {
				w := orderVerb(orders[j])
				if !notation.FreeVerbs[w] && slotOf(w) != "" {
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
