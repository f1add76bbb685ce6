package recform

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// TestTokenEncodedAsEncodingJSONDoes_Issue24: a token's stored bytes are
// json.Marshal's, for generated tokens of every kind, with and without a
// game, addresses that need escaping or not, times in several zones.
func TestTokenEncodedAsEncodingJSONDoes_Issue24(t *testing.T) {
	strs := []string{"", "seat", "org", "Ann@Example.org", "a<b>@x.org", `q"uote@x`, "zoë@x.org", "tab\t@x", "\x7f@x", "T00012-3"}
	zones := []*time.Location{time.UTC, time.FixedZone("CET", 3600), time.FixedZone("odd", -(5*3600 + 30*60))}
	r := rand.New(rand.NewPCG(24, 10000))
	bad := 0
	for i := range 20000 {
		tok := Token{Kind: strs[r.IntN(len(strs))], Game: strs[r.IntN(len(strs))], Seat: r.IntN(8) - 1, Address: strs[r.IntN(len(strs))],
			Created: time.Date(2020+r.IntN(10), 1, 1+r.IntN(28), r.IntN(24), 0, r.IntN(60), r.IntN(3)*r.IntN(1e9), zones[r.IntN(3)])}
		if r.IntN(10) == 0 {
			tok.Created = time.Time{}
		}
		want, werr := json.Marshal(tok)
		got, gerr := tok.Encode()
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			if bad++; bad <= 3 {
				t.Errorf("token %d:\n got %s (%v)\nwant %s (%v)", i, got, gerr, want, werr)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 20,000 tokens encoded otherwise", bad)
	}
	if _, err := (Token{Kind: "seat", Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}).Encode(); err == nil {
		t.Error("a year past 9999 encoded; encoding/json refuses it")
	}
}

// FuzzTokenEncode: for any strings and seat, a token encodes as
// json.Marshal encodes it.
func FuzzTokenEncode(f *testing.F) {
	f.Add("seat", "G1", "a@b.org", 3, int64(0))
	f.Fuzz(func(t *testing.T, kind, game, addr string, seat int, nanos int64) {
		tok := Token{Kind: kind, Game: game, Seat: seat, Address: addr, Created: time.Unix(0, nanos)}
		want, werr := json.Marshal(tok)
		got, gerr := tok.Encode()
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("got %s (%v)\nwant %s (%v)", got, gerr, want, werr)
		}
	})
}
