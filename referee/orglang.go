package referee

// The language of an organiser's answer (issue 16). An organiser has no
// language of their own: the answer to a mail follows the words the mail
// is written in (an Italian alias such as AVVIA makes it Italian), else
// the language of a tournament it names (lang= at NEW TOURNAMENT), else
// English. The frame of the answer ("mail.org") and its usage errors are
// in that language; the other answers keep the language they already have.

import (
	"regexp"
	"strings"

	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// orgMailLang returns the language of the answer to an organiser's
// commands (text: the mail's command text).
func (w orgWork) orgMailLang(text string) string {
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
		if lang := w.aliasLang(f[0]); lang != "" {
			return lang
		}
		if named != "" {
			continue
		}
		// NEW TOURNAMENT <id> ... lang=xx, or a command naming a
		// tournament that has a language.
		if strings.EqualFold(f[0], "NEW") && len(f) > 2 && strings.EqualFold(f[1], "TOURNAMENT") {
			for _, a := range f[3:] {
				if k, v, ok := strings.Cut(a, "="); ok && strings.EqualFold(k, "lang") && templates.IsLanguage(strings.ToLower(v)) {
					named = strings.ToLower(v)
				}
			}
			continue
		}
		if len(f) > 1 && !asked[strings.ToLower(f[1])] {
			// Once an id: a mail of 500 ENTER lines decoded the
			// tournament's record 500 times (issue 24).
			asked[strings.ToLower(f[1])] = true
			if lang := bymail.OrgLang(w.tx, f[1]); lang != "" {
				named = lang
			}
		}
	}
	if named != "" {
		return named
	}
	return "en"
}

// aliasLang is the one language other than English whose referee aliases
// (templates/referee/<lang>/aliases.txt) have word as a keyword's word, or
// "" (an English keyword, no keyword, or a word several languages share,
// as FORFAIT).
func (w orgWork) aliasLang(word string) string {
	up := strings.ToUpper(word)
	found := ""
	for _, lang := range templates.Languages[1:] {
		if w.r.render.T.Alias("referee", lang, up) != up {
			if found != "" {
				return ""
			}
			found = lang
		}
	}
	return found
}

// usageRe finds a usage error in a result line: "KW: usage: <syntax>",
// perhaps followed by what was not understood ("; not \"loudly\"").
var usageRe = regexp.MustCompile(`(?s)^(.*?: )?usage: (.*?)(?:; not (".*"))?$`)

// placeholderRe is a placeholder of a command's syntax: <tournament>, or
// an option's value (game=<game>: the name of a game, not a game played).
var placeholderRe = regexp.MustCompile(`(=?)<([a-z][a-z /]*)>`)

// orgLocal writes a result line's usage error in lang ("org.usage"), its
// placeholders in lang's words ("org.placeholder"), within 80 columns;
// other lines come back unchanged.
func (w orgWork) orgLocal(lang, line string) string {
	m := usageRe.FindStringSubmatch(line)
	if m == nil {
		return line
	}
	rd := Reader{Game: "referee", Lang: lang, Seat: -1}
	word := func(p string) string {
		s, err := w.r.render.T.Render("referee", lang, "org.placeholder", w.r.render.ctx(rd, p))
		if err != nil {
			return ""
		}
		return s
	}
	syntax := placeholderRe.ReplaceAllStringFunc(m[2], func(p string) string {
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
	s, err := w.r.render.T.Render("referee", lang, "org.usage", w.r.render.ctx(rd, map[string]any{"lead": m[1], "syntax": syntax, "not": m[3]}))
	if err != nil {
		return line
	}
	return s
}

// orgMailIn answers an organiser in lang: the frame ("mail.org") and the
// usage errors in it, the other result lines as they are.
func (w orgWork) orgMailIn(org, lang string, results []string, inReplyTo string) error {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	local := make([]string, len(results))
	for i, l := range results {
		local[i] = w.orgLocal(lang, l)
	}
	rd := Reader{Game: "referee", Lang: lang, Seat: -1}
	body, err := w.r.render.T.Render("referee", lang, "mail.org", w.r.render.ctx(rd, map[string]any{"results": local}))
	if err != nil {
		return err
	}
	subject, err := w.r.render.T.Render("referee", lang, "subject.org", w.r.render.ctx(rd, map[string]any{"game": "", "title": ""}))
	if err != nil {
		return err
	}
	m := &Outgoing{Seat: -1, Kind: "org", To: org, Subject: subject, MessageID: w.messageID(nil, -1, 0), Body: body,
		Lang: lang, InReplyTo: inReplyTo, Tag: w.orgTag(org)}
	if inReplyTo != "" {
		m.AutoSubmitted, m.References = "auto-replied", []string{inReplyTo}
	}
	return w.enqueue(m)
}
