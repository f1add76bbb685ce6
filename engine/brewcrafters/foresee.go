package brewcrafters

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// Foresee implements engine.Foreseer (issue 12.6): the error a line is
// certain to meet whenever its turn comes, so that the Table reports it,
// with its rule, when the message arrives instead of queueing a line that
// can only fail. Only what never changes back is foreseen:
//
//   - a Market keyword no space in play has (BC-3.2: the spaces are laid
//     out at setup);
//   - Collaboration in a 2-player game (BC-3.4);
//   - a Brewery action that installs a building the seat has already
//     installed (BC-5.8.2: nothing is ever removed), or researches a track
//     whose cube is at its end (BC-5.7.1: cubes only move right).
//
// A Market space used this season (BC-5.2.3) is not foreseen: a ranked
// list ("M HOPS > MALT", BC-10.2) is split into alternatives, and the
// Table refuses a message when any alternative is known to fail, so a
// taken later choice would refuse a list the rules play.
func (s *State) Foresee(seat int, slot, line string) *engine.RuleError {
	if seat < 0 || seat >= len(s.P) {
		return nil
	}
	m, ok := engine.ParsedMove[*notation.Move](s, seat, line)
	if !ok {
		return nil
	}
	as := func(err error) *engine.RuleError {
		re, _ := engine.AsRuleError(err)
		return re
	}
	switch m.Verb {
	case "M":
		for _, sp := range s.Spaces {
			if m.Space != "" && sp.ID != m.Space {
				continue
			}
			for _, h := range s.r.Spaces[sp.ID].Half {
				if h.Kw == m.Kw {
					return nil
				}
			}
		}
		return engine.Reject("BC-3.2", "space_not_in_play", "space", m.Space+" "+m.Kw)
	case "B", "ANNUAL":
		p := &s.P[seat]
		for _, pt := range m.Parts {
			switch pt.Verb {
			case "COLLAB":
				if s.Collab == nil {
					return engine.Reject("BC-3.4", "no_collab_2p")
				}
			case "INSTALL":
				if pt.Bld != "HOPS_INFUSER" && p.has(pt.Bld) {
					return as(s.canInstall(p, pt.Bld))
				}
			case "RESEARCH":
				if m.Verb == "B" && p.Research[pt.Track] >= stGameEnd {
					return engine.Reject("BC-5.7.1", "track_end", "track", catalog.TrackNames[pt.Track])
				}
			}
		}
	}
	return nil
}
