package mailfmt

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
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
		regexp.MustCompile(`(?i)^on\s.{3,}[\s>](?:wrote|writes|said)\s?:$`),                          // en
		regexp.MustCompile(`(?i)^.+[\s>]wrote\son\s.{3,}:$`),                                         // en, Lotus Notes: "X wrote on 11/24/2026 07:53:06 PM:"
		regexp.MustCompile(`(?i)^(?:il|in\sdata)\s.{3,}[\s>]ha\sscritto\s?:$`),                       // it: "Il giorno ... ha scritto:", "In data ... ha scritto:"
		regexp.MustCompile(`(?i)^le\s.{3,}[\s>]a\s[ée]crit\s?:$`),                                    // fr
		regexp.MustCompile(`(?i)^op\s.{3,}[\s>]schreef\s.*:$`),                                       // nl: "Op ... schreef X <x@y>:"
		regexp.MustCompile(`(?i)^op\s.{3,}[\s>](?:het\svolgende\s)?geschreven\s?:$`),                 // nl (Apple Mail)
		regexp.MustCompile(`(?i)^am\s.{3,}[\s>]schrieb\s.*:$`),                                       // de: "Am ... schrieb X <x@y>:"
		regexp.MustCompile(`(?i)^.+[\s>]schrieb\sam\s.{3,}:$`),                                       // de (Gmail): "X <x> schrieb am Fr., 28. Apr. 2017, 10:14:"
		regexp.MustCompile(`(?i)^el\s.{3,}[\s>]escribi[óo]\s?:$`),                                    // es
		regexp.MustCompile(`(?i)^(?:em|no\sdia|[àa]s)\s.{3,}[\s>]escreveu\s?:$`),                     // pt
		regexp.MustCompile(`(?i)^(?:w\sdniu|dnia)\s.{3,}[\s>](?:pisze|napisa[łl](?:\(a\)|a)?)\s?:$`), // pl
	}
	// Attribution lines without a leading "On"/"Il"/...: they count only
	// when quoted lines or a header block follow.
	weakAttributionRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^\S.*[\s>](?:wrote|writes|ha\sscritto|a\s[ée]crit|schreef|schrieb|escribi[óo]|escreveu|napisa[łl](?:\(a\)|a)?|pisze|skrev|kirjoitti|написал(?:\(а\)|а)?)\s?:$`), // "Anna <a@b> wrote:"
		regexp.MustCompile(`^\*\s.+\[[^\]]{4,60}\]:$`), // mutt: "* Anna <a@b> [2026-05-12 10:14]:"
	}
	// dateish tells the language patterns that name a date: these cut the
	// message even when no "> " quote follows (Outlook for Mac, HTML quotes
	// without blockquote).
	dateish = regexp.MustCompile(`\d{1,4}[:./-]\d{1,2}|\d{4}`)
	// neutralMark is what the language-neutral attribution rule asks of a
	// line ending in ':': a date, a time or an address.
	neutralMark = regexp.MustCompile(`\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}|\d{4}|[^\s@<]+@[^\s@>]+`)
	// framedRe is a line framed by dashes ("---- On ... wrote ----" of
	// Zoho, "-----Whatever-----").
	framedRe = regexp.MustCompile(`^-{2,}\s*(\S.*?)\s*-{2,}$`)
	verbRe   = regexp.MustCompile(`(?i)[\s>](?:wrote|writes|said|ha\sscritto|a\s[ée]crit|schreef|geschreven|schrieb|escribi[óo]|escreveu|napisa[łl]|pisze|skrev|kirjoitti|написал)`)

	// Separators that always start quoted or forwarded text.
	separatorRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^-{2,}\s*(?:original\smessage|messaggio\soriginale|message\sd'origine|message\soriginal|oorspronkelijk\sbericht|urspr[üu]ngliche\snachricht|mensaje\soriginal|mensagem\soriginal|oryginalna\swiadomo[śs][ćc]|wiadomo[śs][ćc]\soryginalna|исходное\sсообщение|ursprungligt\smeddelande|oprindelig\smeddelelse|opprinnelig\smelding)\s*-{2,}$`),
		regexp.MustCompile(`(?i)^-{2,}\s*(?:forwarded\smessage|messaggio\sinoltrato|message\stransf[ée]r[ée]|doorgestuurd\sbericht|weitergeleitete\snachricht|mensaje\sreenviado|mensagem\sencaminhada|przekazana\swiadomo[śs][ćc]|пересылаемое\sсообщение)\s*-{2,}$`),
		regexp.MustCompile(`(?i)^(?:begin\sforwarded\smessage|inizio\smessaggio\sinoltrato|d[ée]but\sdu\smessage\sr[ée]exp[ée]di[ée]|begin\sdoorgestuurd\sbericht|doorgestuurd\sbericht|anfang\sder\sweitergeleiteten\snachricht|comienzo\sdel\smensaje\sreenviado)\s?:$`),
	}
	forwardRe = regexp.MustCompile(`(?i)forward|inoltrat|transf[ée]r|doorgestuurd|weitergeleitet|reenviado|encaminhada|r[ée]exp[ée]di|przekazan|пересыла`)

	// Header blocks of quoted or forwarded mail ("From: ... Sent: ... To:
	// ... Subject:"), in the languages of the clients, with any spacing
	// around the colon ("Objet :x", "Envoyé le :"), optionally in bold
	// ("*From:*", from an HTML conversion) or tab-separated (Lotus Notes).
	hdrFieldRe = regexp.MustCompile(`(?i)^\*?(from|da|de|van|von|od|fr[åa]n|fra|от|message\sdu|sent|date|inviato|data|envoy[ée](?:\sle)?|verzonden|datum|gesendet|enviado(?:\sel)?|fecha|wys[łl]ano|skickat|sendt|отправлено|дата|to|a|[àa]|aan|an|para|do|till|til|кому|cc|bcc|copie\s[àa]|kopie|ccn|copia|subject|oggetto|ogg|objet|sujet|onderwerp|betreff|asunto|assunto|temat|[äa]mne|emne|тема|reply-to|rispondi\sa|r[ée]pondre\s[àa])\s*:\*?(?:\s|$|\S)`)
	hdrGroup   = map[string]string{
		"from": "from", "da": "from", "de": "from", "van": "from", "von": "from", "od": "from", "från": "from", "fran": "from", "fra": "from", "от": "from",
		"message du": "date", "sent": "date", "date": "date", "inviato": "date", "data": "date", "envoyé": "date", "envoye": "date", "envoyé le": "date", "envoye le": "date",
		"verzonden": "date", "datum": "date", "gesendet": "date", "enviado": "date", "enviado el": "date", "fecha": "date", "wysłano": "date", "wyslano": "date",
		"skickat": "date", "sendt": "date", "отправлено": "date", "дата": "date",
		"subject": "subject", "oggetto": "subject", "ogg": "subject", "objet": "subject", "sujet": "subject", "onderwerp": "subject", "betreff": "subject", "asunto": "subject",
		"assunto": "subject", "temat": "subject", "ämne": "subject", "amne": "subject", "emne": "subject", "тема": "subject",
	}

	// Outlook's line of underscores before the header block.
	underscoresRe = regexp.MustCompile(`^_{10,}$`)

	// The line the referee writes at the top of its mails (see Compose),
	// possibly under a quote prefix.
	refereeLineRe = regexp.MustCompile(`^##-.{0,200}-##$`)

	// Mobile and webmail footers: one line that ends the player's text.
	footerRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^sent\s(?:from|with|via|using)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:inviato|spedito)\s(?:da|dal|dalla|con|tramite)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^envoy[ée]\s(?:de|depuis|avec|à\spartir\sde)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:verzonden|verstuurd)\s(?:vanaf|met|van|via)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:von\smeinem|gesendet\s(?:von|mit|vom|über))\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:enviado\sdesde|enviado\sdo\smeu)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:get|download|scarica|ottieni|t[ée]l[ée]charger|obtenir|downloaden|download)\s(?:outlook|gmail|the\s.{1,20}app)\s?.{0,60}$`),
		regexp.MustCompile(`(?i)^outlook\s(?:voor|für|for|per|pour|para)\s(?:ios|android).{0,60}$`),
		regexp.MustCompile(`(?i)^(?:holen\ssie\ssich|beziehen\ssie)\soutlook.{0,60}$`),
	}
)

// Closing words (valedictions) and opening words (greetings) in the
// languages served (en, it, fr, nl) plus German and Spanish. They are
// matched at the start of a line and must end at a word boundary, longest
// first ("Best regards" before "Best").
var (
	valedictions = []string{
		// en
		"thanks", "thank you", "thanks a lot", "thanks in advance", "many thanks", "thx", "ty", "cheers", "regards", "best", "best regards",
		"kind regards", "warm regards", "best wishes", "all the best", "bye", "take care", "see you", "see ya", "sincerely", "yours",
		"love", "talk soon", "later", "good luck", "have fun",
		// it
		"ciao", "ciao ciao", "grazie", "grazie mille", "grazie ancora", "saluti", "cordiali saluti", "distinti saluti", "un saluto",
		"a presto", "a dopo", "buona giornata", "buona serata", "buon gioco", "baci", "un abbraccio", "alla prossima",
		// fr
		"merci", "merci beaucoup", "merci d'avance", "cordialement", "bien cordialement", "bien à vous", "bien a vous", "à bientôt",
		"a bientot", "à bientot", "a bientôt", "bises", "bisous", "amitiés", "amities", "salutations", "bonne journée", "bonne soirée",
		"bonne journee", "bonne soiree", "à plus", "a plus", "a+", "bon jeu",
		// nl
		"groeten", "groetjes", "groet", "met vriendelijke groet", "met vriendelijke groeten", "vriendelijke groet", "vriendelijke groeten",
		"hartelijke groet", "hartelijke groeten", "mvg", "gr", "gr.", "dank je", "dank je wel", "dank u", "dank u wel", "bedankt", "doei",
		"tot ziens", "tot later", "fijne dag", "veel plezier",
		// de
		"danke", "danke schön", "danke schon", "vielen dank", "viele grüße", "viele grusse", "viele grüsse", "liebe grüße", "liebe grüsse",
		"beste grüße", "beste grüsse", "schöne grüße", "herzliche grüße", "mit freundlichen grüßen", "mit freundlichen grüssen",
		"freundliche grüße", "gruß", "gruss", "grüße", "grüsse", "lg", "mfg", "vg", "tschüss", "tschüs", "bis bald", "bis dann",
		// es
		"gracias", "muchas gracias", "saludos", "un saludo", "saludos cordiales", "atentamente", "un abrazo", "abrazos", "besos",
		"hasta luego", "hasta pronto", "nos vemos",
	}
	greetings = []string{
		// en
		"hi", "hello", "hey", "hiya", "dear", "good morning", "good afternoon", "good evening", "greetings", "howdy",
		// it
		"ciao", "salve", "buongiorno", "buonasera", "caro", "cara", "cari", "gentile", "ehi", "ehilà",
		// fr
		"bonjour", "bonsoir", "salut", "coucou", "cher", "chère", "chers",
		// nl
		"hallo", "hoi", "hey", "beste", "goedemorgen", "goedemiddag", "goedenavond", "dag", "geachte",
		// de
		"moin", "servus", "guten morgen", "guten tag", "guten abend", "liebe", "lieber", "sehr geehrte", "sehr geehrter", "grüß gott",
		// es
		"hola", "buenos días", "buenos dias", "buenas tardes", "buenas noches", "buenas", "estimado", "estimada", "querido", "querida",
	}
	valedictionRe = wordListRe(valedictions)
	greetingRe    = wordListRe(greetings)
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
	return &scan{lines: lines, quoted: quoteMarks(lines), isKeyword: isKeyword}
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
	return refereeLineRe.MatchString(strings.TrimSpace(stripQuotePrefix(t)))
}

// boundaryAt reports whether lines[i] starts quoted text, how many lines the
// boundary spans, and whether it introduces a forwarded message.
func (s *scan) boundaryAt(i int) (kind boundaryKind, span int, fwd bool) {
	lines := s.lines
	t := strings.TrimSpace(lines[i])
	if t == "" {
		return notBoundary, 0, false
	}
	if isGuardLine(t) {
		return cutBoundary, 1, false
	}
	for _, re := range separatorRes {
		if re.MatchString(t) {
			return cutBoundary, 1, forwardRe.MatchString(t)
		}
	}
	if underscoresRe.MatchString(t) || strings.Trim(t, "-") == "" && len(t) >= 10 {
		if n := nextNonBlank(lines, i+1); n >= 0 && s.headerBlockAt(n) {
			return cutBoundary, 1, false
		}
		return notBoundary, 0, false
	}
	if s.headerBlockAt(i) {
		return cutBoundary, 1, false
	}
	// A line that reads as a command is never (part of) an attribution.
	if s.commandish(t) {
		return notBoundary, 0, false
	}
	if m := framedRe.FindStringSubmatch(t); m != nil && len(t) <= 400 {
		inner := m[1]
		if neutralMark.MatchString(inner) {
			if verbRe.MatchString(" "+inner) && dateish.MatchString(inner) {
				return attribution, 1, false // Zoho: "---- On ... wrote ----"
			}
			return weakAttrib, 1, false
		}
		if n := nextNonBlank(lines, i+1); n >= 0 && s.headerBlockAt(n) && len(inner) <= 60 {
			return cutBoundary, 1, forwardRe.MatchString(inner) // "-----Any language-----" + header block
		}
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
			} else if s.commandish(next) {
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
		return false
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
		if !maybeField(t) {
			continue
		}
		m := hdrFieldRe.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		name := strings.ToLower(m[1])
		if !seen[name] {
			seen[name] = true
			n++
		}
		if gg, ok := hdrGroup[name]; ok {
			groups[gg] = true
		}
	}
	return n >= 3 && groups["from"] && (groups["subject"] || groups["date"])
}

// hdrField returns the group of a header-field line ("from", "date",
// "subject", or "" for other fields).
func hdrField(t string) (string, bool) {
	if !maybeField(t) {
		return "", false
	}
	m := hdrFieldRe.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	return hdrGroup[strings.ToLower(m[1])], true
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

// sigKind classifies a possible signature delimiter.
type sigKind uint8

const (
	notSig   sigKind = iota
	sigSure          // "-- ", a mobile or webmail footer, a line of underscores
	sigMaybe         // "--" without its space: a signature only if one follows
)

// sigDelimiter classifies a line: "-- " (the standard delimiter), a mobile
// or webmail footer, or a long line of underscores that does not introduce a
// header block start a signature; "--" alone (the space lost, or typed as a
// separator between commands) does only when what follows looks like a
// signature (see looksLikeSignature).
func sigDelimiter(line string) sigKind {
	if strings.TrimLeft(line, " \t") == "-- " {
		return sigSure
	}
	t := strings.TrimSpace(line)
	if t == "--" {
		return sigMaybe
	}
	if strings.HasPrefix(t, "_") && len(t) >= 20 && strings.Trim(t, "_") == "" {
		return sigSure
	}
	for _, re := range footerRes {
		if re.MatchString(t) {
			return sigSure
		}
	}
	return notSig
}

var sigContentRe = regexp.MustCompile(`(?i)[^\s@]+@[^\s@]+\.[a-z]{2,}|https?://|www\.|\+?\d[\d ()./-]{6,}\d|\b(?:tel|phone|mobile|cell|fax)\b`)

// looksLikeSignature reports whether the lines after a bare "--" read as a
// signature: the sender's name, an address, a URL or a phone number, a
// closing word or a footer, in the first few non-blank lines; or a single
// line that is only a name.
func looksLikeSignature(lines []string, names *signer) bool {
	seen := 0
	var only string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if seen++; seen > 4 {
			break
		}
		only = t
		if sigContentRe.MatchString(t) || isSignOff(t, names) || sigDelimiter(t) == sigSure {
			return true
		}
	}
	return seen == 1 && isName(only) && !looksLikeCommand(only, names.isKeyword)
}

// isName reports a line that is only a name: one to three capitalised
// words with lower-case letters (so that "PASS" never is).
func isName(t string) bool {
	t = strings.TrimRight(t, " ,.!")
	if len(t) > 40 || !nameRe.MatchString(t) {
		return false
	}
	for _, r := range t {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}
