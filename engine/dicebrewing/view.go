package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
)

// View implements engine.State: what one seat may see (§10.4, DB-6.2 to
// DB-6.6), a view.View built by engine/dicebrewing/view.
func (s *state) View(seat int) any { return s.ViewAdjudicated(seat, s.Adjudicate()) }

// ViewAdjudicated implements engine.AdjudicatedViewer: View(seat), with
// adj the result of Adjudicate for s (the Projected scores, the same for
// every seat).
func (s *state) ViewAdjudicated(seat int, adj *engine.Result) any {
	now := view.Now{Result: s.Result(), Adjudicated: adj}
	if s.Cur >= 0 {
		now.Kind = s.kind()
		if s.Cur == seat {
			now.Mine = s.decision()
		}
	}
	return view.Build(&s.Position, s, seat, now)
}
