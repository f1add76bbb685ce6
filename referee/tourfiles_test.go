package referee

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
)

// TestTournamentJoinMailNamesTheCalendar (issue 24): the sign-up
// confirmation of a public tournament gives the address of its calendar
// feed (the rounds as ICS) on a line of its own, with a line in the
// reader's language; a tournament without public pages has no feed and
// its mail names none.
func TestTournamentJoinMailNamesTheCalendar(t *testing.T) {
	intro := map[string]string{"en": "calendar app", "it": "app di calendario", "fr": "pour un agenda ", "nl": "agenda-app"}
	for _, public := range []bool{true, false} {
		h := newHarness(t)
		opt := ""
		if public {
			opt = " public"
		}
		if out := h.org("NEW TOURNAMENT cal game=toy rounds=3 deadline=72h" + opt); out.Status != "applied" {
			t.Fatalf("%+v", out)
		}
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			p := lang + "@p.test"
			h.sendAs(Request{From: p, Text: "REGISTER " + lang + " " + lang})
			h.mails()
			h.asPlayer(p, "JOIN cal")
			ms := h.mails()
			checkWidth(t, ms)
			body := h.mailTo(ms, p).Body
			feed := regexp.MustCompile(`(?m)^\S*/t/cal-\w+/rounds\.ics$`).FindString(body)
			if !public {
				if strings.Contains(body, ".ics") || strings.Contains(body, intro[lang]) {
					t.Errorf("%s: a feed of a tournament without pages:\n%s", lang, body)
				}
				continue
			}
			if feed == "" || !strings.Contains(body, intro[lang]+":\n"+feed) {
				t.Errorf("%s: no calendar feed in the confirmation:\n%s", lang, body)
			}
			if tr := h.tour("cal"); !strings.HasSuffix(feed, "/t/cal-"+tr.Key+"/rounds.ics") {
				t.Errorf("%s: feed %q is not the page's", lang, feed)
			}
		}
	}
}

// rating reads a player's rating record in a game (nil: none yet).
func (h *harness) rating(game, addr string) *tournament.Rating {
	h.t.Helper()
	var r *tournament.Rating
	if err := h.db.View(func(tx *store.Tx) error {
		raw, err := tx.Rating(game, addr)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		r = new(tournament.Rating)
		return json.Unmarshal(raw, r)
	}); err != nil {
		h.t.Fatal(err)
	}
	return r
}

// TestTournamentAdjudicatedGamesRated (issue 24): every rated game moves
// the ratings, adjudicated ones too - scored as it stands at once (Dice
// Brewing, DB-7.2, in pairs: Glicko-2; Fromage, FR-7, at tables of 3:
// Weng-Lin) or finished by the bots (the toy game) - and counts in
// Rating.Adjudicated; a forfeit rates nothing. The standings mark such a
// rating with * and say what it means, in every reader's language, in
// mails and on the page; RATING says how many games were adjudicated.
func TestTournamentAdjudicatedGamesRated(t *testing.T) {
	legend := map[string]string{"en": "* The rating counts games decided by adjudication.",
		"it": "* La valutazione conta partite aggiudicate dall'arbitro.", "fr": "* La cote compte des parties arbitrées.",
		"nl": "* De waardering telt partijen die de arbiter besliste."}
	ofThem := map[string]string{"en": "1 of them adjudicated", "it": "di cui 1 aggiudicate", "fr": "dont 1 arbitrées", "nl": "waarvan 1 beslist"}
	langs := []string{"en", "it", "fr", "nl"}
	for _, c := range []struct {
		game  string
		table int
		bots  bool
	}{{"toy", 2, true}, {"dicebrewing", 2, false}, {"fromage", 3, false}} {
		t.Run(c.game, func(t *testing.T) {
			h := newHarness(t)
			h.org(fmt.Sprintf("NEW TOURNAMENT adj game=%s rounds=2 table=%d public", c.game, c.table))
			for i := 0; i < 2*c.table; i++ {
				h.org(fmt.Sprintf("ENTER adj p%d@p.test P%d %s", i, i, langs[i%4]))
			}
			h.org("START adj")
			contains(t, orgResults(t, h), "adj started: round 1 of 2")
			rd := h.tour("adj").Rounds[0]
			if len(rd.Matches) != 2 {
				t.Fatalf("round 1: %+v", rd.Matches)
			}
			adj, forf := rd.Matches[0], rd.Matches[1]
			h.org("ADJUDICATE " + adj.GameID)
			if c.bots {
				contains(t, orgResults(t, h), "the bots finish the game")
			} else {
				contains(t, orgResults(t, h), "scored as it stands")
			}
			tr := h.tour("adj")
			if m := tr.Rounds[0].Matches[0]; m.State != tournament.MatchAdjudicated {
				t.Fatalf("match %+v, want adjudicated", m)
			}
			for _, e := range adj.Seats {
				r := h.rating(c.game, tr.Entrants[e].Address)
				if r == nil || r.Adjudicated != 1 || r.Duels+r.Tables != 1 || (c.table == 2) != (r.Duels == 1) {
					t.Fatalf("%s: rating %+v, want one adjudicated game", tr.Entrants[e].Name, r)
				}
			}
			// The other game is forfeited: no rating; the round is over.
			h.mails()
			h.org("FORFEIT " + forf.GameID + " " + tr.Entrants[forf.Seats[0]].Address)
			for _, e := range forf.Seats {
				if r := h.rating(c.game, tr.Entrants[e].Address); r != nil {
					t.Fatalf("%s rated by a forfeit: %+v", tr.Entrants[e].Name, r)
				}
			}
			ms := h.mails()
			checkWidth(t, ms)
			marked := map[string]bool{}
			for _, e := range adj.Seats {
				marked[tr.Entrants[e].Name] = true
			}
			for i, en := range tr.Entrants {
				var body string
				for _, m := range tourMails(ms) {
					if m.To == en.Address && strings.Contains(m.Body, "adj ") {
						body += m.Body
					}
				}
				contains(t, body, legend[langs[i%4]])
				// Each line of the standings: a marked rating is the
				// rating of a player of the adjudicated game.
				for _, l := range strings.Split(body, "\n") {
					f := strings.Fields(l)
					if len(f) < 3 || !strings.HasPrefix(f[1], "P") {
						continue
					}
					if strings.HasSuffix(f[len(f)-1], "*") != marked[f[1]] {
						t.Errorf("%s's mail: line %q, marked %v", en.Name, l, marked[f[1]])
					}
				}
			}
			// The page marks the same ratings, and says why.
			h.org("PUBLISH adj")
			tr = h.tour("adj")
			for _, lang := range langs {
				p, err := h.r.TournamentPage("adj-"+tr.Key, lang)
				if err != nil {
					t.Fatal(err)
				}
				if !p.AdjudicatedRatings {
					t.Errorf("%s page: no note on adjudicated ratings", lang)
				}
				for _, s := range p.Standings {
					if s.RatingAdjudicated != marked[s.Name] || (s.Rating != "") != marked[s.Name] {
						t.Errorf("%s page: %+v, adjudicated game %v", lang, s, marked[s.Name])
					}
				}
			}
			// RATING counts them.
			for _, e := range adj.Seats {
				en := tr.Entrants[e]
				h.asPlayer(en.Address, "RATING")
				contains(t, h.mailTo(h.mails(), en.Address).Body, ofThem[langs[e%4]])
			}
		})
	}
}
