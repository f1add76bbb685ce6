package referee

import (
	"strings"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// HELP for everything a mail shows (issue 22): a game whose state lists its
// cards (engine.Carder) answers HELP <code or name> with the card's name,
// kind, cost, effect and rule id, through its "card" template. A card is
// found by its id, the code players type, or its name in any of our
// languages, letters only and case-insensitive ("Head Brewer",
// "HEADBREWER", "HEAD_BREWER", "Mastro birraio").

// hasHelp reports whether topic is a command with help of its own.
func (gw *gameWork) hasHelp(seat int, topic string) bool {
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

// cardHelp renders the card a HELP topic names, if any.
func (gw *gameWork) cardHelp(seat int, topic string) (string, bool) {
	if gw.tb == nil {
		return "", false
	}
	cr, ok := gw.tb.State.(engine.Carder)
	if !ok {
		return "", false
	}
	rd := gw.reader(seat)
	card, ok := findCard(gw.w.r.render, rd, cr.Cards(), topic)
	if !ok {
		return "", false
	}
	t := gw.w.r.render.T
	if !t.Has(gw.g.Game, rd.Lang, "card") {
		return "", false
	}
	s, err := t.Render(gw.g.Game, rd.Lang, "card", gw.w.r.render.ctx(rd, card))
	if err != nil {
		return "", false
	}
	return templates.Fold(templates.Reflow(s, templates.Width)), true
}

// letters keeps the letters and digits of s, upper-cased.
func letters(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// findCard finds the card a topic names: by id or code first, then by its
// name in the reader's language, then in any language.
func findCard(r *Renderer, rd Reader, cards []engine.Card, topic string) (engine.Card, bool) {
	key := letters(topic)
	if key == "" {
		return engine.Card{}, false
	}
	for _, c := range cards {
		if letters(c.ID) == key || letters(c.Code) == key {
			return c, true
		}
	}
	for _, c := range cards {
		if c.Name != "" && letters(c.Name) == key {
			return c, true
		}
	}
	if r == nil || r.T == nil || !r.T.Has(rd.Game, rd.Lang, "card.name") {
		return engine.Card{}, false
	}
	for _, lg := range append([]string{rd.Lang}, templates.Languages...) {
		for _, c := range cards {
			n, err := r.T.Render(rd.Game, lg, "card.name", r.ctx(Reader{Game: rd.Game, Lang: lg}, c))
			if err == nil && letters(n) == key {
				return c, true
			}
		}
	}
	return engine.Card{}, false
}
