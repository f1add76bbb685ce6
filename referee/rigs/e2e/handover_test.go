package e2e_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// Issue 24 (a seat handed on mid-game), by mail as people write it: a
// Dice Brewing game of Ann and Bob; after the first moves the organiser
// hands Bob's seat to Carla (Italian). Then every move is a menu line
// copied from the holder's latest mail, in a client's layout in turn
// (Gmail, Outlook, Apple Mail, Thunderbird: greeting, sign-off, signature,
// the referee's mail quoted above or below): each is played once, for the
// seat that was asked (the game's token moves on, the echo refuses
// nothing); Carla's mails are in Italian. One reply of each holder is
// resent as it was (the same Message-ID, as a client's "send again"):
// it is neither played nor answered a second time (the same words under
// a new Message-ID are answered: this check fails then). After the
// hand-over no menu line names the seat by the one who left; a line
// naming a seat (P<n>: a Dice Brewing card played on another's die or
// building) is copied when a menu shows one, but this seed's 30 moves
// show none (the count is logged): P<n> copied back is proved at the
// game's level (TestMenuLinesNameTheSeatsHolder_Issue24), not here.
func TestHandedOnSeatPlaysByMailInPeoplesClients_Issue24(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ms, d, orgTo := startReferee(t, "ann", "bob", "carla")
	organise(t, ms, orgTo, "e2e-ho1", "NEW dicebrewing id=h1 deadline=none seed=handover1\r\nPLAYER ann@example.test Ann\r\nPLAYER bob@example.test Bob\r\n")
	ms.WaitCount(t, "ann", "INBOX", 1, 20*time.Second)
	ms.WaitCount(t, "bob", "INBOX", 1, 20*time.Second)
	for _, p := range []string{"ann", "bob"} {
		inv := ms.Messages(t, p, "INBOX")[0].Raw
		to, raw := muttReply(t, inv, ms.Address(p), "ho-join-"+p, "JOIN")
		ms.Send(t, ms.Address(p), []string{to}, raw)
	}
	table := func() (*referee.Game, *engine.Table) { return gameTable(t, d, "h1") }
	waitRunning(t, d, "h1")
	words := map[string][2]string{"ann": {"Hi,", "Thanks"}, "bob": {"Hi,", "Thanks"}, "carla": {"Ciao!", "Grazie"}}
	resent := map[string]bool{}
	named, moves := 0, 0
	for i := 0; i < 30; i++ {
		if i == 4 {
			olgaN := ms.Count(t, "olga", "INBOX")
			organise(t, ms, orgTo, "e2e-ho2", "REPLACE h1 Bob carla@example.test Carla it\r\n")
			_, ans := newMail(t, ms, "olga", olgaN, "")
			if g, _ := table(); !slices.ContainsFunc(g.Seats, func(s referee.Seat) bool { return strings.HasPrefix(s.Address, "carla@") }) {
				t.Fatalf("the seat was not handed on: %+v\n%s", g.Seats, ans)
			}
		}
		g, tb := table()
		if g.Status != referee.StatusRunning {
			break
		}
		seat := tb.Waiting()[0].Seat
		p := strings.TrimSuffix(g.Seats[seat].Address, "@example.test")
		var prompt []byte
		var text string
		waitFor(t, p+"'s menu", func() bool {
			msgs := ms.Messages(t, p, "INBOX")
			for k := len(msgs) - 1; k >= 0; k-- {
				pm, err := mailmsg.Parse(msgs[k].Raw, mailmsg.Options{})
				if err == nil && menuLine(pm.Text, 1) != "" && (strings.Contains(pm.Text, "WHAT YOU NEED TO DO NOW") ||
					strings.Contains(pm.Text, "COSA DEVI FARE ADESSO")) {
					prompt, text = msgs[k].Raw, pm.Text
					return true
				}
			}
			return false
		})
		if p == "carla" && strings.Contains(text, "WHAT YOU NEED TO DO NOW") {
			t.Errorf("carla's menu is in English:\n%s", text)
		}
		opt := 1
		for k := 1; menuLine(text, k) != ""; k++ {
			line := menuLine(text, k)
			if handed := len(g.Seats[0].Before)+len(g.Seats[1].Before) > 0; handed && strings.Contains(line, "Bob:") {
				t.Errorf("%s's menu names the seat by the one who left: %q", p, line)
			}
			for _, who := range []string{"P1:", "P2:", "Ann:", "Carla:", "Bob:"} {
				if strings.Contains(line, who) {
					named++
					opt = k // a line naming a seat is the one copied
				}
			}
		}
		line := menuLine(text, opt)
		c := testkit.Clients[i%len(testkit.Clients)]
		answer := fmt.Sprintf("%s\r\n%d) %s\r\n%s", words[p][0], opt, line, words[p][1])
		before, n := tb.Token(), ms.Count(t, p, "INBOX")
		to, raw := c.Reply(t, prompt, ms.Address(p), strings.ToUpper(p[:1])+p[1:]+" Example", fmt.Sprintf("ho-%d", i), answer, p+"\r\n"+p+".example.test")
		ms.Send(t, ms.Address(p), []string{to}, raw)
		waitFor(t, fmt.Sprintf("%s's %s reply %q to be played", p, c.Name, line), func() bool {
			_, tb := table()
			return tb.Token() != before
		})
		moves++
		_, echo := newMail(t, ms, p, n, "")
		for _, bad := range []string{"REFUSED", "RESPINTO", "Nothing of this message"} {
			if strings.Contains(echo, bad) {
				t.Errorf("%s's %s reply %q: %q in the echo:\n%s", p, c.Name, line, bad, echo)
			}
		}
		if !resent[p] {
			// The same mail again: read, never played a second time.
			resent[p] = true
			_, tb := table()
			after := tb.Token()
			done := ms.Count(t, "referee", "Processed")
			ms.Send(t, ms.Address(p), []string{to}, raw)
			waitFor(t, "the resent mail to be read", func() bool { return ms.Count(t, "referee", "Processed") > done })
			if _, tb := table(); tb.Token() != after {
				t.Errorf("%s's resent %s reply %q was played again", p, c.Name, line)
			}
			// Nor answered: a reply of the same words under a new
			// Message-ID is answered (as late), the same mail is not.
			time.Sleep(time.Second)
			if got := ms.Count(t, p, "INBOX"); got != n+1 {
				t.Errorf("%s's resent %s reply %q: %d mails after it, want 1 (the first's echo)", p, c.Name, line, got-n)
			}
		}
	}
	if !resent["carla"] {
		t.Errorf("the newcomer never played (%d moves)", moves)
	}
	t.Logf("%d moves by copied menu lines, %d menu lines naming a seat seen", moves, named)
}
