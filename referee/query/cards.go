package query

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// HELP for everything a mail shows (issue 22): a game whose state lists its
// cards (engine.Carder) answers HELP <code or name> with the card's name,
// kind, cost, effect and rule id, through its "card" template. The seat's
// door (referee/commands: HELP, FindCards) reads the topic; these answer
// it for a reader (rd: the game's scope and the seat's language).

// HasHelp reports whether topic is a command with help of its own: a
// keyword of the game or the referee, or an alias of one in the reader's
// language or any of ours, or a code with a number whose family has help
// (helpTopic).
func HasHelp(t *templates.Set, rd tell.Reader, topic string) bool {
	return hasTopic(t, rd, helpTopic(t, rd, topic))
}

// HelpWord is a HELP topic as the game's commands spell it (issue 22,
// HELP for every word a menu shows): a keyword alias or an argument word
// of the reader's language, then of any of ours (LAVORA is PROCESS,
// SAUTER is SKIP); else the topic unchanged.
func HelpWord(t *templates.Set, rd tell.Reader, topic string) string {
	for _, lg := range append([]string{rd.Lang}, templates.Languages...) {
		if kw := t.Alias(rd.Game, lg, topic); kw != topic {
			return kw
		}
	}
	if a := t.Arg(rd.Game, rd.Lang, topic); a != "" {
		return a
	}
	return topic
}

// CardHelp renders the cards a HELP topic names in st (a state that lists
// its cards), each with the game's "card" template, folded to the mail's
// width; false when st lists no cards, none is named or the game has no
// such template.
func CardHelp(rn *tell.Renderer, rd tell.Reader, st engine.State, topic string) (string, bool) {
	cr, ok := st.(engine.Carder)
	if !ok || st == nil {
		return "", false
	}
	cards := FindCards(rn, rd, cr.Cards(), topic)
	if len(cards) == 0 || !rn.T.Has(rd.Game, rd.Lang, "card") {
		return "", false
	}
	var parts []string
	for _, c := range cards {
		s, err := rn.T.Render(rd.Game, rd.Lang, "card", rn.Ctx(rd, c))
		if err != nil {
			return "", false
		}
		parts = append(parts, templates.Fold(templates.Reflow(s, templates.Width)))
	}
	return strings.Join(parts, "\n"), true
}

// FindCards finds the cards a topic names (commands.FindCards): by id or
// code, by name in the data file, then by the game's card.name template in
// the reader's language, then in any.
func FindCards(rn *tell.Renderer, rd tell.Reader, cards []engine.Card, topic string) []engine.Card {
	var name func(lang string, c engine.Card) (string, bool)
	if rn != nil && rn.T != nil && rn.T.Has(rd.Game, rd.Lang, "card.name") {
		name = func(lg string, c engine.Card) (string, bool) {
			n, err := rn.T.Render(rd.Game, lg, "card.name", rn.Ctx(tell.Reader{Game: rd.Game, Lang: lg}, c))
			return n, err == nil
		}
	}
	return commands.FindCards(cards, topic, append([]string{rd.Lang}, templates.Languages...), name)
}
