package cmdtable

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/templates"
)

// keywordSets are the Keywords of each templates Set and count of games
// registered (a test registers a game of its own after others have read).
var keywordSets sync.Map // keywordSetKey -> *mailfmt.Keywords

type keywordSetKey struct {
	t     *templates.Set
	games int
}

// KeywordSet is the words IsKeyword(t, w) is true for, as mailfmt's
// readers of prose hold them (issue 25: a map instead of asking every
// language's aliases of every game for each word, and a typo guard that
// compares with the keywords instead of trying every spelling): Is
// answers as IsKeyword(t, w) for every word, by a map for a word in
// capitals. Made once per Set and count of games (engine.GameCount: a
// found set costs no list of the games, issue 25).
func KeywordSet(t *templates.Set) *mailfmt.Keywords {
	key := keywordSetKey{t, engine.GameCount()}
	if k, ok := keywordSets.Load(key); ok {
		return k.(*mailfmt.Keywords)
	}
	games := engine.Games()
	key.games = len(games)
	k, _ := keywordSets.LoadOrStore(key, newKeywords(t, games))
	return k.(*mailfmt.Keywords)
}

// newKeywords gathers every word IsKeyword may be true for
// (keywordCandidates) and keeps those it is true for; any other word is
// asked of IsKeyword unless the set decides it (setDecides).
func newKeywords(t *templates.Set, games []engine.Game) *mailfmt.Keywords {
	cands, plain := keywordCandidates(t, games)
	set := map[string]bool{}
	var words []string
	for w := range cands {
		if IsKeyword(t, w) {
			set[w] = true
			words = append(words, w)
		}
	}
	return mailfmt.NewKeywords(words, func(w string) bool {
		if set[w] {
			return true
		}
		return !(plain && setDecides(w)) && IsKeyword(t, w)
	})
}

// keywordCandidates are the words IsKeyword may be true for: the seat's
// and block words, the aliases Set.Alias reads of the referee's, the
// common and each game's scope in every language, each game's commands;
// plain says every game's commands are in capitals of ASCII.
func keywordCandidates(t *templates.Set, games []engine.Game) (cands map[string]bool, plain bool) {
	cands, plain = map[string]bool{}, true
	for w := range SeatKeywords {
		cands[w] = true
	}
	for w := range BlockWords {
		cands[w] = true
	}
	scopes := []string{"referee", "common"}
	for _, g := range games {
		scopes = append(scopes, g.Info().Name)
		for _, c := range g.Info().Commands {
			cands[c] = true
			plain = plain && plainUpper(c)
		}
	}
	if t != nil {
		for _, scope := range scopes {
			for _, lang := range templates.Languages {
				for w := range t.Aliases(scope, lang) {
					cands[w] = true
				}
			}
		}
	}
	return cands, plain
}

// setDecides reports a word IsKeyword is true for only when it is one of
// the words gathered, when every game's commands are in capitals of ASCII:
// a word in capitals (Set.Alias reads it as it is) none of whose letters
// strings.EqualFold matches with a letter of ASCII (the Kelvin sign with
// K: a game's command is matched without regard to case).
func setDecides(w string) bool {
	for _, r := range w {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				return false
			}
			continue
		}
		if unicode.ToUpper(r) != r {
			return false
		}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf {
				return false
			}
		}
	}
	return true
}

// plainUpper reports a word of ASCII with no lower-case letter.
func plainUpper(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || 'a' <= c && c <= 'z' {
			return false
		}
	}
	return true
}
