package brewcrafters

import (
	"github.com/pbem-referee/referee/engine"
)

// Cards (issue 22): every worker, building, partnership, market space,
// recipe, research track, collaboration portion and ingredient of the data
// file, as structured facts. The referee answers HELP <code or name> with
// them and the menus describe every option with them; the words are the
// templates' (templates/brewcrafters/<lang>/cards.tmpl). A Card's Code is
// what a player types: never an internal id with underscores.

// Cards implements engine.Carder.
func (s *State) Cards() []engine.Card {
	cs := s.r.CardSet(s.opt("research_side"))
	return append([]engine.Card(nil), cs.List...)
}
