package mailfmt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Signatures: the delimiters, footers and marks that start a signature, and
// the test that the end of a text is one (doc.go, "Where a reply's own text
// ends").

// sigKind classifies a possible signature delimiter.
type sigKind uint8

const (
	notSig    sigKind = iota
	sigSure           // "-- " (the standard delimiter)
	sigMaybe          // "--" without its space: a signature only if one follows
	sigRule           // a bare rule line ("_____", "=====", "-----")
	sigFooter         // a one-line mobile or webmail footer ("Sent from my iPhone")
)

// sigDelimiter classifies a line: "-- " (the standard delimiter), "--"
// alone (the space lost, or typed as a separator between commands), a bare
// rule line of five characters or more, or a mobile or webmail footer.
func sigDelimiter(line string) sigKind {
	if strings.TrimLeft(line, " \t") == "-- " {
		return sigSure
	}
	t := strings.TrimSpace(line)
	if t == "--" {
		return sigMaybe
	}
	if c, inner, ok := ruleLine(t); ok && inner == "" && c != '#' && c != '+' {
		return sigRule
	}
	if len(t) <= 80 && footerStart(t) && footerRe.MatchString(t) {
		return sigFooter
	}
	return notSig
}

// footerFirst holds the first words of the footer phrases: a cheap test
// before footerRe.
var footerFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range words("footer") {
		m[strings.Fields(p)[0]] = true
	}
	return m
}()

func footerStart(t string) bool {
	w, _, _ := strings.Cut(t, " ")
	return footerFirst[strings.ToLower(w)]
}

// sigMark reports a line that marks a business signature: a contact or
// register label at its start ("Tel.", "Fax", "Sitz:", "HRB", "IBAN",
// "USt-IdNr", "P.IVA", "KvK", "SIRET", "CIF", "NIF", ...), a certification,
// a legal or confidentiality notice word, a company legal form ("GmbH",
// "S.r.l.", "B.V.", "SARL", "Ltd"), or by structure a phone number, an
// e-mail address, a URL or a postal code followed by a town.
func sigMark(t string) bool {
	if t == "" {
		return false
	}
	if labelMark(t) {
		return true
	}
	low := strings.ToLower(t)
	if strings.Contains(low, "://") || strings.Contains(low, "www.") {
		return true
	}
	if strings.IndexByte(t, '@') >= 0 && sigMailRe.MatchString(t) {
		return true
	}
	if !strings.ContainsAny(t, "0123456789") {
		return false
	}
	return sigPhoneRe.MatchString(t) || sigPostalRe.MatchString(t)
}

// strongMark reports a signature mark that is more than an address or a
// postal code: a label, a notice word, a company form, a URL or a phone
// number.
func strongMark(t string) bool {
	low := strings.ToLower(t)
	return labelMark(t) || strings.Contains(low, "://") || strings.Contains(low, "www.") || sigPhoneRe.MatchString(t)
}

// labelMark reports the signature marks made of words: a label at the
// start of the line, a certification or notice word, a company form.
func labelMark(t string) bool {
	low := strings.ToLower(t)
	for _, l := range sigLabels {
		if strings.HasPrefix(low, l) && (len(low) == len(l) || strings.IndexByte(" \t.:/0123456789", low[len(l)]) >= 0) {
			return true
		}
	}
	for _, w := range sigWords {
		if k := strings.Index(low, w); k >= 0 && wordAt(low, k, len(w)) {
			return true
		}
	}
	for _, f := range strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == ';' || r == '\t' }) {
		if sigCompanies[f] || sigCompanies[strings.TrimSuffix(f, ".")] {
			return true
		}
	}
	return false
}

// wordAt reports whether low[k:k+n] stands as a word: not glued to a
// letter or digit on either side.
func wordAt(low string, k, n int) bool {
	if k > 0 {
		r, _ := utf8.DecodeLastRuneInString(low[:k])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	if k+n < len(low) {
		r, _ := utf8.DecodeRuneInString(low[k+n:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

var (
	numberFormRe = regexp.MustCompile(`^[#(\["'“«]?\d{1,3}(?:[.)\]"'”»:,!-]|\s|$)`)
	optionFormRe = regexp.MustCompile(`(?i)^(?:` + alternation(append(words("option"), words("option-dotted")...)) + `)\s*[#:]?\s*\d{1,3}\b`)
)

// answerLine reports a line that answers the referee, however written: it
// starts with a keyword, or, unless it is a signature mark ("12 rue de la
// Paix, 75002 Paris"), with an option number ("2", "2)", "#2", "(2)",
// "“2”") or an option word and number ("option 2", "opzione 2"); without
// keywords, a line that reads as a command (see looksLikeCommand) and is
// no signature mark.
func answerLine(t string, isKeyword func(string) bool) bool {
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return false
	}
	if isKeyword != nil && isKeyword(strings.ToUpper(strings.TrimRight(fields[0], ":,.!?"))) {
		return true
	}
	t = strings.TrimLeftFunc(t, func(c rune) bool { return isSymbol(c) || unicode.IsSpace(c) }) // "👍option 2"
	if !numberFormRe.MatchString(t) && !optionFormRe.MatchString(t) && !numberWordLine(t) && (isKeyword != nil || !looksLikeCommand(t, nil)) {
		return false
	}
	return !sigMark(t) && !streetAddress(t, isKeyword)
}

// sigCommand reports whether a line reads as a command, so that no
// business signature block starts above it: it answers (answerLine), or
// its first word is an upper-case word ("PLAYER ann@x Ann", "MH3") or it
// reads as a command otherwise (looksLikeCommand), unless it opens with a
// signature label or names a company ("IBAN ...", "HRB 1234", "ACME GmbH").
func sigCommand(t string, isKeyword func(string) bool) bool {
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return false
	}
	if answerLine(t, isKeyword) {
		return true
	}
	if !(len(fields[0]) >= 2 && isUpperWord(strings.TrimRight(fields[0], ",.!?")) || looksLikeCommand(t, isKeyword)) {
		return false
	}
	return !labelMark(t)
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
