package mailmsg

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/unicode/norm"
)

// toUTF8 converts the bytes of a text part in the declared charset to UTF-8.
// Undeclared, us-ascii or mislabelled UTF-8 text that is not valid UTF-8 is
// read as Windows-1252 (when it holds no valid multi-byte sequence at all) or
// gets U+FFFD for its bad bytes. ISO-8859-1 is read as its superset
// Windows-1252, as every mail client does: bytes 0x80-0x9F are smart quotes
// and the euro sign in practice, never C1 controls. It returns a warning
// when the charset is unknown.
func toUTF8(b []byte, label string) (string, string) {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	switch label {
	case "", "us-ascii", "ascii", "utf-8", "utf8", "unicode-1-1-utf-8", "x-unknown", "unknown-8bit", "default":
		return fallbackUTF8(b), ""
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819", "ibm819", "iso-ir-100", "csisolatin1":
		label = "windows-1252"
	}
	r, err := charset.Reader(label, bytes.NewReader(b))
	if err != nil {
		return fallbackUTF8(b), "unknown charset " + strings.ToValidUTF8(label, "?")
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return fallbackUTF8(b), "charset " + label + ": " + err.Error()
	}
	return strings.ToValidUTF8(string(out), "\uFFFD"), ""
}

// fallbackUTF8 returns b as UTF-8: as is when valid; decoded as
// Windows-1252 when it has no valid multi-byte sequence (so it is certainly
// an 8-bit charset); with U+FFFD for the bad bytes otherwise.
func fallbackUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	multi := false
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && n > 1 {
			multi = true
			break
		}
		i += n
	}
	if !multi {
		if r, err := charset.Reader("windows-1252", bytes.NewReader(b)); err == nil {
			if out, err := io.ReadAll(r); err == nil {
				return string(out)
			}
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// qpTrailingRe is "=20" and "=09" left at the end of a line.
var qpTrailingRe = regexp.MustCompile(`(?m)(?:=20|=09)+$`)

// qpSigns counts, up to 16 each, the signs of quoted-printable in s:
// escapes (hex) and soft line breaks (soft). Only escapes of "=" and of
// bytes >= 0x80 count ("=3D", "=[89A-F][0-9A-F]"; trailing "=20" is
// handled on its own): a printable ASCII escape ("=48") never comes out
// of an encoder, but "deadline=48h at=20:00 place=12h" comes out of an
// organiser. A soft break is "=" ending a line after a character that is
// neither "=" nor white space. (Issue 25: one pass over the bytes, with
// the answers of the regular expressions
// `=(?:3D|[89A-F][0-9A-F])` and `(?m)[^=\s]=$`, TestQPSignsAsTheRegexps_Issue25.)
func qpSigns(s string) (hex, soft int) {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
	for i := strings.IndexByte(s, '='); i >= 0; {
		if i+2 < len(s) && hex < 16 && (s[i+1] == '3' && s[i+2] == 'D' || (s[i+1] == '8' || s[i+1] == '9' ||
			'A' <= s[i+1] && s[i+1] <= 'F') && isHex(s[i+2])) {
			hex++
		}
		if (i+1 == len(s) || s[i+1] == '\n') && i > 0 && soft < 16 {
			switch s[i-1] {
			case '=', ' ', '\t', '\n', '\f', '\r':
			default:
				soft++
			}
		}
		j := strings.IndexByte(s[i+1:], '=')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return hex, soft
}

// fixQPDebris repairs text that still carries quoted-printable escapes: a
// part sent without (or with a wrong) Content-Transfer-Encoding, or encoded
// twice, as some iPhone mail does. When the text has clear signs of being
// quoted-printable (soft line breaks and escapes, or several UTF-8 escape
// sequences) it is decoded with the standard library's lenient reader;
// otherwise only "=20" left at line ends is removed.
func fixQPDebris(s string) string {
	if !strings.Contains(s, "=") {
		return s
	}
	hex, soft := qpSigns(s)
	if (soft >= 1 && hex >= 1) || hex >= 3 || soft >= 2 {
		out, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(s)))
		if err == nil {
			return fallbackUTF8(out)
		}
	}
	if !strings.Contains(s, "=20") && !strings.Contains(s, "=09") {
		return s // nothing for qpTrailingRe
	}
	return qpTrailingRe.ReplaceAllString(s, "")
}

// normalizeText applies the text normalisations of the package to a decoded
// body: line endings to "\n", quoted-printable debris, smart quotes and
// dashes to ASCII, exotic spaces to a space, zero-width and other invisible
// characters removed, control characters removed, and NFC.
func normalizeText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = fixQPDebris(s)
	s = mapBody(s)
	return norm.NFC.String(s)
}

// mapBody is mapRune for bodies, except that a character that hides or
// reorders text (zero-width space and non-joiner, bidi controls, invisible
// operators) inside a word becomes U+FFFD instead of vanishing:
// "PA<ZWSP>SS" must not be read as PASS but refused as an unknown command
// (issue 11). At a word's edge it vanishes, like the zero-width joiner, the
// BOM and the soft hyphen, common in honest text.
func mapBody(s string) string {
	if bodyKept(s) {
		return s // issue 25: most bodies need nothing, and are not copied
	}
	return mapBodyAll(s)
}

// bodyKept reports whether mapBody leaves s as it is: valid UTF-8 whose
// every character mapRune keeps as it is (none hides text: mapRune drops
// them all).
func bodyKept(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || mapRune(r) != r {
			return false
		}
		i += n
	}
	return true
}

// mapBodyAll is mapBody, writing every character.
func mapBodyAll(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := ' '
	for i, r := range s {
		if hidesText(r) {
			next := ' '
			for j := i + utf8.RuneLen(r); j < len(s); {
				n, size := utf8.DecodeRuneInString(s[j:])
				if !hidesText(n) {
					next = n
					break
				}
				j += size
			}
			// A bidi override, embedding or isolate reorders the text
			// it touches: at a word's edge too ("<U+202E>PASS" shows as
			// SSAP) it marks the word, so that the command is refused
			// (issue 23).
			if inWord(prev) && inWord(next) || reorders(r) && (inWord(prev) || inWord(next)) {
				b.WriteRune('\uFFFD')
				prev = '\uFFFD'
			}
			continue
		}
		if m := mapRune(r); m >= 0 {
			b.WriteRune(m)
			prev = m
		}
	}
	return b.String()
}

func hidesText(r rune) bool {
	switch r {
	case '\u200B', '\u200C', '\u2060', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E',
		'\u2066', '\u2067', '\u2068', '\u2069', '\u2061', '\u2062', '\u2063', '\u2064', '\u180E':
		return true
	}
	return false
}

// reorders reports whether r is a bidi embedding, override or isolate
// (the marks U+200E and U+200F, common in right-to-left text, are not).
func reorders(r rune) bool {
	return r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
}

func inWord(r rune) bool { return r != '\uFFFD' && !unicode.IsSpace(r) && !unicode.IsPunct(r) }

// normalizeHeader normalises a decoded header value: like normalizeText, and
// folded onto one line with runs of spaces collapsed.
func normalizeHeader(s string) string {
	s = strings.Map(mapRune, s)
	return strings.Join(strings.Fields(norm.NFC.String(s)), " ")
}

// mapRune is the per-character normalisation (-1 drops the character).
func mapRune(r rune) rune {
	switch r {
	case '\n', '\t':
		return r
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u02BC', '\uFF07':
		return '\''
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\uFF02':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\uFE58', '\uFE63', '\uFF0D':
		return '-'
	case '\u00A0', '\u1680', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005',
		'\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
		return ' '
	case '\u00AD', '\u180E', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF',
		'\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E',
		'\u2066', '\u2067', '\u2068', '\u2069', '\u2061', '\u2062', '\u2063', '\u2064':
		return -1
	case '\u2028', '\u2029', '\u0085':
		return '\n'
	}
	if r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0) {
		return -1
	}
	if unicode.Is(unicode.Cf, r) { // other invisible format characters
		return -1
	}
	return r
}

// unflow undoes format=flowed (RFC 3676): lines ending in a space are joined
// with the next line of the same quote depth; space-stuffing is removed. With
// delsp=yes the trailing space itself is dropped.
func unflow(s string, delsp bool) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		if open {
			out = append(out, quotePrefix(curDepth)+cur.String())
			cur.Reset()
			open = false
		}
	}
	for _, line := range lines {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		body := line[depth:]
		body = strings.TrimPrefix(body, " ")
		if open && depth != curDepth {
			flush()
		}
		flowed := strings.HasSuffix(body, " ") && body != "-- "
		if flowed && delsp {
			body = body[:len(body)-1]
		}
		cur.WriteString(body)
		curDepth, open = depth, true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}

func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}
