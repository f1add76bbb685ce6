package imapin

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/pbem-referee/referee/mailfmt"
)

// Lanes (doc.go): two messages of a fetch share a lane when they share a
// sender or name one game, directly or through other messages, wherever
// the referee's tag is (a plus address in To or Cc, the subject's tag
// behind any reply prefix, the referee's Message-ID in In-Reply-To), so
// that two seats' mails about one game, or one person writing from two
// addresses about one game, keep the order they arrived in. Generated
// fetches (2 to 9 messages, four senders, three games, every form of the
// tag, messages naming no game, messages without an envelope) checked
// against the connected messages of a plain model.
func TestLanesTieSendersAndGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	senders := []string{"ann@a.test", "bob@b.test", "cy@c.test", "Ann.Other@a2.test"}
	prefixes := []string{"", "Re: ", "AW: Re: ", "[EXTERNAL] RE: ", "Fwd: "}
	for range 500 {
		n := 2 + rng.IntN(8)
		ms := make([]*imapclient.FetchMessageBuffer, n)
		from := make([]string, n) // "" without an envelope
		game := make([]string, n) // "" when it names none
		for i := range ms {
			if rng.IntN(12) == 0 {
				ms[i] = &imapclient.FetchMessageBuffer{}
				continue
			}
			from[i] = senders[rng.IntN(len(senders))]
			e := &imap.Envelope{From: []imap.Address{addr(from[i])}, To: []imap.Address{addr("referee@x.test")},
				Subject: prefixes[rng.IntN(len(prefixes))] + "your move"}
			if rng.IntN(4) > 0 {
				game[i] = fmt.Sprintf("g%d", 1+rng.IntN(3))
				tag, err := mailfmt.GameTag(game[i], rng.IntN(3), int64(1+rng.IntN(90)))
				if err != nil {
					t.Fatal(err)
				}
				switch rng.IntN(4) {
				case 0:
					e.To = []imap.Address{addr(plusOf(t, tag))}
				case 1:
					e.Cc = []imap.Address{addr("someone@else.test"), addr(plusOf(t, tag))}
				case 2:
					e.Subject = prefixes[rng.IntN(len(prefixes))] + mailfmt.SubjectTag(tag, false) + " your move"
				default:
					id, err := mailfmt.NewMessageID(game[i], tag.Seat, tag.Token, "k7x9q2abcd3e", "x.test")
					if err != nil {
						t.Fatal(err)
					}
					e.InReplyTo = []string{id}
				}
			}
			ms[i] = &imapclient.FetchMessageBuffer{Envelope: e}
		}
		keyOf := make([][]string, n)
		for i, m := range ms {
			keyOf[i] = laneKeys(m)
		}
		got := groupLanes(keyOf)
		// The model: messages tied by a sender or a game, transitively;
		// the messages without an envelope together.
		comp := make([]int, n)
		for i := range comp {
			comp[i] = i
		}
		find := func(i int) int {
			for comp[i] != i {
				i = comp[i]
			}
			return i
		}
		for i := range n {
			for j := range i {
				tied := from[i] == from[j] || game[i] != "" && game[i] == game[j]
				if tied {
					comp[find(i)] = find(j)
				}
			}
		}
		for i := range n {
			for j := range i {
				if same := find(i) == find(j); same != (got[i] == got[j]) {
					t.Fatalf("messages %d (%s, %q) and %d (%s, %q): one lane %v, want %v\nenvelopes: %+v\nlanes: %q",
						j, from[j], game[j], i, from[i], game[i], got[i] == got[j], same, envelopes(ms), got)
				}
			}
		}
	}
}

// plusOf is the referee's plus address for the seat of tag (a seat's tag,
// with its secret, as the referee writes it in Reply-To).
func plusOf(t *testing.T, tag mailfmt.Tag) string {
	t.Helper()
	seat, err := mailfmt.SeatTag(tag.Game, tag.Seat, "k7x9q2abcd3e", tag.Token)
	if err != nil {
		t.Fatal(err)
	}
	plus, err := mailfmt.PlusAddress("referee@x.test", seat)
	if err != nil {
		t.Fatal(err)
	}
	return plus
}

func addr(s string) imap.Address {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' {
			return imap.Address{Mailbox: s[:i], Host: s[i+1:]}
		}
	}
	return imap.Address{Mailbox: s}
}

func envelopes(ms []*imapclient.FetchMessageBuffer) []any {
	var out []any
	for _, m := range ms {
		out = append(out, m.Envelope)
	}
	return out
}
