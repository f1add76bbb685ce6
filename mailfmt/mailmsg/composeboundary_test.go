package mailmsg

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestComposeSinglePartNeedsNoBoundary: a mail without the JSON part is
// one text part, and its bytes are the same whether or not a multipart
// boundary was derived for it, so Compose derives none (a SHA-256 and a
// scan of the body saved on every mail; issue 25). Generated mails: every
// tag kind the golden Out has and none, replies and notices, languages,
// bodies with and without non-ASCII text, long lines and the boundary
// prefix itself; with JSON, the boundary is still derived and used.
func TestComposeSinglePartNeedsNoBoundary(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 6))
	words := []string{"PLACE", "MH1", "SEED", "tocca", "à", "toi", "rf_", "mossa", "—", "ß", strings.Repeat("x", 90)}
	for i := range 300 {
		o := replyOut(t)
		if i%3 == 1 {
			o.Tag = Tag{}
		}
		o.Reply = i%2 == 0
		o.Language = []string{"en", "it", "fr", "nl", ""}[i%5]
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString([]string{" ", "\n", "  ", "\n\n"}[rng.IntN(4)])
		}
		o.Text = b.String()
		if i%7 == 3 {
			o.JSON = []byte(fmt.Sprintf(`{"n":%d}`, i))
		}
		got, err := Compose(o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := compose(o, true)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("mail %d (json %v): bytes differ with the boundary derived:\n%s\n---\n%s", i, o.JSON != nil, got, want)
		}
		if o.JSON != nil && !bytes.Contains(got, []byte("boundary=rf_")) {
			t.Fatalf("mail %d: the JSON mail has no fixed boundary", i)
		}
	}
}
