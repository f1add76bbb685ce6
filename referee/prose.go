package referee

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// blockWords are the words of engine.ParseScript's multi-line blocks.
var blockWords = map[string]bool{"NEXT": true, "OR": true, "END": true}

// isKeyword reports whether an upper-cased word is a command keyword of the
// referee or of any game, or an alias of one in any language. It is what
// mailfmt needs to never read a command line as part of a quote header,
// before the game of the mail is known.
func (r *Referee) isKeyword(w string) bool {
	if refereeCommands[w] || blockWords[w] {
		return true
	}
	if r.render != nil && r.render.T != nil {
		// The referee's own words (templates/referee/*/aliases.txt: the
		// tournament commands) in every language.
		for _, lang := range templates.Languages {
			if r.render.T.Alias("referee", lang, w) != w {
				return true
			}
		}
	}
	for _, g := range engine.Games() {
		info := g.Info()
		for _, c := range info.Commands {
			if strings.EqualFold(c, w) {
				return true
			}
		}
		if r.render != nil && r.render.T != nil {
			for _, lang := range templates.Languages {
				if r.render.T.Alias(info.Name, lang, w) != w {
					return true
				}
			}
		}
	}
	return false
}

// memoKeyword remembers the answers of a keyword test for one message.
func memoKeyword(f func(string) bool) func(string) bool {
	seen := map[string]bool{}
	return func(w string) bool {
		v, ok := seen[w]
		if !ok {
			v = f(w)
			seen[w] = v
		}
		return v
	}
}

// ignoredInfo is the reply's list of ignored lines.
func (gw seatMail) ignoredInfo(seat int, ignored []string) {
	if len(ignored) == 0 {
		return
	}
	rep := gw.reply(seat)
	rep.Info = append(rep.Info, gw.text(seat, "info.ignored", map[string]any{"n": len(ignored), "lines": ignored}))
}
