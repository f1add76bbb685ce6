package brewcrafters

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
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

// workerID resolves a worker's id or its code without underscores
// (HEADBREWER is HEAD_BREWER: the code the mails show, issue 22).
func (s *State) workerID(t string) string {
	if s.r.Workers[t] != nil {
		return t
	}
	for _, w := range s.r.Worker {
		if catalog.ShortCode(w.ID) == t {
			return w.ID
		}
	}
	return t
}
