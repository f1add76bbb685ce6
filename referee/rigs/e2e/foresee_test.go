package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
)

// newMail waits for a mail to user after the first n whose text holds
// want, and returns its raw bytes and text.
func newMail(t *testing.T, ms *mailstack.Stack, user string, n int, want string) ([]byte, string) {
	t.Helper()
	var raw []byte
	var text string
	waitFor(t, user+"'s mail with "+want, func() bool {
		msgs := ms.Messages(t, user, "INBOX")
		for i := n; i < len(msgs); i++ {
			pm, err := mailmsg.Parse(msgs[i].Raw, mailmsg.Options{})
			if err == nil && strings.Contains(pm.Text, want) {
				raw, text = msgs[i].Raw, pm.Text
				return true
			}
		}
		return false
	})
	return raw, text
}

// Issue 12.6 end to end, one player in Italian and one in English, both in
// mutt over Postfix and Dovecot: a two-item PLACE whose second item the
// first leaves illegal is refused when it arrives, with its rule; a queued
// "PIAZZA HP1 G6 ALTRIMENTI PASSA" is refused at once with HP1's rule
// instead of silently becoming a pass; a queued line that ELSE PASS does
// turn into a pass later is told with the rule that stopped it. No raw
// code reaches either player. The Italian player writes the argument
// words in Italian too (SEME, issue 12.7).
func TestKnownFailuresToldAtArrivalThroughDovecotAndPostfix(t *testing.T) {
	ms, d, orgTo := startReferee(t, "ann", "bob")
	organise(t, ms, orgTo, "e2e-fs1", "NEW dicebrewing id=f1 deadline=none seed=fs1\r\nPLAYER ann@example.test Ann it\r\nPLAYER bob@example.test Bob en\r\n")
	ms.WaitCount(t, "ann", "INBOX", 1, 20*time.Second)
	ms.WaitCount(t, "bob", "INBOX", 1, 20*time.Second)
	for _, p := range []string{"ann", "bob"} {
		inv := ms.Messages(t, p, "INBOX")[0].Raw
		to, raw := muttReply(t, inv, ms.Address(p), "fs-join-"+p, "JOIN")
		ms.Send(t, ms.Address(p), []string{to}, raw)
	}
	waitFor(t, "the game to start", func() bool {
		g, err := d.Referee.GameRecord("f1")
		return err == nil && g.Status == referee.StatusRunning
	})
	// Words as each player writes them.
	place := map[string]string{"ann": "PIAZZA", "bob": "PLACE"}
	seed := map[string]string{"ann": "SEME", "bob": "SEED"} // issue 12.7
	elsePass := map[string]string{"ann": "ALTRIMENTI PASSA", "bob": "ELSE PASS"}
	refused := map[string]string{"ann": "RESPINTO", "bob": "REFUSED"}
	todo := map[string]string{"ann": "COSA DEVI FARE ADESSO", "bob": "WHAT YOU NEED TO DO NOW"}
	var mover, other string
	var prompt []byte
	waitFor(t, "a prompt", func() bool {
		for _, p := range []string{"ann", "bob"} {
			for _, m := range ms.Messages(t, p, "INBOX") {
				pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
				if err == nil && strings.Contains(pm.Text, todo[p]) {
					mover, prompt = p, m.Raw
					return true
				}
			}
		}
		return false
	})
	other = "ann"
	if mover == "ann" {
		other = "bob"
	}
	noRaw := func(who, text string) {
		t.Helper()
		for _, code := range []string{"no_seed", "second_item", "wrong_item", "space_full", "building_closed", "space_used"} {
			if strings.Contains(text, code) {
				t.Errorf("%s's mail shows the raw code %s:\n%s", who, code, text)
			}
		}
	}

	// The mover: one seed, two seed items.
	n := ms.Count(t, mover, "INBOX")
	to, raw := muttReply(t, prompt, ms.Address(mover), "fs-two-"+mover, place[mover]+" MH1 "+seed[mover]+", HP1 "+seed[mover])
	ms.Send(t, ms.Address(mover), []string{to}, raw)
	prompt, echo := newMail(t, ms, mover, n, refused[mover])
	if !strings.Contains(echo, "(DB-5.3.4)") || !strings.Contains(echo, "(DB-5.3.3)") {
		t.Errorf("the second item's refusal does not cite DB-5.3.4 and DB-5.3.3:\n%s", echo)
	}
	noRaw(mover, echo)

	// The other player queues a line no position makes legal.
	msgs := ms.Messages(t, other, "INBOX")
	n = len(msgs)
	to, raw = muttReply(t, msgs[n-1].Raw, ms.Address(other), "fs-hp1-"+other, place[other]+" HP1 G6 "+elsePass[other])
	ms.Send(t, ms.Address(other), []string{to}, raw)
	last, echo := newMail(t, ms, other, n, refused[other])
	if !strings.Contains(echo, "(DB-5.5.4)") {
		t.Errorf("HP1's rule is not cited:\n%s", echo)
	}
	noRaw(other, echo)

	// A line that may still be legal is queued; the mover then fills MH1
	// (one player per space with two players) and the queued line passes:
	// the other player is told why.
	n = ms.Count(t, other, "INBOX")
	to, raw = muttReply(t, last, ms.Address(other), "fs-mh1-"+other, place[other]+" MH1 "+seed[other]+" "+elsePass[other])
	ms.Send(t, ms.Address(other), []string{to}, raw)
	_, echo = newMail(t, ms, other, n, "MH1 "+seed[other])
	if strings.Contains(echo, refused[other]) {
		t.Fatalf("a line that may become legal was refused:\n%s", echo)
	}
	n = ms.Count(t, other, "INBOX")
	to, raw = muttReply(t, prompt, ms.Address(mover), "fs-one-"+mover, place[mover]+" MH1 "+seed[mover])
	ms.Send(t, ms.Address(mover), []string{to}, raw)
	_, news := newMail(t, ms, other, n, "(DB-5.4.3)")
	if flat := strings.Join(strings.Fields(news), " "); !strings.Contains(flat, place[other]+" MH1 "+seed[other]+" "+elsePass[other]) {
		t.Errorf("the pass does not quote the line as the player wrote it (%s):\n%s", elsePass[other], news)
	}
	noRaw(other, news)
}
