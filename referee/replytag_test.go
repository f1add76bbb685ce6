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
// secret, in every language, though the core reads the secret once a mail
// (deskHost.ReplyTo keeps it for the MailEntrant that follows).
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
			tagged := map[string]int{}
			for _, m := range ms {
				if m.Kind != "tournament" || m.To == org {
					continue
				}
				if want := playerTag(h.player(m.To).Secret); m.Tag != want {
					t.Errorf("%s's mail %q tagged %q, want %q", m.To, m.Subject, m.Tag, want)
				}
				tagged[m.To]++
			}
			for e := range 9 {
				if n := tagged[fmt.Sprintf("p%d@p.test", e)]; n < 3 { // confirmation, rounds 1 and 2
					t.Errorf("p%d@p.test got %d tournament mails, want 3 or more", e, n)
				}
			}
		})
	}
}

// TestMailEntrantTagsOnlyTheMailAfterReplyTo_Issue24: the secret
// deskHost.ReplyTo read tags the next MailEntrant, and only when it goes
// to the same address: a mail to another address, or a second mail, is
// not tagged with it (bymail.Host: a mail with a Tag follows ReplyTo).
func TestMailEntrantTagsOnlyTheMailAfterReplyTo_Issue24(t *testing.T) {
	h := newHarness(t)
	for _, p := range []string{"ann@p.test", "bob@p.test"} {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
	}
	h.mails()
	ann := playerTag(h.player("ann@p.test").Secret)
	err := h.db.Update(func(tx *store.Tx) error {
		w := h.r.newWork(tx, h.clock.Now())
		d := deskHost{w}
		mail := func(to, tag string) mailmsg.Tag {
			if err := d.MailEntrant(bymail.Mail{Tournament: "cup", To: to, Tag: tag, Lang: "en", Subject: "s", Body: "b"}); err != nil {
				t.Fatal(err)
			}
			return w.outbox[len(w.outbox)-1].m.Tag
		}
		_, tag, _ := d.ReplyTo("ann@p.test")
		if got := mail("ann@p.test", tag); got != ann {
			t.Errorf("mail after ReplyTo tagged %q, want %q", got, ann)
		}
		if got := mail("ann@p.test", tag); got != (mailmsg.Tag{}) {
			t.Errorf("second mail tagged %q, want none", got)
		}
		_, tag, _ = d.ReplyTo("ann@p.test")
		if got := mail("bob@p.test", tag); got != (mailmsg.Tag{}) {
			t.Errorf("bob's mail tagged %q with ann's secret", got)
		}
		if got := mail("ann@p.test", tag); got != (mailmsg.Tag{}) {
			t.Errorf("mail after another's tagged %q, want none", got)
		}
		w.outbox = nil
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
