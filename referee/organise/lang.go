package organise

// The organiser's words. An organiser has no language of their own: every
// keyword of the table (and the sub-keywords TOURNAMENT after NEW, open
// after NEW, listed and off after PUBLISH) is read in any of the
// languages, from the templates (templates/organise/<lang>/aliases.txt
// and args.txt, then the common ones, then the tournaments' aliases of
// templates/referee/<lang>/aliases.txt), never from a Go map; and the
// answer to a mail is in the language its words are written in (an
// Italian keyword such as AVVIA or AIUTO makes it Italian), else the
// language of a tournament it names (lang= at NEW TOURNAMENT), else
// English (issue 16, issue 22).

import (
	"regexp"
	"strings"

	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// Scope is the templates' scope of the organiser's keywords and argument
// words (templates/organise/<lang>/).
const Scope = "organise"

// Keyword is the organiser's keyword a word stands for in any language
// ("" when none): the core's pre-draw of START reads it.
func Keyword(w Words, word string) string { return keyword(w, word) }

// StartsNamed are the tournaments an organiser's text STARTs (the keyword
// in any language; comment lines skipped), their ids lower-cased, in the
// text's order: the core draws their round 1 on a snapshot, outside the
// write lock, before the unit of work (issue 24).
func StartsNamed(w Words, text string) []string {
	var ids []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if Keyword(w, f[0]) == "START" {
			ids = append(ids, strings.ToLower(f[1]))
		}
	}
	return ids
}

// keyword is the canonical keyword of the table a word stands for, in
// any language, or "" when it is none.
func keyword(w Words, word string) string {
	up := strings.ToUpper(word)
	if byKeyword[up] != nil {
		return up
	}
	for _, lang := range w.Languages() {
		for _, scope := range []string{Scope, "referee"} {
			if kw := w.Alias(scope, lang, up); kw != up && byKeyword[kw] != nil {
				return kw
			}
		}
	}
	return ""
}

// localWord is the word an organiser writing in lang reads for keyword
// kw of the table (the organiser's scope's, then the tournaments' of the
// referee's scope, then the common ones': NUOVA for NEW in Italian), kw
// itself when lang has none; keyword reads it back as kw
// (TestCommandListInTheReadersWords_Issue25).
func localWord(w Words, lang, kw string) string {
	for _, scope := range []string{Scope, "referee"} {
		if x := w.Word(scope, lang, kw); x != kw {
			return x
		}
	}
	return kw
}

// aliasLang is the one language other than English whose organiser's
// words have word as a keyword's word, or "" (an English keyword, no
// keyword, or a word several languages share, as FORFAIT).
func aliasLang(w Words, word string) string {
	up := strings.ToUpper(word)
	if byKeyword[up] != nil {
		return ""
	}
	found := ""
	for _, lang := range w.Languages()[1:] {
		hit := false
		for _, scope := range []string{Scope, "referee"} {
			if kw := w.Alias(scope, lang, up); kw != up && byKeyword[kw] != nil && !englishAlias(w, up) {
				hit = true
			}
		}
		if hit {
			if found != "" {
				return ""
			}
			found = lang
		}
	}
	return found
}

// englishAlias reports whether word is an English alias of a keyword
// ("?" for HELP): it says nothing of a language.
func englishAlias(w Words, up string) bool {
	for _, scope := range []string{Scope, "referee"} {
		if w.Alias(scope, "en", up) != up {
			return true
		}
	}
	return false
}

// subKeyword is the canonical word an argument stands for when it is one
// of want (in any language: "TORNEO" is TOURNAMENT), or "".
func subKeyword(w Words, scope, word string, want ...string) string {
	up := strings.ToUpper(word)
	canon, _ := w.ArgLanguage(scope, up)
	if canon == "" {
		canon = up
	}
	for _, x := range want {
		if canon == x {
			return x
		}
	}
	return ""
}

// canonical rewrites a line's words in English where the table reads
// them: the keyword, and the sub-keywords of NEW and PUBLISH. HELP
// TOURNAMENT keeps its word (the desk answers in its language).
func canonical(w Words, f []string) []string {
	kw := keyword(w, f[0])
	if kw == "" {
		return f
	}
	f[0] = kw
	switch kw {
	case "NEW":
		if len(f) > 1 && subKeyword(w, "tournament", f[1], "TOURNAMENT") != "" {
			f[1] = "TOURNAMENT"
			break
		}
		for i := 2; i < len(f); i++ {
			if !strings.Contains(f[i], "=") && subKeyword(w, Scope, f[i], "OPEN") != "" {
				f[i] = "open"
			}
		}
	case "PUBLISH":
		if len(f) == 3 {
			if s := subKeyword(w, Scope, f[2], "LISTED", "OFF"); s != "" {
				f[2] = strings.ToLower(s)
			}
		}
	}
	return f
}

// MailLang returns the language of the answer to an organiser's
// commands (text: the mail's command text; rec: the tournaments).
func MailLang(w Words, rec bymail.Records, text string) string {
	var named string
	asked := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lang := aliasLang(w, f[0]); lang != "" {
			return lang
		}
		if named != "" {
			continue
		}
		// NEW TOURNAMENT <id> ... lang=xx, or a command naming a
		// tournament that has a language.
		if keyword(w, f[0]) == "NEW" && len(f) > 2 && subKeyword(w, "tournament", f[1], "TOURNAMENT") != "" {
			for _, a := range f[3:] {
				if k, v, ok := strings.Cut(a, "="); ok && strings.EqualFold(k, "lang") && isLanguage(w, strings.ToLower(v)) {
					named = strings.ToLower(v)
				}
			}
			continue
		}
		if len(f) > 1 && !asked[strings.ToLower(f[1])] && rec != nil {
			// Once an id: a mail of 500 ENTER lines decoded the
			// tournament's record 500 times (issue 24).
			asked[strings.ToLower(f[1])] = true
			if lang := bymail.OrgLang(rec, f[1]); lang != "" {
				named = lang
			}
		}
	}
	if named != "" {
		return named
	}
	return "en"
}

func isLanguage(w Words, lang string) bool {
	for _, l := range w.Languages() {
		if l == lang {
			return true
		}
	}
	return false
}

// usageRe finds a usage error in a result line: "KW: usage: <syntax>",
// perhaps followed by what was not understood ("; not \"loudly\"").
var usageRe = regexp.MustCompile(`(?s)^(.*?: )?usage: (.*?)(?:; not (".*"))?$`)

// placeholderRe is a placeholder of a command's syntax: <tournament>, or
// an option's value (game=<game>: the name of a game, not a game played).
var placeholderRe = regexp.MustCompile(`(=?)<([a-z][a-z /]*)>`)

// Local writes a result line's usage error (of the desk's or of the
// core's: "KW: usage: <syntax>") in lang; other lines come back
// unchanged.
func Local(w Words, lang, line string) string {
	m := usageRe.FindStringSubmatch(line)
	if m == nil {
		return line
	}
	return localUsage(w, lang, m[1], m[2], m[3])
}

// localUsage writes a usage error in lang ("org.usage"): lead ("KW: " or
// ""), the syntax with its placeholders in lang's words
// ("org.placeholder"), what was not understood; within 80 columns.
func localUsage(w Words, lang, lead, syntax, not string) string {
	word := func(p string) string {
		s, err := w.Text(lang, "org.placeholder", p)
		if err != nil {
			return ""
		}
		return s
	}
	local := placeholderRe.ReplaceAllStringFunc(syntax, func(p string) string {
		pm := placeholderRe.FindStringSubmatch(p)
		name := pm[2]
		if pm[1] == "=" {
			if s := word("=" + name); s != "="+name && s != "" {
				return "=<" + s + ">"
			}
		}
		if s := word(name); s != "" {
			return pm[1] + "<" + s + ">"
		}
		return p
	})
	s, err := w.Text(lang, "org.usage", map[string]any{"lead": lead, "syntax": local, "not": not})
	if err != nil {
		return lead + "usage: " + syntax
	}
	return s
}
