package reading

import (
	"strings"

	"github.com/pbem-referee/referee/templates"
)

// freeText are the commands whose arguments are the player's own words,
// never argument keywords.
var freeText = map[string]bool{"SAY": true, "VACATION": true}

// CanonLine is a command line in the engine's words: its keyword and
// argument words as the player may write them in any language (the
// player's first), mapped.
func (v Vocab) CanonLine(lang, line string) string {
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	up := strings.ToUpper(word)
	for _, lg := range append([]string{lang}, templates.Languages...) {
		if kw := v.T.Alias(v.Name, lg, up); kw != up {
			up = kw
			break
		}
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		return up + " " + v.localArgs(lang, up, rest)
	}
	return up
}

// localArgs reads the argument words of a command line written in the
// player's language (PIAZZA MH1 SEME, NOTIFICHE ogni, MAKE F34 TIENI) as
// the words the engine and the referee read (SEED, EVERY, KEEP): the
// reader's language first, then any other; English is always accepted and
// unknown words are kept as written (issue 12.7).
func (v Vocab) localArgs(lang, kw, rest string) string {
	if freeText[kw] {
		return rest
	}
	return templates.ArgLine(rest, func(w string) string {
		if a := v.T.Arg(v.Name, lang, w); a != "" {
			return a
		}
		return w
	})
}

// localElseLine rewrites a line ending in ELSE PASS in any language
// ("ALTRIMENTI PASSA", "SINON PASSE", "ANDERS PAS") to the "ELSE PASS" the
// engine's script syntax reads (issue 12.7); any other line is returned
// as it is.
func (v Vocab) localElseLine(l string) string {
	body, comment, hasComment := strings.Cut(l, "#")
	f := strings.Fields(body)
	// ELSE in any language (templates/common/*/args.txt).
	if len(f) < 3 || v.T.Arg(v.Name, "en", f[len(f)-2]) != "ELSE" && !strings.EqualFold(f[len(f)-2], "ELSE") {
		return l
	}
	pass := strings.ToUpper(f[len(f)-1])
	for _, lg := range templates.Languages {
		if kw := v.T.Alias(v.Name, lg, pass); kw != pass {
			pass = kw
			break
		}
	}
	if pass != "PASS" {
		return l
	}
	l = strings.Join(append(f[:len(f)-2], "ELSE", "PASS"), " ")
	if hasComment {
		l += " #" + comment
	}
	return l
}

// bare is a line as an order's Text quotes it (engine.ParseScript): its
// comment cut, its spaces collapsed.
func bare(l string) string {
	if k := strings.IndexByte(l, '#'); k >= 0 {
		l = l[:k]
	}
	return strings.Join(strings.Fields(l), " ")
}
