package tell

import (
	"bytes"
	"encoding/json"
	"sync"
)

// marshalPart is the JSON part of a mail: v's compact JSON text, as
// json.Marshal writes it but for <, > and &, which stay themselves (a
// mail is no HTML page; \u003c is six bytes for one). It is the value
// json.MarshalIndent wrote before issue 25 in a third fewer bytes: the
// indentation was a third of the part, and mailfmt lays the text out in
// lines for the mail (TestJSONPartIsCompactAndTheSameValue_Issue25).
func marshalPart(v any) ([]byte, error) {
	buf := partBufs.Get().(*bytes.Buffer)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	res := make([]byte, len(out))
	copy(res, out)
	if buf.Cap() <= 1<<20 {
		partBufs.Put(buf)
	}
	return res, nil
}

var partBufs = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 16<<10)) }}
