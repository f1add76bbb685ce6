package tell

import (
	"encoding/json"
	"sync"
)

// marshalIndent is json.MarshalIndent(v, "", "  "), byte for byte: the
// JSON part of a mail is in the goldens' digests. encoding/json indents
// by running its validating scanner over every byte of the compact text,
// which cost more than marshalling the view (issue 25); the text
// json.Marshal writes is valid and has no space outside its strings, so
// indenting it needs only to know whether a byte is inside a string
// (TestMarshalIndentIsEncodingJSONs_Issue25).
func marshalIndent(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	buf := indentBufs.Get().(*[]byte)
	out := indentCompact((*buf)[:0], b)
	res := make([]byte, len(out))
	copy(res, out)
	if cap(out) <= 1<<20 {
		*buf = out
		indentBufs.Put(buf)
	}
	return res, nil
}

var indentBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// indentCompact appends to dst the compact JSON src indented as
// json.Indent(dst, src, "", "  ") does: a line per value of an object or
// array, "  " per level, ": " after a key, empty objects and arrays kept
// as {} and [].
func indentCompact(dst, src []byte) []byte {
	depth := 0
	open := false // just after { or [: the line break waits for a value
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			// A string, copied whole: it ends at the first quote not
			// escaped.
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			open = true
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
