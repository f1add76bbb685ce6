package tell

import "github.com/pbem-referee/referee/engine"

// HookLines are the words of one change for a game's webhooks (package
// referee/hooks builds the calls from them): what a spectator may see,
// in English.
type HookLines struct {
	// Events are the public copies of the steps' events, Moves their lines.
	Events []engine.Event
	Moves  []string
	// Org are the public announcements (note.<name>), Chat what was said
	// to everybody (SAY ALL).
	Org, Chat []string
}

// Hooks renders the webhooks' lines of a change for rd (a spectator: seat
// -1): the public events of steps, and of notes the announcements to every
// seat and the chat said to all. A private announcement or a private SAY
// never leaves.
func (r *Renderer) Hooks(rd Reader, steps []engine.Step, notes []Note) (HookLines, error) {
	var hl HookLines
	for _, s := range steps {
		rd := rd.at(s.Token)
		for _, ev := range s.Events {
			e, ok := ev.For(-1)
			if !ok {
				continue
			}
			hl.Events = append(hl.Events, e)
			line, _, err := r.Event(rd, ev)
			if err != nil {
				return hl, err
			}
			hl.Moves = append(hl.Moves, line)
		}
	}
	for _, n := range notes {
		say := n.Name == "say"
		if all, _ := n.Data["all"].(bool); say && !all || !say && n.Seats != nil {
			continue // only what was said to everybody; private announcements never leave
		}
		text, err := r.T.Render("referee", "en", "note."+n.Name, r.Ctx(rd, n.Data))
		if err != nil {
			return hl, err
		}
		if say {
			hl.Chat = append(hl.Chat, text)
		} else {
			hl.Org = append(hl.Org, text)
		}
	}
	return hl, nil
}
