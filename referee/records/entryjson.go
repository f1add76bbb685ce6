package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine"
)

// EncodeEntry is the JSON of a log entry: json.Marshal(e), byte for byte
// (TestEntryEncodedAsEncodingJSONDoes_Issue24, FuzzEncodeEntry), written
// by hand for what entries hold (issue 24: a round of 5,000 games opened
// logs a create and a start entry per game, and the reflection over their
// Params maps cost ~38 MB). A value of a type it does not know, a float,
// a string that needs escaping, is encoded by encoding/json itself, in its
// place; a step (a move's, not a round's) is too.
func EncodeEntry(e *Entry) ([]byte, error) {
	buf := entryBufs.Get().(*[]byte)
	b, err := appendEntryJSON((*buf)[:0], e)
	if err == errOddTime {
		entryBufs.Put(buf)
		return json.Marshal(e) // its error, as encoding/json words it
	}
	var out []byte
	if err == nil {
		out = bytes.Clone(b) // the entry's own, of its length
	}
	if cap(b) <= 1<<16 {
		*buf = b
		entryBufs.Put(buf)
	}
	return out, err
}

// entryBufs are EncodeEntry's scratch buffers, as encoding/json keeps
// its own: an entry is written into one and copied out at its length.
var entryBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// errOddTime: an entry's time RFC 3339 cannot write (a year past 9999).
var errOddTime = errors.New("records: entry time")

func appendEntryJSON(b []byte, e *Entry) ([]byte, error) {
	var err error
	b = append(b, '{')
	if e.Seq != 0 {
		b = strconv.AppendUint(append(b, `"seq":`...), e.Seq, 10)
		b = append(b, ',')
	}
	b = append(b, `"at":"`...)
	if b, err = e.At.AppendText(b); err != nil {
		return nil, errOddTime
	}
	b = append(b, `","kind":`...)
	b = appendJSONString(b, e.Kind)
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(e.Seat), 10)
	b = appendVis(append(b, `,"vis":`...), e.Vis)
	if e.Text != "" {
		b = appendJSONString(append(b, `,"text":`...), e.Text)
	}
	if len(e.Params) > 0 {
		if b, err = appendJSONMap(append(b, `,"params":`...), e.Params); err != nil {
			return nil, err
		}
	}
	if e.Step != nil {
		if b, err = appendMarshal(append(b, `,"step":`...), e.Step); err != nil {
			return nil, err
		}
	}
	if len(e.Setup) > 0 {
		b = append(b, `,"setup":[`...)
		for i := range e.Setup {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendEventJSON(b, &e.Setup[i]); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if e.Ruleset != "" {
		b = appendJSONString(append(b, `,"ruleset":`...), e.Ruleset)
	}
	return append(b, '}'), nil
}

// appendEventJSON is an engine.Event as encoding/json writes it.
func appendEventJSON(b []byte, ev *engine.Event) ([]byte, error) {
	if ev.Err != nil {
		return appendMarshal(b, ev)
	}
	var err error
	b = appendJSONString(append(b, `{"type":`...), ev.Type)
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(ev.Seat), 10)
	b = appendVis(append(b, `,"vis":`...), ev.Vis)
	if len(ev.Params) > 0 {
		if b, err = appendJSONMap(append(b, `,"params":`...), ev.Params); err != nil {
			return nil, err
		}
	}
	if ev.Redacted != nil { // omitzero: an empty map is kept
		if b, err = appendJSONMap(append(b, `,"redacted":`...), ev.Redacted); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendVis(b []byte, v engine.Visibility) []byte {
	b = append(b, '{')
	if v.Public {
		b = append(b, `"public":true`...)
	}
	if len(v.Seats) > 0 {
		if v.Public {
			b = append(b, ',')
		}
		b = appendInts(append(b, `"seats":`...), v.Seats)
	}
	return append(b, '}')
}

// appendJSONMap is a map as encoding/json writes it: keys sorted.
func appendJSONMap[V any](b []byte, m map[string]V) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	var few [16]string
	keys := few[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, k), ':')
		if b, err = appendJSONValue(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONValue is a value as encoding/json writes it, by hand for the
// kinds the log's params hold, by encoding/json for the others.
func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case []int:
		if v == nil {
			return append(b, "null"...), nil
		}
		return appendInts(b, v), nil
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, s)
		}
		return append(b, ']'), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		var err error
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSONValue(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]string:
		return appendJSONMap(b, v)
	case map[string]any:
		return appendJSONMap(b, v)
	}
	return appendMarshal(b, v)
}

func appendInts(b []byte, v []int) []byte {
	b = append(b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// appendJSONString is s as encoding/json quotes it: as it is when no
// byte needs escaping (no control, quote, backslash or HTML character,
// valid UTF-8 without U+2028/U+2029), else by encoding/json.
func appendJSONString(b []byte, s string) []byte {
	plain := true
	wide := false
	for i := 0; i < len(s) && plain; i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			wide = true
		case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&':
			plain = false
		}
	}
	if plain && wide {
		plain = utf8.ValidString(s) && !strings.ContainsRune(s, '\u2028') && !strings.ContainsRune(s, '\u2029')
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	raw, _ := json.Marshal(s) // a string always encodes
	return append(b, raw...)
}

func appendMarshal(b []byte, v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}
