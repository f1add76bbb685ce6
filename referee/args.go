package referee

import "github.com/pbem-referee/referee/templates"

// freeText are the commands whose arguments are the player's own words,
// never argument keywords.
var freeText = map[string]bool{"SAY": true, "VACATION": true}

// localArgs reads the argument words of a command line written in the
// player's language (PIAZZA MH1 SEME, NOTIFICHE ogni, MAKE F34 TIENI) as
// the words the engine and the referee read (SEED, EVERY, KEEP): the
// reader's language first, then any other; English is always accepted and
// unknown words are kept as written (issue 12.7).
func (gw seatMail) localArgs(lang, kw, rest string) string {
	if freeText[kw] {
		return rest
	}
	t := gw.w.r.render.T
	return templates.ArgLine(rest, func(w string) string {
		if a := t.Arg(gw.g.Game, lang, w); a != "" {
			return a
		}
		return w
	})
}
