package mailfmt

import (
	"slices"
	"strings"
	"unicode"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// CommandInfo says what Commands removed or used, so the referee can echo
// it ("I read your commands between #begin and #end", "I ignored the quoted
// text after 'On ... wrote:'").
type CommandInfo struct {
	// Markers is true when the text came from a #begin/#end block.
	Markers bool
	// Unclosed is true when #begin had no #end: the block ran to the quoted
	// part or the end of the message (and signatures were still removed).
	Unclosed bool
	// Outside counts the non-blank lines of the player's own text that were
	// left out because they were outside the #begin/#end block.
	Outside int
	// Quote is true when quoted text was removed. QuoteHeader is the
	// attribution or separator line where it began ("On ... wrote:",
	// "-----Original Message-----", "From: ..."), when there was one.
	Quote       bool
	QuoteHeader string
	// Interleaved is true when the player wrote below or between quoted
	// lines (bottom-posting, inline answers); those lines were kept.
	Interleaved bool
	// Forwarded is true when the message forwards another one; only the
	// forwarder's own text was kept.
	Forwarded bool
	// Signature is true when a signature was removed; SignatureLine is its
	// first line ("--", "Sent from my iPhone", ...).
	Signature     bool
	SignatureLine string
	// SignOff lists the closing lines removed at the end ("Thanks,",
	// the sender's name, "--Randall").
	SignOff []string
	// Greeting lists the greeting lines removed at the start ("Ciao!",
	// "Hi all,").
	Greeting []string
	// Lines is the number of non-blank lines returned.
	Lines int
}

// Commands returns the player's own new text in m: the command lines, with
// quoted replies, forwarded messages, signatures and closing lines removed
// (see ExtractCommands).
func Commands(m *mailmsg.Message) (string, CommandInfo) {
	return extractCommands(m.Text, m.From, nil, nil)
}

type lineKind uint8

const (
	lkOwn    lineKind = iota
	lkQuoted          // "> " quoted
	lkHeader          // attribution line(s) of a quote
	lkCut             // part of the quoted or forwarded message
	lkSig             // signature
)

// ExtractCommands returns the player's own new text in a normalised body
// (Message.Text, or a text a webhook provider passed). sender is used to
// recognise the sender's name in closing lines; it may be zero.
//
// The rules, in order:
//
//   - quoted lines are never returned: '>' always quotes; '|' and ':'
//     quote when used consistently (on two lines or more, or after a line
//     ending in ':');
//   - a reply header followed by quoted lines is dropped, and the player's
//     lines around the quote are kept (top-posting, bottom-posting and
//     inline answers). Reply headers are the clients' attributions ("On ...
//     wrote:", "Il giorno ... ha scritto:", "In data ... ha scritto:", "Le
//     ... a écrit :", "Op ... schreef ...:", "Am ... schrieb ...:", "X
//     schrieb am ...:", "X wrote on <date>:" of Lotus Notes, Spanish,
//     Portuguese, Polish, mutt's "* X [date]:"), wrapped over up to three
//     lines (also right before the '>' of the address, leaving ">:" alone),
//     with the verb glued to the address or not; and, whatever the
//     language, one to three lines ending in ':' that carry a date, a time
//     or an address, or a line framed by dashes that does;
//   - a line that reads as a command (it starts with a keyword, an
//     upper-case word or an option number, or holds a board coordinate) is
//     never part of a reply header, nor is a line above one that is
//     complete by itself;
//   - a separator ("-----Original Message-----" and its translations,
//     forwarded-message lines, any "-----Words-----" line over a header
//     block), a header block ("From:/Sent:/To:/Subject:" in en, it, fr, nl,
//     de, es, pt, pl, ru, sv, da, with any spacing around the colon, after
//     a line of underscores or not, starting at From or at a date field
//     such as "Message du :"), the referee's "##- ... -##" line under any
//     quote prefix, a dated reply header followed by unquoted text, or any
//     reply header followed by a header block ends the player's text:
//     everything below is the quoted or forwarded message;
//   - a #begin line, alone on a line in the player's own text, starts the
//     command block and the next #end line ends it: only the block is
//     returned, unchanged except for quoted lines (markers override the
//     heuristics below);
//   - a signature ("-- ", "--" when a name, address, URL, phone number
//     or closing word follows, a bare rule line) runs to the quoted part or
//     the end unless a command line follows it; a mobile or webmail footer
//     ("Sent from my iPhone" and the like, see words/reply.txt) is one line
//     of signature wherever it stands; a business signature block without
//     "-- " (company, Tel., Fax, Sitz:, HRB, IBAN, legal notices) at the
//     end is one too (see the package documentation, "Where a reply's own
//     text ends");
//   - closing lines at the very end (at most three: "Thanks,", "Ciao",
//     "Beste Grüße", "Saludos", the sender's name, a name below a closing
//     word, a name glued to "--", "//" or "-") are removed and listed in
//     CommandInfo.SignOff; greeting lines at the very start (at most two:
//     "Ciao!", "Hi all,", "Hola", "Dear referee,") in CommandInfo.Greeting.
//     Closing and greeting words are those of en, it, fr, nl, de and es,
//     matched at a word boundary ("Bestand" is no "Best"), and a line that
//     reads as a command never is one;
//   - trailing spaces are removed, runs of blank lines collapsed, and
//     leading and trailing blank lines trimmed.
//
// Prose lines the player wrote among the commands ("here is my move") are
// returned: Keywords.IsProse and Keywords.SplitProse tell them apart.
// Keywords.ExtractCommands reads with the caller's command keywords.
func ExtractCommands(body string, sender mailmsg.Address) (string, CommandInfo) {
	return extractCommands(body, sender, nil, nil)
}

// extractCommands is Keywords.ExtractCommands with the typo guard given: near
// reports an upper-case word one edit from a keyword (nil when isKeyword
// is).
func extractCommands(body string, sender mailmsg.Address, isKeyword, near func(string) bool) (string, CommandInfo) {
	var info CommandInfo
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	kinds := make([]lineKind, len(lines))
	cut := classifyLines(newScan(lines, isKeyword), kinds, &info)
	names := &signer{names: senderNames(sender), isKeyword: isKeyword, near: near}

	// Explicit markers, searched in the player's own lines only.
	begin := -1
	for i := 0; i < cut; i++ {
		if kinds[i] == lkOwn && isMarker(lines[i], "#begin") {
			begin = i
			break
		}
	}
	var keep []string
	if begin >= 0 {
		info.Markers = true
		end := -1
		for j := begin + 1; j < cut; j++ {
			if kinds[j] != lkQuoted && isMarker(lines[j], "#end") {
				end = j
				break
			}
		}
		stop := end
		if end < 0 {
			info.Unclosed = true
			stop = cut
		}
		var block []string
		var blockKinds []lineKind
		for j := begin + 1; j < stop; j++ {
			if kinds[j] == lkQuoted || kinds[j] == lkHeader {
				continue
			}
			block = append(block, lines[j])
			blockKinds = append(blockKinds, lkOwn)
		}
		info.Outside = countOutside(lines, kinds, begin, end, cut, names)
		if end < 0 {
			markSignature(block, blockKinds, len(block), names, &info)
			block = ownLines(block, blockKinds)
			block = stripSignOff(block, names, &info)
		}
		keep = block
	} else {
		markSignature(lines, kinds, cut, names, &info)
		keep = stripSignOff(ownLines(lines[:cut], kinds[:cut]), names, &info)
		keep = stripGreeting(keep, names, &info)
	}
	out := tidy(keep)
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			info.Lines++
		}
	}
	return out, info
}

// countOutside counts the player's own non-blank lines outside the marker
// block lines[begin..end] (to the cut when end < 0), signatures excluded.
func countOutside(lines []string, kinds []lineKind, begin, end, cut int, names *signer) int {
	outside := slices.Clone(kinds[:cut])
	last := cut - 1
	if end >= 0 {
		last = end
	}
	for i := begin; i <= last; i++ {
		outside[i] = lkCut
	}
	var scratch CommandInfo
	markSignature(lines, outside, cut, names, &scratch)
	n := 0
	for i, k := range outside {
		if k == lkOwn && strings.TrimSpace(lines[i]) != "" {
			n++
		}
	}
	return n
}

func isMarker(line, marker string) bool {
	return strings.EqualFold(strings.TrimSpace(line), marker)
}

// classifyLines marks quoted lines, reply headers and everything after a
// cut, and returns the index of the cut (len(lines) when there is none).
func classifyLines(s *scan, kinds []lineKind, info *CommandInfo) int {
	lines := s.lines
	sawQuote := false
	for i := 0; i < len(lines); i++ {
		if s.quoted[i] {
			kinds[i] = lkQuoted
			info.Quote = true
			sawQuote = true
			continue
		}
		t := strings.TrimSpace(lines[i])
		if t == "" {
			continue
		}
		kind, span, fwd := s.boundaryAt(i)
		switch kind {
		case cutBoundary:
			if q := s.quoteAfterHeader(i); q > 0 {
				// A separator or header block over '>'-quoted lines
				// (Proton's "------- Original Message -------" then
				// "On ... wrote:"): a quote header; the player's lines
				// below the quote are kept.
				for k := i; k < q; k++ {
					kinds[k] = lkHeader
				}
				info.Quote = true
				if info.QuoteHeader == "" {
					info.QuoteHeader = clip(strings.TrimSpace(lines[i]))
				}
				info.Forwarded = info.Forwarded || fwd
				i = q - 1
				continue
			}
			return cutAt(lines, kinds, i, fwd, info)
		case attribution, weakAttrib:
			next := nextNonBlank(lines, i+span)
			if next >= 0 && !s.quoted[next] && s.headerBlockAt(next) {
				// An attribution over a header block: a forwarded or
				// quoted mail without quote marks.
				return cutAt(lines, kinds, i, false, info)
			}
			if next < 0 || s.quoted[next] {
				for k := i; k < i+span; k++ {
					kinds[k] = lkHeader
				}
				info.Quote = true
				if info.QuoteHeader == "" {
					info.QuoteHeader = clip(joinTrim(lines[i : i+span]))
				}
				i += span - 1
				continue
			}
			if kind == attribution {
				return cutAt(lines, kinds, i, false, info)
			}
		}
		if sawQuote {
			info.Interleaved = true
		}
	}
	return len(lines)
}

func cutAt(lines []string, kinds []lineKind, i int, fwd bool, info *CommandInfo) int {
	for k := i; k < len(lines); k++ {
		kinds[k] = lkCut
	}
	info.Quote = true
	info.Forwarded = info.Forwarded || fwd
	info.QuoteHeader = clip(strings.TrimSpace(lines[i]))
	return i
}

func joinTrim(lines []string) string {
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, " ")
}

func clip(s string) string {
	if len(s) <= 200 {
		return s
	}
	cut := 200
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// markSignature marks as signature the own lines from each signature
// delimiter up to limit or to the next line that answers the referee
// (answerLine: nothing below a command is hidden by a mark above it):
// "-- ", "--" when a signature follows, a bare rule line; a mobile footer
// is one line of signature by itself. A business signature block at the
// end of the text is one too (see markBusiness).
func markSignature(lines []string, kinds []lineKind, limit int, names *signer, info *CommandInfo) {
	note := func(i int) {
		if !info.Signature {
			info.Signature = true
			info.SignatureLine = clip(strings.TrimSpace(lines[i]))
		}
	}
	for i := 0; i < limit; i++ {
		if kinds[i] != lkOwn {
			continue
		}
		k := sigDelimiter(lines[i])
		switch k {
		case notSig:
			continue
		case sigFooter:
			kinds[i] = lkSig
			note(i)
			continue
		}
		if k == sigMaybe && !looksLikeSignature(ownAfter(lines, kinds, i+1, limit, 5, names.isKeyword), names) {
			continue
		}
		end := limit
		seen, gap := false, false
		for j := i + 1; j < limit; j++ {
			if kinds[j] != lkOwn {
				continue
			}
			t := strings.TrimSpace(lines[j])
			if t == "" {
				gap = seen
				continue
			}
			if answerLine(t, names.isKeyword) {
				end = j
				break
			}
			if gap && !sigParagraph(lines, kinds, j, limit, names) {
				// A later paragraph that is no signature: the player
				// wrote below their signature.
				end = j
				break
			}
			seen, gap = true, false
		}
		note(i)
		for j := i; j < end; j++ {
			if kinds[j] == lkOwn {
				kinds[j] = lkSig
			}
		}
		i = end - 1
	}
	markBusiness(lines, kinds, limit, names, info)
	if !markSignedTail(lines, kinds, limit, names, info) {
		markPlacedTail(lines, kinds, limit, names, info)
	}
}

// markBusiness marks a business signature written without "-- ": in the
// run of own lines at the end of the text that holds no command line, the
// lines from the first signature mark (sigMark: "Tel.", "HRB", "IBAN", a
// company form, a legal notice, a phone number, ...) on, with the name,
// title and company lines right above it in the same paragraph.
func markBusiness(lines []string, kinds []lineKind, limit int, names *signer, info *CommandInfo) {
	var idx []int
	for i := 0; i < limit; i++ {
		if kinds[i] == lkOwn && strings.TrimSpace(lines[i]) != "" {
			idx = append(idx, i)
		}
	}
	start := len(idx)
	for start > 0 && !answerish(strings.TrimSpace(lines[idx[start-1]]), names) {
		start--
	}
	first := -1
	for k := start; k < len(idx); k++ {
		if sigMark(strings.TrimSpace(lines[idx[k]])) {
			first = k
			break
		}
	}
	if first < 0 {
		return
	}
	// Addresses and postal codes alone do not make a signature (an
	// organiser's "player ann@x Ann" lines): a label, a company, a notice,
	// a phone number or a URL must be among the marks.
	strong := false
	for k := first; k < len(idx) && !strong; k++ {
		strong = strongMark(strings.TrimSpace(lines[idx[k]]))
	}
	if !strong {
		return
	}
	for first > start && idx[first-1] == idx[first]-1 && sigHead(strings.TrimSpace(lines[idx[first-1]]), names) {
		first--
	}
	markFrom(lines, kinds, idx[first], limit, info)
}

// ownAfter returns up to n non-blank own lines from lines[from] on, before
// the first line that answers the referee.
func ownAfter(lines []string, kinds []lineKind, from, limit, n int, isKeyword func(string) bool) []string {
	var out []string
	for j := from; j < limit && len(out) < n; j++ {
		if kinds[j] != lkOwn {
			continue
		}
		t := strings.TrimSpace(lines[j])
		if t == "" {
			continue
		}
		if answerLine(t, isKeyword) {
			break
		}
		out = append(out, lines[j])
	}
	return out
}

// sigParagraph reports whether the paragraph of own lines from lines[j]
// reads as part of a signature: each line a signature mark, a name, title
// or closing line, a footer, a rule line or a long line (a notice, a
// quotation, a key fingerprint: six words or more).
func sigParagraph(lines []string, kinds []lineKind, j, limit int, names *signer) bool {
	for ; j < limit; j++ {
		if kinds[j] != lkOwn {
			continue
		}
		t := strings.TrimSpace(lines[j])
		if t == "" {
			return true
		}
		if _, _, rule := ruleLine(t); rule || sigMark(t) || sigHead(t, names) || sigDelimiter(t) == sigFooter || len(strings.Fields(t)) >= 6 {
			continue
		}
		return false
	}
	return true
}

// answerish reports a line that a business signature block never starts
// above: a command or an answer (sigCommand), or a short line (four words
// at most) that is neither a signature mark nor a name, title or closing
// line ("paas", "option 2", "ok").
func answerish(t string, names *signer) bool {
	if sigCommand(t, names.isKeyword) {
		return true
	}
	return len(strings.Fields(t)) <= 4 && !sigMark(t) && !sigHead(t, names)
}

// sigHead reports a line that may head a business signature: a name, a
// job title or a company name (one to three capitalised words), the
// sender's name, or a closing word.
func sigHead(t string, names *signer) bool {
	return isName(t) || isNameLine(t, names) || isValediction(t)
}

func ownLines(lines []string, kinds []lineKind) []string {
	var out []string
	for i, l := range lines {
		if kinds[i] == lkOwn {
			out = append(out, l)
		}
	}
	return out
}

// stripSignOff removes closing lines at the end of the text: at most three
// non-blank lines, each a closing word ("Thanks", "Ciao", "Groetjes",
// "Beste Grüße", ...) optionally followed by a name, the sender's name
// alone (compared with the display name's words and the address's local
// part), a name glued to a dash or slashes ("--Randall", "//Jef", "-- Ann"),
// or any name right below a closing word.
func stripSignOff(lines []string, names *signer, info *CommandInfo) []string {
	end := len(lines)
	var removed []string
	for n := 0; n < 3; {
		j := end - 1
		for j >= 0 && strings.TrimSpace(lines[j]) == "" {
			j--
		}
		if j < 0 {
			break
		}
		t := strings.TrimSpace(lines[j])
		if !isSignOff(t, names) {
			// A name below a closing word ("Thanks\nRandall").
			if n > 0 || !isName(t) || looksLikeCommand(t, names.isKeyword) {
				break
			}
			k := j - 1
			for k >= 0 && strings.TrimSpace(lines[k]) == "" {
				k--
			}
			if k < 0 || !isValediction(strings.TrimSpace(lines[k])) {
				break
			}
		}
		removed = append([]string{t}, removed...)
		end = j
		n++
	}
	if len(removed) == 0 {
		return lines
	}
	info.SignOff = removed
	return lines[:end]
}

// isValediction reports a closing word alone or followed by a name.
func isValediction(t string) bool {
	if len(t) > 60 {
		return false
	}
	loc := valedictionRe.FindStringIndex(t)
	if loc == nil {
		return false
	}
	rest := strings.Trim(t[loc[1]:], " ,.!:;~-")
	return rest == "" || isName(rest)
}

// signer is what closing lines are recognised with: the sender's names and
// the caller's keywords (a line that reads as a command never is one).
type signer struct {
	names     map[string]bool
	isKeyword func(string) bool
	// near is the typo guard of isKeyword: an upper-case word one edit
	// from a keyword (Keywords: compared with the keywords; a plain
	// isKeyword: nearKeyword's every spelling); nil without keywords.
	near func(string) bool
}

func isSignOff(t string, names *signer) bool {
	if len(t) > 60 || looksLikeCommand(t, names.isKeyword) {
		return false
	}
	if loc := valedictionRe.FindStringIndex(t); loc != nil {
		rest := strings.Trim(t[loc[1]:], " ,.!:;~-")
		if rest == "" || isNameLine(rest, names) || isName(rest) {
			return true
		}
		return false
	}
	if m := gluedNameRe.FindStringSubmatch(t); m != nil && isName(m[1]) {
		return true
	}
	return isNameLine(t, names)
}

// stripGreeting removes greeting lines at the start of the text (at most
// two): a greeting word ("Hi", "Ciao", "Bonjour", "Hallo", "Hola", ...),
// alone or followed by at most three words without digits, upper-case
// words or coordinates ("Ciao!", "Hi all,", "Dear referee,").
func stripGreeting(lines []string, names *signer, info *CommandInfo) []string {
	start := 0
	for n := 0; n < 2; n++ {
		j := start
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j >= len(lines) {
			break
		}
		t := strings.TrimSpace(lines[j])
		if !isGreeting(t, names) {
			break
		}
		info.Greeting = append(info.Greeting, t)
		start = j + 1
	}
	return lines[start:]
}

func isGreeting(t string, names *signer) bool {
	if len(t) > 50 || looksLikeCommand(t, names.isKeyword) {
		return false
	}
	loc := greetingRe.FindStringIndex(t)
	if loc == nil {
		return false
	}
	rest := strings.Trim(t[loc[1]:], " ,.!:;~-")
	if len(strings.Fields(rest)) > 3 {
		return false
	}
	return rest == "" || isProse(rest, names.isKeyword, names.near)
}

// senderNames returns the lower-cased words a sender signs with: the words
// of the display name, and the address's local part
// and its first word.
func senderNames(a mailmsg.Address) map[string]bool {
	names := map[string]bool{}
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || r == ',' || r == '"' || r == '(' || r == ')'
		})
	}
	for _, w := range split(a.Name) {
		w = strings.ToLower(strings.Trim(w, "."))
		if len(w) < 2 || strings.Contains(w, "@") {
			continue
		}
		names[w] = true
	}
	if l := strings.ToLower(a.Local()); l != "" {
		if i := strings.IndexByte(l, '+'); i >= 0 {
			l = l[:i]
		}
		if len(l) >= 2 {
			names[l] = true
		}
		if f := strings.FieldsFunc(l, func(r rune) bool { return r == '.' || r == '_' || r == '-' }); len(f) > 0 && len(f[0]) >= 2 {
			names[f[0]] = true
		}
	}
	return names
}

// tidy trims trailing spaces of each line, collapses runs of blank lines
// and trims blank lines at both ends.
func tidy(lines []string) string {
	out := make([]string, 0, len(lines))
	blank := false
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		if l == "" {
			if len(out) > 0 {
				blank = true
			}
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func isNameLine(t string, s *signer) bool {
	t = strings.TrimRight(t, " ,.!")
	if t == "" || s == nil || len(s.names) == 0 {
		return false
	}
	names := s.names
	for _, w := range strings.Fields(t) {
		w = strings.ToLower(strings.Trim(w, ",.!"))
		if w == "" {
			continue
		}
		if !names[w] {
			return false
		}
	}
	return true
}
