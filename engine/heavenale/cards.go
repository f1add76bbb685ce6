package heavenale

import (
	"github.com/pbem-referee/referee/engine"
)

// Cards implements engine.Carder (issue 22): every code a Heaven & Ale mail
// shows as structured facts (resource tiles, monks, privilege cards, start
// spaces, scoring spots and disc spaces, resources, barrel goals, garden
// spots and shed sites, shed types); the referee answers HELP <code or
// name> with them, in the words of templates/heavenale/<lang>/cards.tmpl.
// Codes may name two things (CASH is a start space and a privilege card;
// WO a resource and a scoring spot): HELP shows each.
func (s *State) Cards() []engine.Card { return s.r.Cards() }
