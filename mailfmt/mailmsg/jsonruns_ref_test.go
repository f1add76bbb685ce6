package mailmsg

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// jsonLinesByBytes is jsonLines as it was before issue 25's runs (one
// byte a turn of the loop), kept as the reference the runs are proven
// against (TestJSONLinesRunsAsByBytes_Issue25, FuzzJSONLinesRunsAsByBytes_Issue25).
func jsonLinesByBytes(src []byte, valid bool) ([]byte, bool) {
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
			out = append(out, c)
			i, col = i+1, col+1
		case c == '\r':
			i++
		case c == '\n':
			out = append(out, '\r', '\n')
			i, col, brk = i+1, 0, -1
		case c == 0 || c >= utf8.RuneSelf:
			return nil, false // not JSON
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

// TestJSONLinesRunsAsByBytes_Issue25: jsonLines, which copies runs of
// plain bytes at once, lays out every text as the byte-a-turn loop did,
// byte for byte and with the same verdict, checked or said valid:
// generated values (compact, indented, HTML not escaped; strings of 40,
// 400 and 1,200 characters with non-ASCII, escapes and controls), each
// also cut short, with a byte changed, and with CR LF line ends.
func TestJSONLinesRunsAsByBytes_Issue25(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 11))
	n := 0
	for i := range 3000 {
		long := []int{40, 40, 40, 400, 1200}[i%5]
		v := genJSONValue(r, 0, long)
		var js []byte
		switch i % 3 {
		case 0:
			js, _ = json.Marshal(v)
		case 1:
			js, _ = json.MarshalIndent(v, "", " ")
		default:
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(v)
			js = b.Bytes()
		}
		texts := [][]byte{js, js[:r.IntN(len(js)+1)], bytes.ReplaceAll(js, []byte("\n"), []byte("\r\n"))}
		if len(js) > 0 {
			bent := bytes.Clone(js)
			bent[r.IntN(len(bent))] = byte(r.IntN(256))
			texts = append(texts, bent)
		}
		for _, b := range texts {
			for _, valid := range []bool{false, true} {
				n++
				got, ok := jsonLines(b, valid)
				want, wantOK := jsonLinesByBytes(b, valid)
				if ok != wantOK || !bytes.Equal(got, want) {
					t.Fatalf("%q (valid %v): %q %v, by bytes %q %v", b, valid, got, ok, want, wantOK)
				}
			}
		}
	}
	t.Logf("%d texts laid out alike", n)
}

// FuzzJSONLinesRunsAsByBytes_Issue25: for any bytes, checked or said
// valid, jsonLines gives what the byte-a-turn loop gave.
func FuzzJSONLinesRunsAsByBytes_Issue25(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,"é😀"]}`, `{"a":1`, "[\"\xff\"]", "\"a\\", "[\"\n\"]", "{}\x00", "\xc3\xa9",
		"[1,\r\n2]", `{"long":"` + strings.Repeat("abcdefgh ", 120) + `"}`, "[" + strings.Repeat("12345, true, null, ", 60) + "0]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, valid := range []bool{false, true} {
			got, ok := jsonLines(b, valid)
			want, wantOK := jsonLinesByBytes(b, valid)
			if ok != wantOK || !bytes.Equal(got, want) {
				t.Fatalf("%q (valid %v): %q %v, by bytes %q %v", b, valid, got, ok, want, wantOK)
			}
		}
	})
}
