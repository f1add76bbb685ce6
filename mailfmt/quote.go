package mailfmt

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// The layouts recognised when looking for the start of the quoted part of a
// reply. Patterns are matched against a line trimmed of surrounding space
// (after normalisation: no NBSP, no smart quotes).
var (
	// Attribution lines of clients that quote with "> " (Gmail, Apple Mail,
	// Thunderbird, mutt, K-9, Lotus Notes, ...), per language. They are
	// matched against one line or two or three lines joined (clients wrap
	// long ones, sometimes right before the ">" of the address: "<x@y" /
	// ">:", or before the address: "<" / "x@y> wrote:"). The verb may be
	// glued to the address ("<x@y>wrote:").
	attributionRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^on\s.{3,}[\s>](?:wrote|writes|said)\s?:$`),          // en
		regexp.MustCompile(`(?i)^.+[\s>]wrote\son\s.{3,}:$`),                         // en, Lotus Notes: "X wrote on 11/24/2026 07:53:06 PM:"
		regexp.MustCompile(`(?i)^(?:il|in\sdata)\s.{3,}[\s>]ha\sscritto\s?:$`),       // it: "Il giorno ... ha scritto:", "In data ... ha scritto:"
		regexp.MustCompile(`(?i)^le\s.{3,}[\s>]a\s[ée]crit\s?:$`),                    // fr
		regexp.MustCompile(`(?i)^op\s.{3,}[\s>]schreef\s.*:$`),                       // nl: "Op ... schreef X <x@y>:"
		regexp.MustCompile(`(?i)^op\s.{3,}[\s>](?:het\svolgende\s)?geschreven\s?:$`), // nl (Apple Mail)
		regexp.MustCompile(`(?i)^am\s.{3,}[\s>]schrieb\s.*:$`),                       // de: "Am ... schrieb X <x@y>:"
		regexp.MustCompile(`(?i)^.+[\s>]schrieb\sam\s.{3,}:$`),
		regexp.MustCompile(`(?i)^am\s.{3,}[\s>]hat\s.{1,120}[\s>]folgendes\sgeschrieben\s?:$`),       // de (Yahoo): "Am ... hat X <x@y> Folgendes geschrieben:"                                       // de (Gmail): "X <x> schrieb am Fr., 28. Apr. 2017, 10:14:"
		regexp.MustCompile(`(?i)^el\s.{3,}[\s>]escribi[óo]\s?:$`),                                    // es
		regexp.MustCompile(`(?i)^(?:em|no\sdia|[àa]s)\s.{3,}[\s>]escreveu\s?:$`),                     // pt
		regexp.MustCompile(`(?i)^(?:w\sdniu|dnia)\s.{3,}[\s>](?:pisze|napisa[łl](?:\(a\)|a)?)\s?:$`), // pl
	}
	// Attribution lines without a leading "On"/"Il"/...: they count only
	// when quoted lines or a header block follow.
	weakAttributionRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^\S.*[\s>](?:` + alternation(words("attribution-verb")) + `)\s?:$`), // "Anna <a@b> wrote:"
		regexp.MustCompile(`^\*\s.+\[[^\]]{4,60}\]:$`),                                              // mutt: "* Anna <a@b> [2026-05-12 10:14]:"
	}
	// dateish tells the language patterns that name a date: these cut the
	// message even when no "> " quote follows (Outlook for Mac, HTML quotes
	// without blockquote).
	dateish = regexp.MustCompile(`\d{1,4}[:./-]\d{1,2}|\d{4}`)
	// neutralMark is what the language-neutral attribution rule asks of a
	// line ending in ':': a date, a time or an address.
	neutralMark = regexp.MustCompile(`\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}|\d{4}|[^\s@<]+@[^\s@>]+`)
	verbRe      = regexp.MustCompile(`(?i)[\s>](?:` + alternation(words("attribution-verb")) + `)`)

	// The separator and forward phrases framed by a rule line, and the
	// forward lines ("Begin forwarded message:"), from words/reply.txt.
	separatorWords = phraseSet("separator")
	forwardWords   = phraseSet("forward")
	forwardLines   = phraseSet("forward-line")

	// Header fields of quoted or forwarded mail ("From: ... Sent: ... To:
	// ... Subject:"), in the languages of the clients (words/reply.txt),
	// with any spacing around the colon ("Objet :x", "Envoyé le :"); stars
	// of bold (an HTML conversion: "*From:*", "**De :**", "** De : x **")
	// are removed first.
	hdrGroup   = fieldGroups()
	hdrFieldRe = regexp.MustCompile(`(?i)^(` + alternation(append(append(append(words("field-from"), words("field-date")...), words("field-to")...), words("field-subject")...)) + `)\s*:`)

	// Mobile and webmail footers ("Sent from my iPhone"): one line.
	footerRe = regexp.MustCompile(`(?i)^(?:` + alternation(words("footer")) + `)(?:\s.{0,60})?$`)

	// Business signature marks (words/reply.txt): labels at the start of a
	// line, words anywhere, company legal forms as written (see sigMark).
	sigLabels    = words("signature-label")
	sigWords     = words("signature-word")
	sigCompanies = phraseSet("company-form")
	// By structure: an e-mail address, a phone number in international or
	// national form, a postal code followed by a town ("75002 Paris",
	// "1017 GA Amsterdam", "1100-048 Lisboa").
	sigMailRe   = regexp.MustCompile(`[^\s@]+@[^\s@]+\.[A-Za-z]{2,}`)
	sigPhoneRe  = regexp.MustCompile(`(?:^|[\s:(])(?:\+\d{1,3}|\(?0\d{1,4}\)?)[\s(./-]*\d[\d\s()./-]{5,}\d`)
	sigPostalRe = regexp.MustCompile(`\b(?:\d{4,5}|\d{4}\s?[A-Z]{2}|\d{4}-\d{3})\s+\p{Lu}\p{Ll}`)
)

// fieldGroups maps each header field name of words/reply.txt to its group
// ("from", "date", "subject" or "" for the others).
func fieldGroups() map[string]string {
	m := map[string]string{}
	for _, g := range []string{"to", "subject", "date", "from"} {
		for _, w := range words("field-" + g) {
			if g == "to" {
				m[w] = ""
			} else if _, dup := m[w]; !dup || g == "from" {
				m[w] = g
			}
		}
	}
	return m
}

// Closing words (valedictions) and opening words (greetings) in the
// languages served (en, it, fr, nl) plus German and Spanish. They are
// matched at the start of a line and must end at a word boundary, longest
// first ("Best regards" before "Best").
var (
	valedictionRe = wordListRe(words("valediction"))
	greetingRe    = wordListRe(words("greeting"))
	// A name: one to three capitalised words of letters (hyphens and
	// apostrophes inside), or initials ("J.", "AR").
	nameRe = regexp.MustCompile(`^\p{Lu}[\p{L}'-]*\.?(?:\s+\p{Lu}[\p{L}'-]*\.?){0,2}$`)
	// A name glued to a dash or slashes: "--Randall", "//Jef", "-- Ann".
	gluedNameRe = regexp.MustCompile(`^(?:-{1,2}|//|~)\s*(\p{Lu}[\p{L}'-]*\.?(?:\s+\p{Lu}[\p{L}'-]*\.?){0,2})$`)
)

// wordListRe builds the regular expression of a list of words or phrases
// matched at the start of a line, longest first, ending at a word boundary
// (a space, punctuation or the end of the line).
func wordListRe(words []string) *regexp.Regexp {
	ws := append([]string(nil), words...)
	sort.Slice(ws, func(i, j int) bool { return len(ws[i]) > len(ws[j]) })
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = strings.ReplaceAll(regexp.QuoteMeta(w), " ", `\s+`)
	}
	return regexp.MustCompile(`(?i)^(?:` + strings.Join(parts, "|") + `)(?:[\s,.!;:)~-]|$)`)
}

// boundaryKind classifies a line that starts quoted text.
type boundaryKind uint8

const (
	notBoundary boundaryKind = iota
	attribution              // "On ... wrote:" and its translations
	weakAttrib               // "Anna wrote:" (counts only before quoted lines or a header block)
	cutBoundary              // separators, header blocks, the referee line
)

// scan is a message body split in lines, with its quoted lines marked.
type scan struct {
	lines  []string
	quoted []bool
	// isKeyword, when set, says whether a word is a command keyword.
	isKeyword func(string) bool
	// strong memoises strongAt: 0 unknown, 1 no, 2 yes.
	strong []uint8
}

// strongAt reports whether the lines from j on start with a language
// attribution by themselves (see strongAttribution).
func (s *scan) strongAt(j int) bool {
	if s.strong == nil {
		s.strong = make([]uint8, len(s.lines))
	}
	if s.strong[j] == 0 {
		s.strong[j] = 1
		if strongAttribution(trimAll(s.lines[j:min(len(s.lines), j+3)])) {
			s.strong[j] = 2
		}
	}
	return s.strong[j] == 2
}

func newScan(lines []string, isKeyword func(string) bool) *scan {
	q := quoteMarks(lines)
	for i := 0; i+1 < len(lines); i++ {
		// A quoted reply line a client wrapped without quoting the rest
		// ("> ##- Please write your reply above this" / "line -##"):
		// the rest (one or two lines) is quoted too.
		if !q[i] || q[i+1] {
			continue
		}
		a := strings.TrimSpace(stripQuotePrefix(lines[i]))
		if !strings.HasPrefix(a, "##-") || strings.HasSuffix(a, "-##") {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+2 && !q[j]; j++ {
			b := strings.TrimSpace(lines[j])
			if b == "" || strings.Contains(b, "##-") {
				break
			}
			if a += " " + b; strings.HasSuffix(b, "-##") {
				if mailmsg.IsReplyLine(a) {
					for k := i + 1; k <= j; k++ {
						q[k] = true
					}
				}
				break
			}
		}
	}
	return &scan{lines: lines, quoted: q, isKeyword: isKeyword}
}

// quoteMarks marks the quoted lines. '>' always quotes. '|' and ':' (then a
// space, the same character or the end of the line) quote when used
// consistently: on at least three lines of a run (blank lines inside
// allowed), or on the lines right after a line ending in ':' (an
// attribution); a prefix that quotes once quotes in the whole message.
func quoteMarks(lines []string) []bool {
	q := make([]bool, len(lines))
	prefix := make([]byte, len(lines))
	for i, l := range lines {
		t := strings.TrimLeftFunc(l, unicode.IsSpace)
		if strings.HasPrefix(t, ">") {
			q[i] = true
			continue
		}
		if len(t) > 0 && (t[0] == '|' || t[0] == ':') {
			if len(t) == 1 || t[1] == ' ' || t[1] == '\t' || t[1] == t[0] {
				prefix[i] = t[0]
			}
		}
	}
	established := map[byte]bool{}
	for i := 0; i < len(lines); {
		if prefix[i] == 0 {
			i++
			continue
		}
		c := prefix[i]
		j, n, last := i, 0, i
		for j < len(lines) {
			if prefix[j] == c {
				n++
				last = j
			} else if strings.TrimSpace(lines[j]) != "" {
				break
			}
			j++
		}
		prev := i - 1
		for prev >= 0 && strings.TrimSpace(lines[prev]) == "" {
			prev--
		}
		if n >= 3 || (prev >= 0 && strings.HasSuffix(strings.TrimSpace(lines[prev]), ":")) {
			established[c] = true
		}
		i = last + 1
	}
	// A prefix that quotes somewhere quotes everywhere in the message
	// (inline answers between single quoted lines).
	for i := range lines {
		if prefix[i] != 0 && established[prefix[i]] {
			q[i] = true
		}
	}
	return q
}

// stripQuotePrefix removes any leading quote characters ('>', '|', ':')
// and spaces.
func stripQuotePrefix(t string) string {
	return strings.TrimLeft(t, "> |:\t")
}

// isGuardLine reports the referee's "##- ... -##" line under any quote
// prefix.
func isGuardLine(t string) bool {
	return mailmsg.IsReplyLine(strings.TrimSpace(stripQuotePrefix(t)))
}

// guardAt reports the referee's "##- ... -##" line at lines[i], whole or
// wrapped by a client over two or three lines (Outlook wraps plain text at
// a width the user sets, 30 to 132 columns; Exchange at 72; a quote
// prefix takes its share): a line that opens the frame, and the next
// lines to one that closes it, under the same quote prefix, are one reply
// line when joined (TestWrappedReplyLineCutsTheQuote).
func guardAt(lines []string, i int) bool {
	t := strings.TrimSpace(stripQuotePrefix(lines[i]))
	if mailmsg.IsReplyLine(t) {
		return true
	}
	if !strings.HasPrefix(t, "##-") || strings.HasSuffix(t, "-##") {
		return false
	}
	prefix := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], "> |:\t"))]
	for j := i + 1; j < len(lines) && j <= i+2; j++ {
		next := lines[j]
		if strings.TrimSpace(next) == "" || strings.TrimRight(next[:len(next)-len(strings.TrimLeft(next, "> |:\t"))], " \t") != strings.TrimRight(prefix, " \t") {
			return false
		}
		n := strings.TrimSpace(stripQuotePrefix(next))
		if strings.Contains(n, "##-") {
			return false
		}
		t += " " + n
		if strings.HasSuffix(n, "-##") {
			return mailmsg.IsReplyLine(t)
		}
	}
	return false
}

// boundaryAt reports whether lines[i] starts quoted text, how many lines the
// boundary spans, and whether it introduces a forwarded message.
func (s *scan) boundaryAt(i int) (kind boundaryKind, span int, fwd bool) {
	lines := s.lines
	t := strings.TrimSpace(lines[i])
	if t == "" {
		return notBoundary, 0, false
	}
	if guardAt(lines, i) {
		return cutBoundary, 1, false
	}
	if s.headerBlockAt(i) {
		return cutBoundary, 1, false
	}
	if c, inner, ok := ruleLine(t); ok {
		// A rule line: "-----Original Message-----", "===== x =====",
		// "________________________________", "----------".
		key := normPhrase(strings.Trim(inner, " :"))
		if separatorWords[key] || forwardWords[key] {
			return cutBoundary, 1, forwardWords[key]
		}
		if n := nextNonBlank(lines, i+1); n >= 0 && len(inner) <= 60 && (s.headerBlockAt(n) || s.strongAt(n)) {
			// Any rule line over a header block or an attribution.
			return cutBoundary, 1, forwardWords[key]
		}
		if inner != "" && c == '-' && len(t) <= 400 && neutralMark.MatchString(inner) && !s.commandish(t) {
			if verbRe.MatchString(" "+inner) && dateish.MatchString(inner) {
				return attribution, 1, false // Zoho: "---- On ... wrote ----"
			}
			return weakAttrib, 1, false
		}
		return notBoundary, 0, false
	}
	if strings.HasSuffix(t, ":") && forwardLines[normPhrase(strings.TrimRight(t, " :"))] {
		return cutBoundary, 1, true
	}
	// A line that reads as a command is never (part of) an attribution.
	if s.commandish(t) {
		return notBoundary, 0, false
	}
	// Attribution lines, possibly wrapped over up to three lines.
	joined := t
	for k := 1; k <= 3 && i+k <= len(lines); k++ {
		if k > 1 {
			raw := lines[i+k-1]
			next := strings.TrimSpace(raw)
			if next == "" {
				break
			}
			if s.quoted[i+k-1] {
				// A wrap right before the '>' of an address leaves ">:"
				// or "> wrote:" on a line of its own.
				if !(strings.HasPrefix(next, ">") && len(next) <= 40 && strings.HasSuffix(next, ":") &&
					strings.LastIndexByte(joined, '<') > strings.LastIndexByte(joined, '>')) {
					break
				}
			} else if s.commandish(next) && !s.addressedEnd(i, k) {
				// A continuation line that starts with a keyword ("Pas
				// Referee <x@y>:", "Stand ... g42") is part of the
				// attribution only when the lines end it with an address
				// and a colon.
				break
			}
			if k == 2 && !wrapFragment(t) {
				break
			}
			// The next lines alone are an attribution: the lines above are
			// not part of it.
			if s.strongAt(i + k - 1) {
				break
			}
			if strings.HasPrefix(next, ">") || strings.HasSuffix(joined, "<") {
				joined += next
			} else {
				joined += " " + next
			}
		}
		if len(joined) > 330 {
			break
		}
		if !strings.HasSuffix(joined, ":") {
			// A language attribution without its colon ("Am ... schrieb
			// X <x@y>", "On ... X wrote"): it counts only before quoted
			// lines or a header block, and needs an address or a quoted
			// line right below.
			if verbRe.MatchString(joined) && dateish.MatchString(joined) && (strings.Contains(joined, "@") || s.quotedBelow(i+k)) {
				for _, re := range attributionRes {
					if re.MatchString(joined + ":") {
						return weakAttrib, k, false
					}
				}
			}
			continue
		}
		// Every language pattern holds a verb: one cheap test first.
		if verbRe.MatchString(joined) {
			for _, re := range attributionRes {
				if re.MatchString(joined) {
					if dateish.MatchString(joined) {
						return attribution, k, false
					}
					return weakAttrib, k, false
				}
			}
			if weakAttributionRes[0].MatchString(joined) {
				return weakAttrib, k, false
			}
		}
		if weakAttributionRes[1].MatchString(joined) {
			return weakAttrib, k, false
		}
		// The language-neutral rule: a line ending in ':' that carries a
		// date, a time or an address (it counts only before quoted lines
		// or a header block).
		if len(joined) <= 300 && neutralMark.MatchString(joined) {
			return weakAttrib, k, false
		}
	}
	return notBoundary, 0, false
}

// addressedEnd reports whether the lines from i, wrapped over up to three
// lines, end (at line k or below) with a line holding an address and
// ending in ':', the whole being a language attribution.
func (s *scan) addressedEnd(i, k int) bool {
	joined := strings.TrimSpace(s.lines[i])
	for e := 2; e <= 3 && i+e-1 < len(s.lines); e++ {
		l := strings.TrimSpace(s.lines[i+e-1])
		if l == "" || s.quoted[i+e-1] {
			return false
		}
		joined += " " + l
		if e < k || !strings.HasSuffix(l, ":") {
			continue
		}
		if !strings.Contains(l, "@") || !verbRe.MatchString(joined) {
			return false
		}
		for _, re := range attributionRes {
			if re.MatchString(joined) {
				return true
			}
		}
		return false
	}
	return false
}

// quotedBelow reports whether the first non-blank line from i on is quoted.
func (s *scan) quotedBelow(i int) bool {
	n := nextNonBlank(s.lines, i)
	return n >= 0 && s.quoted[n]
}

// wrapFragment reports whether a line may be the first line of a wrapped
// attribution: long, or carrying a date, a time, an address or its '<'.
func wrapFragment(t string) bool {
	return utf8.RuneCountInString(t) >= 30 || strings.ContainsAny(t, "@<") || neutralMark.MatchString(t)
}

// strongAttribution reports whether the first one, two or three of lines,
// joined, are a language attribution ("On ... wrote:").
func strongAttribution(lines []string) bool {
	joined := ""
	for k, l := range lines {
		if k > 0 && !strings.HasPrefix(l, ">") && !strings.HasSuffix(joined, "<") {
			joined += " "
		}
		joined += l
		if !strings.HasSuffix(joined, ":") || !verbRe.MatchString(joined) {
			continue
		}
		for _, re := range attributionRes {
			if re.MatchString(joined) {
				return true
			}
		}
	}
	return false
}

func trimAll(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			break
		}
		out = append(out, t)
		if strings.HasSuffix(t, ":") {
			break
		}
	}
	return out
}

var (
	coordRe  = regexp.MustCompile(`^[A-Za-z]{1,3}\d{1,3}\+?[,.;]?$`)
	numberRe = regexp.MustCompile(`^\d{1,3}[.)]?$`)
)

// commandish reports whether a line reads as a command: its first word is
// a command keyword (when the caller said which words are) or an option
// number; or, in a line that neither ends in ':' nor holds an address, its
// first word is an upper-case word of two letters or more or a word is a
// board coordinate such as "MH3" or "K5".
func (s *scan) commandish(t string) bool {
	return looksLikeCommand(t, s.isKeyword)
}

func looksLikeCommand(t string, isKeyword func(string) bool) bool {
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return false
	}
	first := fields[0]
	if isKeyword != nil && isKeyword(strings.ToUpper(strings.TrimRight(first, ":,."))) {
		return true
	}
	if numberRe.MatchString(first) && len(fields) <= 2 {
		return true
	}
	if strings.HasSuffix(t, ":") || strings.ContainsAny(t, "@<>") {
		// "DUPONT Jean <jean@x> a écrit :", "Referee of game g42 <x@y>
		// wrote:": only a keyword makes such a line a command.
		return false
	}
	if len(first) >= 2 && isUpperWord(first) {
		return true
	}
	if len(fields) > 5 {
		return false
	}
	for _, f := range fields {
		if coordRe.MatchString(f) {
			return true
		}
	}
	return false
}

// isUpperWord reports an upper-case word of ASCII letters (an ending ':'
// allowed: "SAY all:").
func isUpperWord(w string) bool {
	w = strings.TrimRight(w, ":")
	if w == "" {
		return false
	}
	for _, r := range w {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// headerBlockAt reports whether a header block of a quoted or forwarded
// mail starts at lines[i]: a From or date field (From:, Da:, De :, Message
// du :, Sent:, ...) followed, within the next lines, by other header fields,
// at least three distinct fields in all, among them a From and a Subject or
// date field.
func (s *scan) headerBlockAt(i int) bool {
	lines := s.lines
	g, ok := hdrField(strings.TrimSpace(lines[i]))
	if !ok || (g != "from" && g != "date") {
		return s.anyHeaderBlockAt(i)
	}
	seen := map[string]bool{}
	groups := map[string]bool{g: true}
	blank := 0
	n := 1
	for j := i + 1; j < len(lines) && j <= i+8; j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" {
			blank++
			if blank > 1 || n >= 3 {
				break
			}
			continue
		}
		t = unstar(t)
		if !maybeField(t) {
			continue
		}
		m := hdrFieldRe.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		name := normPhrase(m[1])
		if !seen[name] {
			seen[name] = true
			n++
		}
		if gg, ok := hdrGroup[name]; ok {
			groups[gg] = true
		}
	}
	return n >= 3 && groups["from"] && (groups["subject"] || groups["date"]) || s.anyHeaderBlockAt(i)
}

// ruleLine reports a rule line: a run of one punctuation character
// ('-', '=', '_', '*', '~', '#', '+'), then optional words and optionally
// the same run again; a line with words needs the run on both sides (or
// two characters and known words, checked by the caller); a bare line
// needs five characters. It returns the character and the words.
func ruleLine(t string) (byte, string, bool) {
	if len(t) < 2 {
		return 0, "", false
	}
	c := t[0]
	if !strings.ContainsRune("-=_*~#+", rune(c)) {
		return 0, "", false
	}
	lead := 0
	for lead < len(t) && t[lead] == c {
		lead++
	}
	if lead == len(t) {
		return c, "", lead >= 5
	}
	trail := 0
	for trail < len(t)-lead && t[len(t)-1-trail] == c {
		trail++
	}
	inner := strings.TrimSpace(t[lead : len(t)-trail])
	if lead < 2 || trail < 2 || inner == "" {
		return 0, "", false
	}
	return c, inner, true
}

// unstar removes the stars of bold an HTML conversion left around header
// field names ("*From:*", "**De :**", "** De : x **").
func unstar(t string) string {
	if strings.IndexByte(t, '*') < 0 {
		return t
	}
	return strings.TrimSpace(strings.ReplaceAll(t, "*", ""))
}

// labelRe is a "Label: value" line of any language: one to three words of
// letters (hyphens and dots inside), a colon, a value.
var labelRe = regexp.MustCompile(`^\*{0,2}\p{L}[\p{L}.-]*(?:\s\p{L}[\p{L}.-]*){0,2}\s?:\*{0,2}\s+\S`)

// anyHeaderBlockAt is the language-neutral header block: three or more
// consecutive "Label: value" lines, none of them a command, one holding an
// address and one a date or a time ("Lähettäjä: R <r@x>" / "Lähetetty:
// tiistai 12. toukokuuta 2026 10.14" / "Vastaanottaja: ..." / "Aihe: ...").
func (s *scan) anyHeaderBlockAt(i int) bool {
	n, addr, date := 0, false, false
	for j := i; j < len(s.lines) && j < i+8; j++ {
		t := strings.TrimSpace(s.lines[j])
		if !maybeField(unstar(t)) || !labelRe.MatchString(t) || s.quoted[j] || s.commandish(t) && !strings.Contains(t, "@") {
			break
		}
		n++
		if strings.Contains(t, "@") {
			addr = true
		}
		if anyDateRe.MatchString(t) {
			date = true
		}
	}
	return n >= 3 && addr && date
}

var anyDateRe = regexp.MustCompile(`\b\d{1,2}[:.]\d{2}\b|\b(?:19|20)\d{2}\b`)

// hdrField returns the group of a header-field line ("from", "date",
// "subject", or "" for other fields).
func hdrField(t string) (string, bool) {
	t = unstar(t)
	if !maybeField(t) {
		return "", false
	}
	m := hdrFieldRe.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return hdrGroup[normPhrase(m[1])], true
}

// maybeField is the cheap test before hdrFieldRe: a field name is short,
// so its colon comes early in the line.
func maybeField(t string) bool {
	i := strings.IndexByte(t, ':')
	return i > 0 && i <= 32
}

func nextNonBlank(lines []string, i int) int {
	for ; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i
		}
	}
	return -1
}

// quoteAfterHeader returns the index of the first quoted line when the
// boundary at lines[i] (a separator, a header block) is followed only by
// blank lines, header fields and attribution lines, then by a '>'-quoted
// line; 0 otherwise. The referee's own "##- ... -##" line never is such a
// header.
func (s *scan) quoteAfterHeader(i int) int {
	if guardAt(s.lines, i) {
		return 0
	}
	for j := i + 1; j < len(s.lines) && j <= i+10; j++ {
		if s.quoted[j] {
			if strings.HasPrefix(strings.TrimSpace(s.lines[j]), ">") {
				return j
			}
			return 0
		}
		t := strings.TrimSpace(s.lines[j])
		if t == "" {
			continue
		}
		if _, ok := hdrField(t); ok {
			continue
		}
		if !strings.ContainsAny(t, ":@") && !strings.HasSuffix(strings.TrimSpace(s.lines[min(j+1, len(s.lines)-1)]), ":") {
			return 0 // no attribution starts here (cheap test)
		}
		if k, span, _ := s.boundaryAt(j); k == attribution || k == weakAttrib {
			j += span - 1
			continue
		}
		return 0
	}
	return 0
}
