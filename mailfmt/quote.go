package mailfmt

import (
	"regexp"
	"strings"
)

// The layouts recognised when looking for the start of the quoted part of a
// reply. Patterns are matched against a line trimmed of surrounding space
// (after normalisation: no NBSP, no smart quotes).
var (
	// Attribution lines of clients that quote with "> " (Gmail, Apple Mail,
	// Thunderbird, mutt, K-9, ...), per language. They are matched against
	// one line or two or three lines joined (clients wrap long ones).
	attributionRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^on\s.{3,300}\s(?:wrote|writes|said)\s?:$`),          // en
		regexp.MustCompile(`(?i)^il\s.{3,300}\sha\sscritto\s?:$`),                    // it: "Il giorno ... ha scritto:", "Il ... ha scritto:"
		regexp.MustCompile(`(?i)^le\s.{3,300}\sa\s[ée]crit\s?:$`),                    // fr
		regexp.MustCompile(`(?i)^op\s.{3,300}\sschreef\s.{0,200}:$`),                 // nl: "Op ... schreef X <x@y>:"
		regexp.MustCompile(`(?i)^op\s.{3,300}\s(?:het\svolgende\s)?geschreven\s?:$`), // nl (Apple Mail)
		regexp.MustCompile(`(?i)^am\s.{3,300}\sschrieb\s.{0,200}:$`),                 // de
		regexp.MustCompile(`(?i)^el\s.{3,300}\sescribi[óo]\s?:$`),                    // es
		regexp.MustCompile(`(?i)^(?:em|no\sdia)\s.{3,300}\sescreveu\s?:$`),           // pt
	}
	// Attribution lines without a leading "On"/"Il"/...: they count only
	// when "> " quoted lines follow.
	weakAttributionRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^\S.{0,160}\s(?:wrote|ha\sscritto|a\s[ée]crit|schreef|schrieb|escribió|escreveu)\s?:$`), // "Anna <a@b> wrote:"
		regexp.MustCompile(`^\*\s.{1,160}\[[^\]]{4,60}\]:$`),                                                            // mutt: "* Anna <a@b> [2026-05-12 10:14]:"
	}
	// dateish tells the language patterns that name a date: these cut the
	// message even when no "> " quote follows (Outlook for Mac, HTML quotes
	// without blockquote).
	dateish = regexp.MustCompile(`\d{1,4}[:./-]\d{1,2}|\d{4}`)

	// Separators that always start quoted or forwarded text.
	separatorRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^-{2,}\s*(?:original\smessage|messaggio\soriginale|message\sd'origine|oorspronkelijk\sbericht|urspr[üu]ngliche\snachricht|mensaje\soriginal|mensagem\soriginal)\s*-{2,}$`),
		regexp.MustCompile(`(?i)^-{2,}\s*(?:forwarded\smessage|messaggio\sinoltrato|message\stransf[ée]r[ée]|doorgestuurd\sbericht|weitergeleitete\snachricht|mensaje\sreenviado|mensagem\sencaminhada)\s*-{2,}$`),
		regexp.MustCompile(`(?i)^(?:begin\sforwarded\smessage|inizio\smessaggio\sinoltrato|d[ée]but\sdu\smessage\sr[ée]exp[ée]di[ée]|begin\sdoorgestuurd\sbericht|doorgestuurd\sbericht|anfang\sder\sweitergeleiteten\snachricht|comienzo\sdel\smensaje\sreenviado)\s?:$`),
	}
	forwardRe = regexp.MustCompile(`(?i)forward|inoltrat|transf[ée]r|doorgestuurd|weitergeleitet|reenviado|encaminhada|r[ée]exp[ée]di`)

	// Outlook-style header blocks ("From: ... Sent: ... To: ... Subject:").
	hdrFromRe  = regexp.MustCompile(`(?i)^\*?(?:from|da|de|van|von|od|fr[åa]n|fra)\s?:\*?\s*\S`)
	hdrFieldRe = regexp.MustCompile(`(?i)^\*?(sent|date|to|cc|bcc|subject|inviato|data|a|oggetto|envoy[ée]|[àa]|objet|verzonden|datum|aan|onderwerp|gesendet|an|betreff|enviado|fecha|para|asunto|assunto|wys[łl]ano|do|temat|skickat|till|[äa]mne|sendt|til|emne)\s?:\*?(?:\s|$)`)

	// Outlook's line of underscores before the header block.
	underscoresRe = regexp.MustCompile(`^_{10,}$`)

	// The line the referee writes at the top of its mails (see Compose).
	refereeLineRe = regexp.MustCompile(`^##-.{0,200}-##$`)

	// Mobile and webmail footers: one line that ends the player's text.
	footerRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^sent\s(?:from|with|via|using)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:inviato|spedito)\s(?:da|dal|dalla|con|tramite)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^envoy[ée]\s(?:de|depuis|avec|à\spartir\sde)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:verzonden|verstuurd)\s(?:vanaf|met|van|via)\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:von\smeinem|gesendet\s(?:von|mit|vom|über))\s.{1,60}$`),
		regexp.MustCompile(`(?i)^(?:get|download|scarica|ottieni|t[ée]l[ée]charger|obtenir|downloaden|download)\s(?:outlook|gmail|the\s.{1,20}app)\s?.{0,60}$`),
		regexp.MustCompile(`(?i)^outlook\s(?:voor|für|for|per|pour)\s(?:ios|android).{0,60}$`),
		regexp.MustCompile(`(?i)^(?:holen\ssie\ssich|beziehen\ssie)\soutlook.{0,60}$`),
	}

	// Closing words that may end a message, followed or not by a name.
	valedictionRe = regexp.MustCompile(`(?i)^(?:thanks|thank\syou|thx|ty|cheers|regards|best|best\sregards|kind\sregards|all\sthe\sbest|bye|ciao|grazie|grazie\smille|saluti|cordiali\ssaluti|un\ssaluto|a\spresto|merci|merci\sbeaucoup|cordialement|bien\s[àa]\svous|[àa]\sbient[ôo]t|bises|amiti[ée]s|groeten|groetjes|met\svriendelijke\sgroet(?:en)?|mvg|gr\.?|dank\sje|dank\sje\swel|bedankt|danke|viele\sgr[üu][ßs]e|liebe\sgr[üu][ßs]e|beste\sgr[üu][ßs]e|gru[ßs]|gr[üu][ßs]e|lg|mfg|vg)[\s,.!]*`)
)

// boundaryKind classifies a line that starts quoted text.
type boundaryKind uint8

const (
	notBoundary boundaryKind = iota
	attribution              // "On ... wrote:" and its translations
	weakAttrib               // "Anna wrote:" (counts only before "> " lines)
	cutBoundary              // separators, header blocks, the referee line
)

// boundaryAt reports whether lines[i] starts quoted text, how many lines the
// boundary spans, and whether it introduces a forwarded message.
func boundaryAt(lines []string, i int) (kind boundaryKind, span int, fwd bool) {
	t := strings.TrimSpace(lines[i])
	if t == "" {
		return notBoundary, 0, false
	}
	if refereeLineRe.MatchString(t) {
		return cutBoundary, 1, false
	}
	for _, re := range separatorRes {
		if re.MatchString(t) {
			return cutBoundary, 1, forwardRe.MatchString(t)
		}
	}
	if underscoresRe.MatchString(t) {
		if n := nextNonBlank(lines, i+1); n >= 0 && headerBlockAt(lines, n) {
			return cutBoundary, 1, false
		}
		return notBoundary, 0, false
	}
	if headerBlockAt(lines, i) {
		return cutBoundary, 1, false
	}
	// Attribution lines, possibly wrapped over up to three lines.
	joined := t
	for k := 1; k <= 3 && i+k <= len(lines); k++ {
		if k > 1 {
			next := strings.TrimSpace(lines[i+k-1])
			if next == "" || isQuoted(lines[i+k-1]) {
				break
			}
			joined += " " + next
		}
		if len(joined) > 420 {
			break
		}
		if !strings.HasSuffix(joined, ":") {
			continue
		}
		for _, re := range attributionRes {
			if re.MatchString(joined) {
				if dateish.MatchString(joined) {
					return attribution, k, false
				}
				return weakAttrib, k, false
			}
		}
		if k <= 2 {
			for _, re := range weakAttributionRes {
				if re.MatchString(joined) {
					return weakAttrib, k, false
				}
			}
		}
	}
	return notBoundary, 0, false
}

// headerBlockAt reports whether an Outlook-style header block starts at
// lines[i]: a From line followed, within the next lines, by at least two
// other header fields (Sent/Date, To, Cc, Subject, in the languages known).
func headerBlockAt(lines []string, i int) bool {
	if !hdrFromRe.MatchString(strings.TrimSpace(lines[i])) {
		return false
	}
	seen := map[string]bool{}
	blank := 0
	for j := i + 1; j < len(lines) && j <= i+8; j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" {
			blank++
			if blank > 1 || len(seen) >= 2 {
				break
			}
			continue
		}
		if m := hdrFieldRe.FindStringSubmatch(t); m != nil {
			seen[strings.ToLower(m[1])] = true
		}
	}
	return len(seen) >= 2
}

func nextNonBlank(lines []string, i int) int {
	for ; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i
		}
	}
	return -1
}

// isQuoted reports whether a line is quoted with '>' (after optional
// spaces).
func isQuoted(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, ">")
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
// closing word or a footer, in the first few non-blank lines.
func looksLikeSignature(lines []string, names map[string]bool) bool {
	seen := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if seen++; seen > 4 {
			break
		}
		if sigContentRe.MatchString(t) || isSignOff(t, names) || sigDelimiter(t) == sigSure {
			return true
		}
	}
	return false
}
