package e2e_test

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// laneDaemon is a referee daemon over the stack that the test stops and
// starts again on the same store.
type laneDaemon struct {
	cfg  *config.Config
	d    *daemon.Daemon
	stop func()
}

func newLaneDaemon(t *testing.T, ms *mailstack.Stack) *laneDaemon {
	t.Helper()
	cfg := stackConfig(t, ms, "")
	ld := &laneDaemon{cfg: cfg}
	ld.start(t)
	return ld
}

func (ld *laneDaemon) start(t *testing.T) {
	t.Helper()
	d, err := daemon.New(ld.cfg, daemon.Options{NoSync: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ld.d, ld.stop = d, testkit.Run(t, d.Run)
}

// laneMove is a pair of moves of one game that only arrival order plays
// as written: actor moves, which asks other, who is not asked before it
// (read first, other's line would wait in the table's queue instead of
// answering its decision).
type laneMove struct {
	actor, other       int
	actorCmd, otherCmd string
}

// findLaneMove looks for such a pair in game id, as the table stands.
func findLaneMove(t *testing.T, r *referee.Referee, id string) (laneMove, bool) {
	t.Helper()
	table := func() *engine.Table {
		tb, err := r.Table(id)
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	tb := table()
	w := tb.Waiting()
	if len(w) != 1 || tb.Seats() != 2 {
		return laneMove{}, false
	}
	actor := w[0].Seat
	other := 1 - actor
	for _, opt := range tb.State.Legal(tb.Prompts[actor].Decision) {
		after := table()
		rep, err := after.Submit(actor, engine.ParseScript(opt.Cmd), after.Token())
		if err != nil || rep.Rejected {
			continue
		}
		if aw := after.Waiting(); len(aw) == 1 && aw[0].Seat == other {
			legal := after.State.Legal(after.Prompts[other].Decision)
			return laneMove{actor: actor, other: other, actorCmd: opt.Cmd, otherCmd: legal[len(legal)/2].Cmd}, true
		}
	}
	return laneMove{}, false
}

// Issue 25, the IMAP lanes with people's mail: through Postfix and
// Dovecot, two players of one game and a player of another reply in one
// IMAP fetch (the daemon is stopped while they write, so the three wait in
// the inbox together), each from a mail client: Ann in Apple Mail
// (German: the answer on top, "-- " and "Von meinem iPhone gesendet", the
// quote header "Am ... schrieb ...:" and the quoted menu below,
// format=flowed), Bob in Gmail (Italian signature, top-posted over "On ...
// wrote:"), Carol in Thunderbird (bottom-posted under the quoted menu,
// format=flowed, a signature). The second of the first game's replies
// answers a decision only the first one's move opens (its seat is not
// asked before: read first, its line would wait in the queue): only
// applying the fetch's messages of one game in arrival order plays it as
// written. Each reply is applied exactly once, in arrival order (its input
// logged once, the second's own move logged right after it), and each
// player's answer answers their mail and refuses nothing.
func TestLanesOfPeoplesRepliesThroughDovecotAndPostfix(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	ms := mailstack.Start(t, "referee", "olga", "ann", "bob", "carol", "dave")
	ld := newLaneDaemon(t, ms)
	secret, err := ld.d.Referee.AddOrganiser(ms.Address("olga"))
	if err != nil {
		t.Fatal(err)
	}
	orgTo := "referee+org." + secret + "@" + mailstack.Domain

	// Two games, each started; the seed of the first is chosen so that a
	// move exists that only arrival order makes valid.
	people := map[string]*person{}
	for _, u := range []string{"ann", "bob", "carol", "dave"} {
		people[u] = &person{user: u}
	}
	join := func(id, a, b string) {
		for _, u := range []string{a, b} {
			p := people[u]
			inv, raw := p.await(t, ms, "the invitation to "+id, subjectHas(id))
			_ = inv
			to, reply := muttReply(t, raw, ms.Address(u), p.id(), "JOIN")
			ms.Send(t, ms.Address(u), []string{to}, reply)
		}
		waitFor(t, id+" to start", func() bool {
			g, err := ld.d.Referee.GameRecord(id)
			return err == nil && g.Status == referee.StatusRunning
		})
	}
	var mv laneMove
	game, found := "", false
	for i, g := range []string{"heavenale", "dicebrewing", "fromage", "brewcrafters"} {
		id := fmt.Sprintf("ln%d", i)
		organise(t, ms, orgTo, "lanes-"+id, "NEW "+g+" id="+id+" deadline=none seed=lanes"+id+
			"\r\nPLAYER ann@example.test Ann en\r\nPLAYER bob@example.test Bob it\r\n")
		join(id, "ann", "bob")
		if mv, found = findLaneMove(t, ld.d.Referee, id); found {
			game = id
			break
		}
	}
	if !found {
		t.Fatal("no game offers a move that only arrival order makes valid")
	}
	organise(t, ms, orgTo, "lanes-other", "NEW dicebrewing id=other deadline=none seed=lanesother"+
		"\r\nPLAYER carol@example.test Carol en\r\nPLAYER dave@example.test Dave en\r\n")
	join("other", "carol", "dave")

	// Each player's last mail of their game: the prompt they answer (the
	// seat not asked answers the last mail it got, as people do).
	g1, err := ld.d.Referee.GameRecord(game)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := ld.d.Referee.GameRecord("other")
	if err != nil {
		t.Fatal(err)
	}
	userOf := func(g *referee.Game, seat int) string {
		return strings.TrimSuffix(g.Seats[seat].Address, "@"+mailstack.Domain)
	}
	actor, other := userOf(g1, mv.actor), userOf(g1, mv.other)
	tb2, err := ld.d.Referee.Table("other")
	if err != nil {
		t.Fatal(err)
	}
	third := userOf(g2, tb2.Waiting()[0].Seat)
	thirdCmd := tb2.State.Legal(tb2.Prompts[tb2.Waiting()[0].Seat].Decision)[0].Cmd
	lastMail := func(u, id string) []byte {
		p := people[u]
		var raw []byte
		waitFor(t, u+"'s mails of "+id, func() bool {
			p.fetch(t, ms)
			for i := len(p.got) - 1; i >= 0; i-- {
				if strings.Contains(p.got[i].Subject, " "+id+"]") && len(p.got[i].ReplyTo) > 0 {
					raw = p.raw[i]
					return strings.Contains(p.got[i].Text, "WHAT") || u != actor && u != third
				}
			}
			return false
		})
		return raw
	}
	promptActor, promptOther, promptThird := lastMail(actor, game), lastMail(other, game), lastMail(third, "other")

	// The daemon stops; the three write; all three wait in its inbox.
	ld.stop()
	inbox := ms.Count(t, "referee", "INBOX")
	shape := map[string]func(orig []byte, u, text string) (string, []byte, string){
		"apple": func(orig []byte, u, text string) (string, []byte, string) {
			id := people[u].id()
			to, raw := testkit.AppleMailReply(t, orig, ms.Address(u), u, id, text, "Ann Schmidt\nVon meinem iPhone gesendet")
			return to, raw, "<" + id + "@apple.example.test>"
		},
		"gmail": func(orig []byte, u, text string) (string, []byte, string) {
			id := people[u].id()
			to, raw := testkit.GmailReply(t, orig, ms.Address(u), u, id, text, "Roberto Bianchi\nInviato dal mio telefono, scusate la brevità")
			return to, raw, "<" + id + "@mail.gmail.example.test>"
		},
		"thunderbird": func(orig []byte, u, text string) (string, []byte, string) {
			id := people[u].id()
			to, raw := thunderbirdReply(t, orig, ms.Address(u), id, text)
			return to, raw, "<" + id + "@thunderbird.example.test>"
		},
	}
	sends := []struct {
		user, shape, text, game string
		orig                    []byte
	}{
		{actor, "apple", mv.actorCmd, game, promptActor},
		{third, "thunderbird", thirdCmd, "other", promptThird},
		{other, "gmail", mv.otherCmd, game, promptOther},
	}
	ids := map[string]string{}
	before := map[string]int{}
	for _, s := range sends {
		before[s.user] = ms.Count(t, s.user, "INBOX")
		to, raw, id := shape[s.shape](s.orig, s.user, s.text)
		ids[s.user] = id
		ms.Send(t, ms.Address(s.user), []string{to}, raw)
		// Arrival order is the order sent: each is in the inbox before
		// the next leaves.
		ms.WaitCount(t, "referee", "INBOX", inbox+1, 20*time.Second)
		inbox++
	}
	ld.start(t)

	// Every reply applied once, in arrival order; each player's answer.
	for _, s := range sends {
		p := people[s.user]
		ans, _ := p.await(t, ms, "the answer to "+ids[s.user], func(m *mailmsg.Message) bool {
			return len(m.InReplyTo) == 1 && m.InReplyTo[0] == ids[s.user]
		})
		for _, bad := range []string{"REFUSED", "RESPINTO", "ABGELEHNT", "Nothing of this message", "Non ho applicato"} {
			if strings.Contains(ans.Text, bad) {
				t.Errorf("%s (%s): %q in the answer to %q:\n%s", s.user, s.shape, bad, s.text, ans.Text)
			}
		}
	}
	for _, g := range []string{game, "other"} {
		entries, err := ld.d.Referee.Entries(g)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, s := range sends {
			if s.game == g {
				want = append(want, ids[s.user])
			}
		}
		sent := map[string]bool{}
		for _, id := range ids {
			sent[id] = true
		}
		for i, e := range entries {
			id, _ := e.Params["message_id"].(string)
			if e.Kind != referee.EntryInput || !sent[id] {
				continue
			}
			got = append(got, id)
			// The reply's own move is played as it is read, not queued.
			if i+1 >= len(entries) || entries[i+1].Kind != referee.EntryStep || entries[i+1].Seat != e.Seat {
				t.Errorf("%s: %s's move was not played when read", g, id)
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: the replies logged %v, want each once in arrival order %v", g, got, want)
		}
	}
}
