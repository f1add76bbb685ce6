package referee

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/store"
)

// TestOrgNotesInOrganiserLanguage (issue 22): the notes the core sends an
// organiser on its own (a seat declined, resigned, left to the bot, a
// bounce, the end) are in the organiser's language: that of their last
// command mail naming the game (Game.OrgLang). For an Italian, French and
// Dutch organiser, each note kind is sent, through the game (DECLINE,
// RESIGN, a bounce) and through the core's one door for all of them
// (toOrganiser), and checked for English words (langChecker); the same
// organiser writing in English gets English notes again.
func TestOrgNotesInOrganiserLanguage(t *testing.T) {
	words := map[string][3]string{ // lang: NEW, PLAYER, INVITE
		"it": {"NUOVA", "GIOCATORE", "INVITA"}, "fr": {"NOUVELLE", "JOUEUR", "INVITER"}, "nl": {"NIEUW", "SPELER", "UITNODIGEN"},
	}
	frames := map[string]string{"it": "partita", "fr": "partie", "nl": "partij"}
	const ann, bob, cat, dan = "ann@example.test", "bob@example.test", "cat@example.test", "dan@example.test"
	for _, lang := range []string{"it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			c := &langChecker{logf: t.Logf, lang: lang, names: append([]string{"Ann", "Bob", "Cat", "Dan", "Bid & Roll (contract test game)"}, dataNames()...), found: map[string]int{}}
			w := words[lang]
			h.org(w[0] + " toy id=g1 rounds=2 deadline=24h,misses=2,vacation=3\n" +
				w[1] + " " + ann + " Ann\n" + w[1] + " " + bob + " Bob\n" + w[1] + " " + cat + " Cat")
			h.mails()
			if got := h.game("g1").OrgLang; got != lang {
				t.Fatalf("Game.OrgLang %q, want %q", got, lang)
			}
			kinds := map[string]bool{}
			note := func(what string, ms []*Outgoing) {
				t.Helper()
				m := h.mailTo(ms, org)
				if m.Lang != lang || !strings.Contains(strings.ToLower(m.Body), frames[lang]) {
					t.Errorf("%s: note in %q, want %s:\n%s", what, m.Lang, lang, m.Body)
				}
				kinds[what] = true
				c.check(what, m.Subject+"\n"+m.Body)
			}
			h.send("g1", cat, "DECLINE", -1)
			note("org_declined", h.mails())
			h.org(w[2] + " g1 " + dan + " Dan")
			for _, p := range []string{ann, bob, dan} {
				h.send("g1", p, "JOIN", -1)
			}
			h.mails()
			if got := h.game("g1").Status; got != StatusRunning {
				t.Fatalf("game %s", got)
			}
			if err := h.r.DeliveryFailed(bob, "550 5.1.1 no such user"); err != nil {
				t.Fatal(err)
			}
			note("org_bounce", h.mails())
			h.send("g1", ann, "RESIGN", -1)
			note("org_resigned", h.mails())
			for i := 0; i < 50 && h.game("g1").Status == StatusRunning; i++ {
				h.mails()
				h.send("g1", bob, "BID 1\nHOLD", -1)
				h.send("g1", dan, "BID 1\nHOLD", -1)
			}
			if h.game("g1").Status != StatusOver {
				t.Fatal("game not over")
			}
			note("org_end", h.mails())
			// Every kind, through the core's door, with its real data.
			_, err := h.r.update(func(wk *work) error {
				gw, err := wk.game("g1")
				if err != nil {
					return err
				}
				gw.toOrganiser("org_bot", "seat", 1, "name", "Bob", "address", bob, "missed", 2)
				gw.toOrganiser("org_bot", "seat", 1, "name", "Bob", "address", bob, "missed", 1)
				gw.toOrganiser("org_end")
				gw.toOrganiser("org_declined", "name", "Cat", "address", cat)
				gw.toOrganiser("org_resigned", "name", "Ann")
				gw.toOrganiser("org_bounce", "address", bob, "name", "Bob", "quoted", []string{"550 5.1.1 no such user"})
				for _, m := range gw.extra {
					if m.To == org {
						note("toOrganiser", []*Outgoing{m})
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			c.report(t)
			if len(kinds) != 5 {
				t.Errorf("notes seen: %v", kinds)
			}
			// An English mail naming the game: English notes again.
			h.org("STATUS g1")
			h.mails()
			if got := h.game("g1").OrgLang; got != "en" {
				t.Errorf("after an English mail, Game.OrgLang %q", got)
			}
		})
	}
}

// TestOrgNotesTournamentLanguage (issue 22): a game whose organiser's
// language was never recorded (a round drawn by the clock, an older
// record) takes its tournament's (lang= at NEW TOURNAMENT) for the notes.
func TestOrgNotesTournamentLanguage(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT coppa game=toy rounds=2 lang=it")
	for _, p := range []string{"ann@p.test Ann", "bob@p.test Bob"} {
		h.org("ENTER coppa " + p + " it")
	}
	h.org("START coppa")
	h.mails()
	tr := h.tour("coppa")
	if len(tr.Rounds) == 0 || len(tr.Rounds[0].Matches) == 0 {
		t.Fatalf("no round: %+v", tr.Rounds)
	}
	id := tr.Rounds[0].Matches[0].GameID
	c := &langChecker{logf: t.Logf, lang: "it", names: []string{"Ann", "Bob", "Bid & Roll (contract test game)"}, found: map[string]int{}}
	_, err := h.r.update(func(wk *work) error {
		gw, err := wk.game(id)
		if err != nil {
			return err
		}
		gw.g.OrgLang = "" // as in a record written before the field
		if got := gw.orgLang(); got != "it" {
			t.Errorf("orgLang %q, want it (the tournament's)", got)
		}
		gw.toOrganiser("org_end")
		gw.toOrganiser("org_resigned", "name", "Ann")
		n := 0
		for _, m := range gw.extra {
			if m.To == org {
				n++
				if m.Lang != "it" {
					t.Errorf("note in %q:\n%s", m.Lang, m.Body)
				}
				c.check("note", m.Body)
			}
		}
		if n != 2 {
			t.Errorf("%d notes to the organiser, want 2", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c.report(t)
}

// TestOrgNotesInLastMailLanguage_Issue22: the notes about a game its
// organiser never wrote about by mail (created from the command line, so
// Game.OrgLang is empty, and in no tournament) come in the language of
// the organiser's last mail of any kind, kept with the organiser's
// address in the same transaction as that mail. For each of the four
// languages, after a mail in another language and then one in it (each
// about another game): the declined seat's note, and every kind through
// toOrganiser, are in the last mail's language.
func TestOrgNotesInLastMailLanguage_Issue22(t *testing.T) {
	words := map[string][2]string{ // lang: NEW, PLAYER
		"en": {"NEW", "PLAYER"}, "it": {"NUOVA", "GIOCATORE"}, "fr": {"NOUVELLE", "JOUEUR"}, "nl": {"NIEUW", "SPELER"},
	}
	langs := []string{"en", "it", "fr", "nl"}
	const ann, bob, cat = "ann@example.test", "bob@example.test", "cat@example.test"
	for i, lang := range langs {
		before := langs[(i+1)%len(langs)]
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			if _, err := h.r.Organise(org, "NEW toy id=g1 rounds=2 deadline=24h\nPLAYER "+ann+" Ann\nPLAYER "+bob+" Bob\nPLAYER "+cat+" Cat"); err != nil {
				t.Fatal(err)
			}
			h.mails()
			for n, l := range []string{before, lang} {
				w := words[l]
				commits := h.r.db.WriteStats().Commits
				h.org(fmt.Sprintf("%s toy id=o%d\n%s %s Ann", w[0], n, w[1], ann))
				if got := h.r.db.WriteStats().Commits - commits; got != 1 {
					t.Errorf("the %s mail took %d commits, want 1 (its language kept in its own transaction)", l, got)
				}
				h.mails()
				if got := orgRecordLang(t, h); got != l {
					t.Fatalf("after a mail in %s, the organiser's record says %q", l, got)
				}
			}
			if got := h.game("g1").OrgLang; got != "" {
				t.Fatalf("g1, never written about by mail, has OrgLang %q", got)
			}
			c := &langChecker{logf: t.Logf, lang: lang, names: append([]string{"Ann", "Bob", "Cat", "Bid & Roll (contract test game)"}, dataNames()...), found: map[string]int{}}
			note := func(what string, m *Outgoing) {
				t.Helper()
				if m.Lang != lang {
					t.Errorf("%s: note in %q, want %s:\n%s", what, m.Lang, lang, m.Body)
				}
				if lang != "en" {
					c.check(what, m.Subject+"\n"+m.Body)
				}
			}
			h.send("g1", cat, "DECLINE", -1)
			note("org_declined", h.mailTo(h.mails(), org))
			n := 0
			_, err := h.r.update(func(wk *work) error {
				gw, err := wk.game("g1")
				if err != nil {
					return err
				}
				gw.toOrganiser("org_bot", "seat", 1, "name", "Bob", "address", bob, "missed", 2)
				gw.toOrganiser("org_end")
				gw.toOrganiser("org_resigned", "name", "Ann")
				gw.toOrganiser("org_bounce", "address", bob, "name", "Bob", "quoted", []string{"550 5.1.1 no such user"})
				for _, m := range gw.extra {
					if m.To == org {
						n++
						note("toOrganiser", m)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != 4 {
				t.Errorf("%d notes through toOrganiser, want 4", n)
			}
			if lang != "en" {
				c.report(t)
			}
		})
	}
}

// orgRecordLang is the language kept on the organiser's record.
func orgRecordLang(t *testing.T, h *harness) string {
	t.Helper()
	var rec records.Organiser
	err := h.r.db.View(func(tx *store.Tx) error {
		raw, ok := tx.Organiser(org)
		if !ok {
			return nil
		}
		return json.Unmarshal(raw, &rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec.Lang
}
