package referee

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/templates"
)

// HELP for everything a mail shows (issue 22): a game whose state lists its
// cards (engine.Carder) answers HELP <code or name> with the card's name,
// kind, cost, effect and rule id, through its "card" template. The seat's
// door (referee/commands: HELP, FindCards) reads the topic; these render
// it.

// hasHelp reports whether topic is a command with help of its own.
func (gw seatMail) hasHelp(seat int, topic string) bool {
	rd := gw.reader(seat)
	t := gw.w.r.render.T
	for _, lg := range append([]string{rd.Lang}, templates.Languages...) {
		if kw := t.Alias(gw.g.Game, lg, topic); kw != topic {
			topic = kw
			break
		}
	}
	return t.Has(gw.g.Game, rd.Lang, "help."+topic) || t.Has("referee", rd.Lang, "help."+topic)
}

// helpWord is a HELP topic as the game's commands spell it (issue 22,
// HELP for every word a menu shows): a keyword alias or an argument word
// of the reader's language, then of any of ours (LAVORA is PROCESS,
// SAUTER is SKIP); else the topic unchanged.
func (gw *gameWork) helpWord(seat int, topic string) string {
	rd := gw.reader(seat)
	t := gw.w.r.render.T
	for _, lg := range append([]string{rd.Lang}, templates.Languages...) {
		if kw := t.Alias(gw.g.Game, lg, topic); kw != topic {
			return kw
		}
	}
	if a := t.Arg(gw.g.Game, rd.Lang, topic); a != "" {
		return a
	}
	return topic
}

// cardHelp renders the card a HELP topic names, if any.
func (gw seatMail) cardHelp(seat int, topic string) (string, bool) {
	if gw.tb == nil {
		return "", false
	}
	cr, ok := gw.tb.State.(engine.Carder)
	if !ok {
		return "", false
	}
	rd := gw.reader(seat)
	cards := findCards(gw.w.r.render, rd, cr.Cards(), topic)
	t := gw.w.r.render.T
	if len(cards) == 0 || !t.Has(gw.g.Game, rd.Lang, "card") {
		return "", false
	}
	var parts []string
	for _, c := range cards {
		s, err := t.Render(gw.g.Game, rd.Lang, "card", gw.w.r.render.ctx(rd, c))
		if err != nil {
			return "", false
		}
		parts = append(parts, templates.Fold(templates.Reflow(s, templates.Width)))
	}
	return strings.Join(parts, "\n"), true
}

// findCards finds the cards a topic names (commands.FindCards): by id or
// code, by name in the data file, then by the game's card.name template in
// the reader's language, then in any.
func findCards(r *Renderer, rd Reader, cards []engine.Card, topic string) []engine.Card {
	var name func(lang string, c engine.Card) (string, bool)
	if r != nil && r.T != nil && r.T.Has(rd.Game, rd.Lang, "card.name") {
		name = func(lg string, c engine.Card) (string, bool) {
			n, err := r.T.Render(rd.Game, lg, "card.name", r.ctx(Reader{Game: rd.Game, Lang: lg}, c))
			return n, err == nil
		}
	}
	return commands.FindCards(cards, topic, append([]string{rd.Lang}, templates.Languages...), name)
}
