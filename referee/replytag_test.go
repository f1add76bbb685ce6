package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
)

// TestTournamentMailTaggedWithTheEntrantsSecret_Issue24: every tournament
// mail to an entrant (the sign-up confirmations, round 1 and round 2's
// mails, opened in batches) is tagged with that entrant's own player
// secret, in every language, though the core reads the player once a mail
// (deskHost.ReplyTo: the Reply carries the tag to MailEntrant), and
// every one shows the entrant's own reply address, never another's.
func TestTournamentMailTaggedWithTheEntrantsSecret_Issue24(t *testing.T) {
	for _, batch := range []int{0, 2} {
		t.Run(fmt.Sprint("batch", batch), func(t *testing.T) {
			h := newHarness(t)
			h.r.openBatch = batch
			h.org("NEW TOURNAMENT cup game=toy rounds=3")
			var enter strings.Builder
			langs := []string{"en", "it", "fr", "nl"}
			for e := range 9 { // odd: a bye each round
				fmt.Fprintf(&enter, "ENTER cup p%d@p.test P%d %s\n", e, e, langs[e%len(langs)])
			}
			h.org(enter.String())
			ms := h.mails()
			h.org("START cup")
			ms = append(ms, h.mails()...)
			var adj strings.Builder
			for _, m := range h.tour("cup").Rounds[0].Matches {
				if m.GameID != "" {
					fmt.Fprintf(&adj, "ADJUDICATE %s\n", m.GameID)
				}
			}
			h.org(adj.String())
			ms = append(ms, h.mails()...)
			if n := len(h.tour("cup").Rounds); n != 2 {
				t.Fatalf("%d rounds open, want 2", n)
			}
			tagged, addressed := map[string]int{}, map[string]int{}
			for _, m := range ms {
				if m.Kind != "tournament" || m.To == org {
					continue
				}
				if want := playerTag(h.player(m.To).Secret); m.Tag != want {
					t.Errorf("%s's mail %q tagged %q, want %q", m.To, m.Subject, m.Tag, want)
				}
				tagged[m.To]++
				// The reply address it shows is the entrant's own (the
				// Reply's), never another's.
				own := h.r.plus("p." + h.player(m.To).Secret)
				if n := strings.Count(m.Body, own); n != strings.Count(m.Body, "+p.") {
					t.Errorf("%s's mail %q shows another's reply address:\n%s", m.To, m.Subject, m.Body)
				} else if n > 0 {
					addressed[m.To]++
				}
			}
			for e := range 9 {
				if n := tagged[fmt.Sprintf("p%d@p.test", e)]; n < 3 { // confirmation, rounds 1 and 2
					t.Errorf("p%d@p.test got %d tournament mails, want 3 or more", e, n)
				}
				if n := addressed[fmt.Sprintf("p%d@p.test", e)]; n < 1 {
					t.Errorf("p%d@p.test: no mail shows their own reply address", e)
				}
			}
		})
	}
}

// TestMailEntrantTaggedByTheReplyOfItsAddress_Issue24: a mail is tagged
// with the tag of the bymail.Reply it carries when that Reply is of the
// mail's own address, whatever came before (the Reply is a value, no
// state of the unit of work): every mail with its address's Reply is
// tagged, a mail with another's Reply or none is not, and the address
// of a player who is not registered gets the referee's plain address
// and no tag.
func TestMailEntrantTaggedByTheReplyOfItsAddress_Issue24(t *testing.T) {
	h := newHarness(t)
	for _, p := range []string{"ann@p.test", "bob@p.test"} {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
	}
	h.mails()
	ann, bob := playerTag(h.player("ann@p.test").Secret), playerTag(h.player("bob@p.test").Secret)
	err := h.db.Update(func(tx *store.Tx) error {
		w := h.r.newWork(tx, h.clock.Now())
		d := deskHost{w}
		mail := func(to string, r bymail.Reply) mailmsg.Tag {
			if err := d.MailEntrant(bymail.Mail{Tournament: "cup", To: to, Reply: r, Lang: "en", Subject: "s", Body: "b"}); err != nil {
				t.Fatal(err)
			}
			return w.outbox[len(w.outbox)-1].m.Tag
		}
		ra, rb, rc := d.ReplyTo("ann@p.test"), d.ReplyTo("bob@p.test"), d.ReplyTo("cat@p.test")
		for _, c := range []struct {
			to   string
			r    bymail.Reply
			want mailmsg.Tag
		}{{"ann@p.test", ra, ann}, {"bob@p.test", rb, bob}, {"ann@p.test", ra, ann}, // again, after bob's
			{"bob@p.test", ra, mailmsg.Tag{}}, {"ann@p.test", rb, mailmsg.Tag{}}, {"ann@p.test", bymail.Reply{}, mailmsg.Tag{}},
			{"cat@p.test", rc, mailmsg.Tag{}}} {
			if got := mail(c.to, c.r); got != c.want {
				t.Errorf("mail to %s with the Reply of %q tagged %q, want %q", c.to, c.r.To, got, c.want)
			}
		}
		if rc.Address != h.r.Address() || rc.TZ != "" {
			t.Errorf("no player: Reply %+v, want the referee's plain address", rc)
		}
		if want := h.r.plus("p." + h.player("ann@p.test").Secret); ra.Address != want {
			t.Errorf("ann's reply address %q, want %q", ra.Address, want)
		}
		w.outbox = nil
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
