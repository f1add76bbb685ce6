package tell

import (
	"strings"
	"sync"
	"unicode"

	"github.com/pbem-referee/referee/templates"
)

// wordFuncs are the Word and Arg functions of a template context, made
// once a game and language and shared by every rendering after (issue 24:
// a round of 5,000 games made two closures a rendering, ~12,000 of them
// at 1,000 entrants). A Renderer may tell from several goroutines.
type wordFuncs struct {
	mu  sync.RWMutex
	set *templates.Set
	all []gameWords
}

// gameWords are the functions of one game and language.
type gameWords struct {
	game, lang string
	word, arg  func(string) string
}

// of returns the Word and Arg functions of game in lang over t.
func (f *wordFuncs) of(t *templates.Set, game, lang string) (word, arg func(string) string) {
	f.mu.RLock()
	if f.set == t {
		for _, g := range f.all {
			if g.game == game && g.lang == lang {
				f.mu.RUnlock()
				return g.word, g.arg
			}
		}
	}
	f.mu.RUnlock()
	word = func(kw string) string { return t.Word(game, lang, kw) }
	arg = func(w string) string { return t.ArgWord(game, lang, w) }
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.set != t {
		f.set, f.all = t, nil
	}
	f.all = append(f.all, gameWords{game: game, lang: lang, word: word, arg: arg})
	return word, arg
}

// oneSpaced is line with its words separated by one space and no space at
// either end: strings.Join(strings.Fields(line), " "), with no copy when
// line is already so (a menu's option names, issue 24).
func oneSpaced(line string) string {
	prev := ' '
	for i, r := range line {
		if unicode.IsSpace(r) && (r != ' ' || prev == ' ' || i+1 == len(line)) {
			return strings.Join(strings.Fields(line), " ")
		}
		prev = r
	}
	return line
}

// writePad writes the spaces that pad s to n runes (padRunes without the
// copy of s).
func writePad(b *strings.Builder, s string, n int) {
	for range padCount(s, n) {
		b.WriteByte(' ')
	}
}
