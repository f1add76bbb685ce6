package recform

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Token says whom a secret authenticates.
type Token struct {
	Kind    string    `json:"kind"`           // "seat", "player", "org"
	Game    string    `json:"game,omitempty"` // for seat tokens
	Seat    int       `json:"seat"`           // for seat tokens
	Address string    `json:"address"`        // the registered address
	Created time.Time `json:"created"`
}

// Encode is json.Marshal(t), byte for byte, written without reflection
// when no string needs escaping (TestTokenEncodedAsEncodingJSONDoes_Issue24).
func (t Token) Encode() ([]byte, error) {
	if !jsonPlain(t.Kind) || !jsonPlain(t.Game) || !jsonPlain(t.Address) {
		return json.Marshal(t)
	}
	b := make([]byte, 0, 64+len(t.Kind)+len(t.Game)+len(t.Address))
	b = append(append(append(b, `{"kind":"`...), t.Kind...), '"')
	if t.Game != "" {
		b = append(append(append(b, `,"game":"`...), t.Game...), '"')
	}
	b = strconv.AppendInt(append(b, `,"seat":`...), int64(t.Seat), 10)
	b = append(append(append(b, `,"address":"`...), t.Address...), `","created":"`...)
	b, err := t.Created.AppendText(b)
	if err != nil {
		return json.Marshal(t) // its error, as encoding/json words it
	}
	return append(b, `"}`...), nil
}

// jsonPlain says encoding/json writes s between quotes as it is:
// printable ASCII without a quote, backslash or HTML character.
func jsonPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || strings.IndexByte(`"\<>&`, c) >= 0 {
			return false
		}
	}
	return true
}
