package mailmsg

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func FuzzMessageID(f *testing.F) {
	f.Add("g42", 1, int64(57), "a1b2", "example.test", "<rf.g42.1.57.a1b2@example.test>")
	f.Add("g42", -1, int64(0), "z", "mail.example.org", "RF.G42.X.0.Z@EXAMPLE.ORG")
	f.Fuzz(func(t *testing.T, game string, seat int, token int64, nonce, domain, id string) {
		if s, err := NewMessageID(game, seat, token, nonce, domain); err == nil {
			r, err := ParseMessageID(s)
			want := MessageRef{Game: game, Seat: seat, Token: token, Nonce: nonce, Domain: strings.ToLower(domain)}
			if err != nil || r != want {
				t.Fatalf("round trip %q: %+v, %v; want %+v", s, r, err, want)
			}
			if _, err := bareMsgID(s); err != nil {
				t.Fatalf("NewMessageID gave an id Compose rejects: %q", s)
			}
		}
		if r, err := ParseMessageID(id); err == nil {
			s, err := NewMessageID(r.Game, r.Seat, r.Token, r.Nonce, r.Domain)
			if err != nil {
				t.Fatalf("ParseMessageID(%q) = %+v, which NewMessageID rejects: %v", id, r, err)
			}
			if again, _ := ParseMessageID(s); again != r {
				t.Fatalf("reparse of %q: %+v vs %+v", s, again, r)
			}
		}
	})
}

// FuzzJSONLinesSaidValid (issue 25: Out.JSONValid skips json.Valid): for
// any bytes said valid, jsonLines gives false or 7bit lines (US-ASCII, no
// NUL, CR only before LF, none over MaxLineOctets), and for valid JSON the
// lines of the checked call, byte for byte.
func FuzzJSONLinesSaidValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,"é😀"]}`, `{"a":1`, "[\"\xff\"]", "\"a\\", "[\"\n\"]", "{}\x00", "\xc3\xa9", "[1,\r\n2]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := jsonLines(b, true)
		want, wantOK := jsonLines(b, false)
		if json.Valid(b) && (ok != wantOK || !bytes.Equal(got, want)) {
			t.Fatalf("valid %q: said valid %q %v, checked %q %v", b, got, ok, want, wantOK)
		}
		if !ok {
			return
		}
		for _, l := range bytes.Split(got, []byte("\r\n")) {
			if len(l) > MaxLineOctets || bytes.ContainsAny(l, "\r\n\x00") {
				t.Fatalf("%q: line %q", b, l)
			}
			for _, c := range l {
				if c >= 0x80 {
					t.Fatalf("%q: byte %#x in %q", b, c, got)
				}
			}
		}
	})
}
