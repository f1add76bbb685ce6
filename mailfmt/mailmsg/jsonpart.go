package mailmsg

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// JSONWidth is the width the lines of a JSON part are broken at (the
// width of the quoted-printable text part; RFC 5322 2.1.1 asks for 78 at
// most): a line breaks after a comma or an opening bracket, or before a
// closing one, never inside a string, so a string longer than the width
// makes a longer line. A line never passes MaxLineOctets.
const JSONWidth = 76

// MaxLineOctets is the longest line RFC 5322 2.1.1 allows, CRLF excluded.
const MaxLineOctets = 998

// jsonLines lays out the JSON text src as a 7bit MIME body (RFC 2045
// 2.4: US-ASCII, CRLF line ends, lines of at most 998 octets) that is
// the same JSON value: every byte of src is kept but for
//   - a non-ASCII character or DEL inside a string, written as its \uXXXX
//     escape (a surrogate pair above U+FFFF; RFC 8259 7);
//   - a line end, written CRLF (a CR outside a string is dropped: it is
//     whitespace);
//   - a CRLF added between two tokens where a line would pass JSONWidth
//     (whitespace between tokens is insignificant: RFC 8259 2).
//
// It reports false when src is not valid JSON (the caller sends it as it
// is, in base64) or a line cannot be kept within MaxLineOctets (a string
// token that long). valid says src is known to be JSON (encoding/json's
// output, Out.JSONValid: issue 25, the JSON the core just built is not
// checked again); bytes said so wrongly still give 7bit lines or false,
// never a byte past ASCII, a NUL or a bare CR or LF.
func jsonLines(src []byte, valid bool) ([]byte, bool) {
	if !valid && !json.Valid(src) {
		return nil, false
	}
	out := make([]byte, 0, len(src)+len(src)/(JSONWidth-4)*2+16)
	col := 0           // octets on the current line
	brk, bcol := -1, 0 // where the line may break, and its column
	inStr := false
	const hex = "0123456789abcdef"
	escape := func(r rune) {
		out = append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		col += 6
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case inStr && c == '\\':
			// An escape is two bytes (\uXXXX's last four are plain).
			if i+1 == len(src) || src[i+1] < 0x20 || src[i+1] >= utf8.RuneSelf {
				return nil, false // not JSON
			}
			out = append(out, c, src[i+1])
			i, col = i+2, col+2
		case inStr && c == '"':
			inStr = false
			out = append(out, c)
			i, col = i+1, col+1
		case inStr && c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n == 1 {
				return nil, false
			}
			if r > 0xffff {
				r -= 0x10000
				escape(0xd800 + r>>10)
				escape(0xdc00 + r&0x3ff)
			} else {
				escape(r)
			}
			i += n
		case inStr && c == 0x7f:
			escape(0x7f)
			i++
		case inStr:
			if c < 0x20 {
				return nil, false // not JSON
			}
			// A run of plain string bytes at once (issue 25): no line
			// break point falls inside it, so the width's check after it
			// breaks where the byte that passed the width would have.
			j := i + 1
			for j < len(src) && plainInString[src[j]] {
				j++
			}
			out = append(out, src[i:j]...)
			i, col = j, col+j-i
		case c == '\r':
			i++
		case c == '\n':
			out = append(out, '\r', '\n')
			i, col, brk = i+1, 0, -1
		case c == 0 || c >= utf8.RuneSelf:
			return nil, false // not JSON
		case plainOutside[c]:
			// A run of bytes that neither open a string nor mark a break
			// point (digits, literals, ':', white space), at once.
			j := i + 1
			for j < len(src) && plainOutside[src[j]] {
				j++
			}
			out = append(out, src[i:j]...)
			i, col = j, col+j-i
		default:
			if (c == '}' || c == ']') && col > 0 {
				brk, bcol = len(out), col
			}
			out = append(out, c)
			i, col = i+1, col+1
			inStr = c == '"'
		}
		if col > JSONWidth && brk >= 0 {
			out = append(out, 0, 0)
			copy(out[brk+2:], out[brk:])
			out[brk], out[brk+1] = '\r', '\n'
			col -= bcol
			brk = -1
		}
		if !inStr && (c == ',' || c == '{' || c == '[') {
			// After the width's check: the line may end after it.
			brk, bcol = len(out), col
		}
		if col > MaxLineOctets {
			return nil, false
		}
	}
	return out, true
}

// plainInString marks the bytes jsonLines copies as they are inside a
// string (printable ASCII but the backslash and the quote); plainOutside
// the bytes it copies as they are outside one that mark no break point
// and open no string (not a bracket, a comma, a quote, CR, LF, NUL or a
// byte past ASCII).
var plainInString, plainOutside = func() (in, outside [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		in[c] = c != '\\' && c != '"'
	}
	for c := 1; c < utf8.RuneSelf; c++ {
		outside[c] = !bytes.ContainsRune([]byte("{}[],\"\r\n"), rune(c))
	}
	return in, outside
}()

// relabel7bit turns the Content-Transfer-Encoding "8bit" of the last part
// of the multipart mail raw (delimited by boundary) into "7bit": go-mail
// writes a file part's bytes as they are only under the label 8bit, and
// the JSON part's bytes are 7bit (jsonLines), which is what they must be
// called for a relay without 8BITMIME to pass them unchanged (RFC 6152).
func relabel7bit(raw []byte, boundary string) bool {
	// The last delimiter, found forwards (issue 25: bytes.LastIndex
	// searches a mail of 30 KB byte by byte; Index compares in blocks).
	delim := []byte("\r\n--" + boundary + "\r\n")
	at := -1
	for k := 0; ; {
		j := bytes.Index(raw[k:], delim)
		if j < 0 {
			break
		}
		at = k + j
		k = at + 1
	}
	if at < 0 {
		return false
	}
	head := raw[at:]
	if end := bytes.Index(head, []byte("\r\n\r\n")); end >= 0 {
		head = head[:end+2]
	}
	const label = "\r\nContent-Transfer-Encoding: 8bit\r\n"
	i := bytes.Index(head, []byte(label))
	if i < 0 {
		return false
	}
	copy(head[i+len(label)-6:], "7bit")
	return true
}
