package imapin

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/edge/mailin"
)

// Lanes (doc.go): two messages of a fetch share a lane when they share a
// sender or name one game, directly or through other messages, wherever
// the referee's tag is (its plus address in To or Cc, the subject's tag
// behind any reply prefix, the referee's Message-ID in In-Reply-To or
// References), so that two seats' mails about one game, or one person
// writing from two addresses about one game, keep the order they arrived
// in. The keys come from the mail's one reading (mailin.Parsed.LaneKeys)
// when the handler is a mailin.Reader, else from the IMAP envelope
// (envelopeKeys, which has no References). Generated fetches (2 to 9
// messages, four senders, three games, every form of the tag, messages
// naming no game, messages that cannot be parsed or have no envelope)
// checked, both ways, against the connected messages of a plain model.
func TestLanesTieSendersAndGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	senders := []string{"ann@a.test", "bob@b.test", "cy@c.test", "Ann.Other@a2.test"}
	prefixes := []string{"", "Re: ", "AW: Re: ", "[EXTERNAL] RE: ", "Fwd: "}
	forms := map[int]int{}
	for range 500 {
		n := 2 + rng.IntN(8)
		raws := make([]string, n)
		envs := make([]*imapclient.FetchMessageBuffer, n)
		from := make([]string, n)    // "" when it cannot be parsed
		game := make([]string, n)    // "" when it names none
		envGame := make([]string, n) // the game the envelope names
		for i := range raws {
			if rng.IntN(12) == 0 {
				raws[i] = "\r\n \r\n" // nothing to parse
				envs[i] = &imapclient.FetchMessageBuffer{}
				continue
			}
			from[i] = senders[rng.IntN(len(senders))]
			to, cc, subject, threads := "referee@x.test", "", prefixes[rng.IntN(len(prefixes))]+"your move", ""
			if rng.IntN(4) > 0 {
				game[i] = fmt.Sprintf("g%d", 1+rng.IntN(3))
				tag, err := mailmsg.GameTag(game[i], rng.IntN(3), int64(1+rng.IntN(90)))
				if err != nil {
					t.Fatal(err)
				}
				form := rng.IntN(5)
				forms[form]++
				switch form {
				case 0:
					to = plusOf(t, tag)
				case 1:
					cc = "Cc: someone@else.test, " + plusOf(t, tag) + "\r\n"
				case 2:
					subject = prefixes[rng.IntN(len(prefixes))] + mailmsg.SubjectTag(tag, false) + " your move"
				default:
					id, err := mailmsg.NewMessageID(game[i], tag.Seat, tag.Token, "k7x9q2abcd3e", "x.test")
					if err != nil {
						t.Fatal(err)
					}
					if form == 3 {
						threads = "In-Reply-To: " + id + "\r\n"
					} else {
						threads = "References: <a@b.test> " + id + "\r\n"
					}
				}
				if form != 4 {
					envGame[i] = game[i]
				}
			}
			e := &imap.Envelope{From: []imap.Address{addr(from[i])}, To: []imap.Address{addr(to)}, Subject: subject}
			if cc != "" {
				e.Cc = []imap.Address{addr("someone@else.test"), addr(strings.TrimSuffix(strings.TrimPrefix(cc, "Cc: someone@else.test, "), "\r\n"))}
			}
			if strings.HasPrefix(threads, "In-Reply-To: ") {
				e.InReplyTo = []string{strings.TrimSuffix(strings.TrimPrefix(threads, "In-Reply-To: "), "\r\n")}
			}
			envs[i] = &imapclient.FetchMessageBuffer{Envelope: e}
			raws[i] = "From: " + from[i] + "\r\nTo: " + to + "\r\n" + cc + "Subject: " + subject + "\r\n" + threads +
				fmt.Sprintf("Message-ID: <m%d@a.test>\r\n\r\nCLAIM 1\r\n", i)
		}
		read, env := make([][]string, n), make([][]string, n)
		for i, raw := range raws {
			read[i] = mailin.ParseMail(mailin.Inbound{Raw: []byte(raw)}, 0, "referee@x.test").LaneKeys()
			env[i] = envelopeKeys(envs[i])
		}
		for _, way := range []struct {
			name  string
			keyOf [][]string
			game  []string
		}{{"read", read, game}, {"envelope", env, envGame}} {
			got := groupLanes(way.keyOf)
			// The model: messages tied by a sender or a game,
			// transitively; the messages that cannot be parsed together.
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
					if strings.EqualFold(from[i], from[j]) || way.game[i] != "" && way.game[i] == way.game[j] {
						comp[find(i)] = find(j)
					}
				}
			}
			for i := range n {
				for j := range i {
					if same := find(i) == find(j); same != (got[i] == got[j]) {
						t.Fatalf("%s: messages %d (%s, %q) and %d (%s, %q): one lane %v, want %v\nmails: %q\nlanes: %q",
							way.name, j, from[j], way.game[j], i, from[i], way.game[i], got[i] == got[j], same, raws, got)
					}
				}
			}
		}
	}
	if len(forms) != 5 {
		t.Fatalf("tag forms generated: %v", forms)
	}
}

// plusOf is the referee's plus address for the seat of tag (a seat's tag,
// with its secret, as the referee writes it in Reply-To).
func plusOf(t *testing.T, tag mailmsg.Tag) string {
	t.Helper()
	seat, err := mailmsg.SeatTag(tag.Game, tag.Seat, "k7x9q2abcd3e", tag.Token)
	if err != nil {
		t.Fatal(err)
	}
	plus, err := mailmsg.PlusAddress("referee@x.test", seat)
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
