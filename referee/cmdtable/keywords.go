package cmdtable

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// BlockWords are the words of engine.ParseScript's multi-line blocks.
var BlockWords = map[string]bool{"NEXT": true, "OR": true, "END": true}

// ReadingWords are the referee's own keywords the reading of a mail knows
// (referee/reading's Vocab.Referee): the seat's commands and the script's
// block words.
var ReadingWords = func() map[string]bool {
	m := map[string]bool{}
	for kw := range SeatKeywords {
		m[kw] = true
	}
	for kw := range BlockWords {
		m[kw] = true
	}
	return m
}()

// IsKeyword reports whether an upper-cased word is a command keyword of the
// referee or of any game, or an alias of one in any language (t: the
// templates whose aliases count; nil, none). It is what mailfmt needs to
// never read a command line as part of a quote header, before the game of
// the mail is known.
func IsKeyword(t *templates.Set, w string) bool {
	if SeatKeywords[w] || BlockWords[w] {
		return true
	}
	aliased := func(scope string) bool {
		if t == nil {
			return false
		}
		for _, lang := range templates.Languages {
			if t.Alias(scope, lang, w) != w {
				return true
			}
		}
		return false
	}
	// The referee's own words (templates/referee/*/aliases.txt: the
	// tournament commands) in every language.
	if aliased("referee") {
		return true
	}
	for _, g := range engine.Games() {
		info := g.Info()
		for _, c := range info.Commands {
			if strings.EqualFold(c, w) {
				return true
			}
		}
		if aliased(info.Name) {
			return true
		}
	}
	return false
}

// HelpRows renders the rows of a help list for a reader: the commands the
// table lists for an audience (and family, when not ""), in order, each
// its row's template (templates/referee).
func HelpRows(rn *tell.Renderer, rd tell.Reader, who Audience, family string, data map[string]any) ([]string, error) {
	var rows []string
	for _, c := range Listed(who, family) {
		t, err := rn.T.Render("referee", rd.Lang, c.ListRow(), rn.Ctx(rd, data))
		if err != nil {
			return nil, err
		}
		rows = append(rows, t)
	}
	return rows, nil
}

// KnownIn reports whether an upper-cased word is a command of the referee
// (a seat's keyword) or of game (nil: none), or an alias of one in any
// language (the aliases of the referee's scope and of scope, the game's:
// t, nil for none). A line starting with such a word looks like a command.
func KnownIn(t *templates.Set, game engine.Game, scope, w string) bool {
	if w == "" {
		return false
	}
	if SeatKeywords[w] {
		return true
	}
	if game != nil {
		for _, c := range game.Info().Commands {
			if strings.EqualFold(c, w) {
				return true
			}
		}
	}
	if t == nil {
		return false
	}
	for _, lang := range templates.Languages {
		if t.Alias(scope, lang, w) != w || t.Alias("referee", lang, w) != w {
			return true
		}
	}
	return false
}

// KnownInAny reports whether an upper-cased word is a command of the
// referee or of any of games, or an alias of one in any language (KnownIn
// of each): a line starting with it looks like a command whatever the
// game (an out-of-office subject never hides it, issue 11.5).
func KnownInAny(t *templates.Set, games []engine.Game, w string) bool {
	if KnownIn(t, nil, "referee", w) {
		return true
	}
	for _, g := range games {
		if KnownIn(t, g, g.Info().Name, w) {
			return true
		}
	}
	return false
}

// OrgHelp renders the organiser's help (name "org.help") or the answer to
// an organiser who wrote to the plain address ("org.hello") in lang: the
// rows of the organiser's game commands and of the tournaments' (HelpRows,
// in the table's order), the games (their names) and the organiser's own
// address (addr, "" when they have none).
func OrgHelp(rn *tell.Renderer, lang, name, addr string, games []string) (string, error) {
	rd := tell.Reader{Game: "referee", Lang: lang, Seat: -1}
	data := map[string]any{"address": addr, "games": games}
	rows, err := HelpRows(rn, rd, Organiser, FamOrgGames, data)
	if err != nil {
		return "", err
	}
	tour, err := HelpRows(rn, rd, Organiser, FamOrgTournaments, data)
	if err != nil {
		return "", err
	}
	data["rows"], data["tour_rows"] = rows, tour
	return rn.T.Render("referee", lang, name, rn.Ctx(rd, data))
}
