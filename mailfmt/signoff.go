package mailfmt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A signature under a sign-off, without "-- " (doc.go, "Where a reply's
// own text ends", rule 6): the lines below a closing line ("Best
// regards,", "Ciao!", "Grüße,", "Cheers", "Bien à vous", "Groetjes") or
// below the sender's name opening the last paragraph, to the end of the
// player's text, when none of them may be a command (tailCommand).

// maxTail is the most lines a signature under a sign-off holds (name,
// title, company, street, town, phone, web), and maxTailWords the most
// words of one of its lines: a longer line is the player's own text.
const (
	maxTail      = 8
	maxTailWords = 10
)

// markSignedTail marks as signature the own lines below the first closing
// line (or the sender's name opening a paragraph) that has the player's
// text above it and below it, to limit, only lines that may be no
// command: a name, a title, a company, an address, a phone number, a web
// address, a line of prose. The closing line and a name right below it
// stay, for stripSignOff to list.
func markSignedTail(lines []string, kinds []lineKind, limit int, names *signer, info *CommandInfo) bool {
	idx := ownIndexes(lines, kinds, limit)
	// A tail holds at most maxTail lines: only the last maxTail+1 lines
	// can close one (a long mail costs no more than a short one).
	for k := max(1, len(idx)-1-maxTail); k < len(idx)-1; k++ {
		t := strings.TrimSpace(lines[idx[k]])
		paragraph := idx[k-1] < idx[k]-1
		if !(isValediction(t) || isSignOff(t, names) || paragraph && isNameLine(t, names)) || looksLikeCommand(t, names.isKeyword) {
			continue
		}
		tail := idx[k+1:]
		if len(tail) > maxTail || !signedTail(lines, tail, names) {
			continue
		}
		from := 0
		if n := strings.TrimSpace(lines[tail[0]]); isValediction(t) && (isName(n) || isNameLine(n, names)) {
			from = 1 // the name under the closing line: a sign-off
		}
		if from == len(tail) {
			return true // a closing line and a name: stripSignOff's
		}
		markFrom(lines, kinds, tail[from], limit, info)
		return true
	}
	return false
}

// ownIndexes returns the indexes of the player's own lines before limit
// that are not blank: the lines a signature's place is counted in.
func ownIndexes(lines []string, kinds []lineKind, limit int) []int {
	var idx []int
	for i := 0; i < limit; i++ {
		if kinds[i] == lkOwn && strings.TrimSpace(lines[i]) != "" {
			idx = append(idx, i)
		}
	}
	return idx
}

// markFrom marks the own lines from lines[from] to limit as signature.
func markFrom(lines []string, kinds []lineKind, from, limit int, info *CommandInfo) {
	if !info.Signature {
		info.Signature = true
		info.SignatureLine = clip(strings.TrimSpace(lines[from]))
	}
	for j := from; j < limit; j++ {
		if kinds[j] == lkOwn {
			kinds[j] = lkSig
		}
	}
}

// markPlacedTail marks a signature without sign-off, "-- " or the
// sender's name above it, by its place (doc.go rule 6): when the caller's
// keywords are known, the lines at the end of the player's text below an
// answer line (at most maxTail, maxTailWords words each), from one that
// heads a signature (a name, a company, a title, a street, a '|' line of
// those) opening a paragraph or naming a company, when none of them may
// be a command of the caller (tailCommand) and one of them is shaped as
// a signature line (sigShaped): "2", "", "ACME GmbH", "CEO", "Piazza
// Duomo 1".
func markPlacedTail(lines []string, kinds []lineKind, limit int, names *signer, info *CommandInfo) {
	if names.isKeyword == nil {
		return
	}
	idx := ownIndexes(lines, kinds, limit)
	if len(idx) < 2 {
		return
	}
	first := max(1, len(idx)-maxTail)
	answered := false
	for k := 0; k < first && !answered; k++ {
		answered = answerLine(strings.TrimSpace(lines[idx[k]]), names.isKeyword)
	}
	for k := first; k < len(idx); k++ {
		t := strings.TrimSpace(lines[idx[k]])
		if !answered {
			answered = answerLine(t, names.isKeyword)
			continue
		}
		paragraph := idx[k-1] < idx[k]-1
		if !(paragraph || labelMark(t)) || !sigHeadLine(t, names) {
			continue
		}
		tail := idx[k:]
		if !signedTail(lines, tail, names) {
			continue
		}
		shaped := false
		for _, i := range tail {
			shaped = shaped || sigShaped(strings.TrimSpace(lines[i]), names)
		}
		if shaped {
			markFrom(lines, kinds, idx[k], limit, info)
		}
		return
	}
}

// sigHeadLine reports a line that may open a signature: a name, the
// sender's name, or a signature-shaped line (sigShaped).
func sigHeadLine(t string, names *signer) bool {
	return isName(t) || isNameLine(t, names) || sigShaped(t, names)
}

// sigShaped reports a line shaped as a signature line, never as chat: a
// company, label or notice (labelMark), a contact mark (sigMark), a
// street (streetLine), a title in capitals of three letters at most
// ("CEO", "PDG"), or a '|' line one part of which is one of those.
func sigShaped(t string, names *signer) bool {
	if strings.ContainsRune(t, '|') {
		for part := range strings.SplitSeq(t, "|") {
			if p := strings.TrimSpace(part); p != "" && sigShaped(p, names) {
				return true
			}
		}
		return false
	}
	kw := func(w string) bool { return names.isKeyword != nil && names.isKeyword(w) }
	n := utf8.RuneCountInString(t)
	return labelMark(t) || sigMark(t) || streetLine(t, kw) || n >= 2 && n <= 3 && isLetters(t) && t == strings.ToUpper(t)
}

// signedTail reports whether the lines at idx can all be a signature:
// short, and none a possible command.
func signedTail(lines []string, idx []int, names *signer) bool {
	for _, i := range idx {
		t := strings.TrimSpace(lines[i])
		if len(strings.Fields(t)) > maxTailWords || tailCommand(t, names.isKeyword, names.near) {
			return false
		}
	}
	return true
}

// tailCommand reports a line under a sign-off that may still be a command,
// so that it is read (played, or refused with a hint), never hidden as a
// signature: the engine's comment; alternatives or separated parts one of
// which may be a command; a first word that is a keyword (unless the line
// is a street address: "Piazza Duomo 1"), one edit from one in capitals or
// with a digit on its line ("PASSS", "Plcae HP1"), a number or option form
// (unless a street address: "221 Baker St"), or a word in capitals that
// is no company, label or title of three letters at most ("CEO", "ACME
// GmbH"; "WITHDRAW cup ann@x" may be a keyword the reader does not know);
// a keyword in capitals later ("Ann PASS"), or a board coordinate and a
// keyword ("please place HP1").
//
// near is isKeyword's typo guard (nil: no typo is looked for).
func tailCommand(t string, isKeyword, near func(string) bool) bool {
	if strings.ContainsRune(t, '#') {
		return true
	}
	if strings.ContainsAny(t, "|;") {
		for _, part := range strings.FieldsFunc(t, func(r rune) bool { return r == '|' || r == ';' }) {
			if p := strings.TrimSpace(part); p != "" && tailCommand(p, isKeyword, near) {
				return true
			}
		}
		return false
	}
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return false
	}
	first := strings.TrimRight(fields[0], ":,.!?")
	up := strings.ToUpper(first)
	kw := func(w string) bool { return isKeyword != nil && isKeyword(w) }
	digit := strings.ContainsAny(t, "0123456789")
	address := streetLine(t, kw)
	switch {
	case kw(up) && !address && !companyName(t):
		return true
	case near != nil && !kw(up) && (first == up || digit) && near(up):
		return true
	case optionFormRe.MatchString(t):
		return true
	case numberFormRe.MatchString(t) && !address && !sigPostalRe.MatchString(t):
		return true
	case utf8.RuneCountInString(first) >= 2 && isLetters(first) && first == up && !labelMark(t) &&
		!(len(fields) == 1 && utf8.RuneCountInString(first) <= 3):
		return true
	}
	code, keyword := false, false
	for _, f := range fields {
		w := strings.Trim(f, ":,.!?()\"'“”«»")
		if utf8.RuneCountInString(w) >= 2 && isLetters(w) && w == strings.ToUpper(w) && kw(w) {
			return true // "Ann PASS"
		}
		code = code || coordRe.MatchString(f) && strings.ContainsFunc(f, unicode.IsUpper)
		keyword = keyword || kw(strings.ToUpper(w))
	}
	return code && keyword
}

// companyName reports a company's name whose first word may be a keyword
// of some game ("Brew Co Ltd", "Birrificio Rossi S.r.l.", "Pass GmbH"):
// a first word not in capitals, a company legal form written as such
// (words/reply.txt [company-form]) as a later word, no digit. No
// command's arguments are a legal form; "BREW Co Ltd" stays a command.
func companyName(t string) bool {
	fields := strings.Fields(t)
	if len(fields) < 2 || strings.ContainsAny(t, "0123456789") {
		return false
	}
	first := strings.TrimRight(fields[0], ":,.!?")
	if utf8.RuneCountInString(first) >= 2 && first == strings.ToUpper(first) {
		return false
	}
	for _, f := range fields[1:] {
		f = strings.TrimRight(f, ",;")
		if sigCompanies[f] || sigCompanies[strings.TrimSuffix(f, ".")] {
			return true
		}
	}
	return false
}

// streetRe is a street address by shape: words then a house number
// ("Piazza Duomo 1", "Kerkstraat 12", "Hauptstr. 12a", "Piazza del
// Duomo, 1"), or a house
// number then words ("221 Baker St", "12 rue de la Paix"), a town after a
// comma.
var streetRe = regexp.MustCompile(`^(?:\p{Lu}[\p{L}.'’-]*(?:\s+[\p{L}.'’-]+){0,4},?\s+\d{1,4}[a-zA-Z]?|\d{1,4}[a-zA-Z]?,?(?:\s+[\p{L}.'’-]+){1,5})(?:,.*)?$`)

// streetLine reports a street address (streetRe) whose words are names,
// not a command's arguments: one word in capitals at most, none of them
// a keyword in capitals, no board coordinate, a capitalised word among
// them, no word of chat ("2 please").
func streetLine(t string, kw func(string) bool) bool {
	if !streetRe.MatchString(t) {
		return false
	}
	head, _, _ := strings.Cut(t, ",")
	capital := false
	for i, f := range strings.Fields(head) {
		w := strings.TrimRight(f, ".")
		if coordRe.MatchString(w) && strings.ContainsFunc(w, unicode.IsUpper) {
			return false
		}
		if !isLetters(strings.Trim(w, "'’-")) {
			continue
		}
		if utf8.RuneCountInString(w) >= 2 && w == strings.ToUpper(w) && (kw(w) || i > 0) {
			return false
		}
		if chatWord(w, nil) {
			return false
		}
		c, _ := utf8.DecodeRuneInString(w)
		capital = capital || unicode.IsUpper(c)
	}
	return capital
}
