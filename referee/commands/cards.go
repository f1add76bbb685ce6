package commands

import (
	"strings"
	"unicode"

	"github.com/pbem-referee/referee/engine"
)

// HELP for everything a mail shows (issue 22): a game whose state lists its
// cards (engine.Carder) answers HELP <code or name> with the card. A card is
// found by its id, the code players type, or its name in any of the
// languages, letters only and case-insensitive ("Head Brewer",
// "HEADBREWER", "HEAD_BREWER", "Mastro birraio").

// Letters keeps the letters and digits of s, upper-cased.
func Letters(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// FindCards finds the cards a topic names: by id or code first (a code
// may name two things: CASH, a start space and a privilege card), then by
// name in the data file, then by the name each language in langs gives it
// (name; nil when the game names no card in templates), the reader's first.
func FindCards(cards []engine.Card, topic string, langs []string, name func(lang string, c engine.Card) (string, bool)) []engine.Card {
	key := Letters(topic)
	if key == "" {
		return nil
	}
	var out []engine.Card
	for _, c := range cards {
		if Letters(c.ID) == key || Letters(c.Code) == key {
			out = append(out, c)
		}
	}
	for _, c := range cards {
		if len(out) == 0 && c.Name != "" && Letters(c.Name) == key {
			out = append(out, c)
		}
	}
	if len(out) > 0 || name == nil {
		return out
	}
	for _, lg := range langs {
		for _, c := range cards {
			if n, ok := name(lg, c); ok && Letters(n) == key {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}
