package referee

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/tournament"
)

// TestTournamentAdjudicateScoresFromage: Fromage can score a position as it
// stands (FR-7.2..7.10), so the organiser's ADJUDICATE of a late game ends
// it at once with that score and the round goes on; no bot plays it.
func TestTournamentAdjudicateScoresFromage(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT fc game=fromage rounds=1 table=3")
	players := []string{"ann@p.test", "bob@p.test", "cat@p.test"}
	for _, p := range players {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
	}
	h.mails()
	for _, p := range players {
		h.asPlayer(p, "JOIN fc")
	}
	h.org("START fc")
	contains(t, orgResults(t, h), "fc started: round 1 of 1")
	tr := h.tour("fc")
	if len(tr.Rounds) != 1 || len(tr.Rounds[0].Matches) != 1 {
		t.Fatalf("round 1: %+v", tr.Rounds)
	}
	gid := tr.Rounds[0].Matches[0].GameID
	h.org("ADJUDICATE " + gid)
	contains(t, orgResults(t, h), "ADJUDICATE "+gid+": scored as it stands")
	tr = h.tour("fc")
	if m := tr.Rounds[0].Matches[0]; m.State != tournament.MatchAdjudicated {
		t.Fatalf("match %+v, want adjudicated", m)
	}
	if tr.Status != tournament.StatusOver {
		t.Fatalf("tournament %s, want over", tr.Status)
	}
	if g := h.game(gid); g.Status == StatusRunning {
		t.Fatalf("game %s still running", gid)
	}
	checkWidth(t, h.mails())
}

// TestTournamentAdjudicateEveryGame: Dice Brewing, Heaven & Ale and Brew
// Crafters score a position as it stands by their own final scoring
// (DB-7.2, HA-7.2..7.5, BC-7.2/7.3): after some moves played by mail, the
// organiser's ADJUDICATE records exactly the game's Adjudicate of that
// position (ranks and scores) and closes the game; with late=adjudicate
// the round's deadline does the same with no command.
func TestTournamentAdjudicateEveryGame(t *testing.T) {
	for _, game := range []string{"dicebrewing", "heavenale", "brewcrafters"} {
		t.Run(game, func(t *testing.T) {
			h := newHarness(t)
			h.org("NEW TOURNAMENT adj game=" + game + " rounds=2 table=2 deadline=3d late=adjudicate")
			players := []string{"ann@p.test", "bob@p.test", "cat@p.test", "dan@p.test"}
			for _, p := range players {
				h.org("ENTER adj " + p + " " + strings.Split(p, "@")[0])
			}
			h.org("START adj")
			contains(t, orgResults(t, h), "adj started: round 1 of 2")
			rd := h.tour("adj").Rounds[0]
			// Moves by mail in the first game: the greedy bot's answers,
			// sent by the players (a real mid-game position).
			gid := rd.Matches[0].GameID
			bot, err := engine.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			greedy, _ := bot.(engine.BotMaker).NewBot("greedy")
			rng := rand.New(rand.NewPCG(3, 4))
			for n := 0; n < 12; n++ {
				tb := h.table(gid)
				ws := tb.Waiting()
				if len(ws) == 0 {
					break
				}
				lines, err := engine.BotAnswer(tb.State, ws[0].Seat, ws[0].Group, greedy, rng)
				if err != nil || len(lines) == 0 {
					t.Fatalf("bot: %v %v", lines, err)
				}
				h.send(gid, h.game(gid).Seats[ws[0].Seat].Address, strings.Join(lines, "\n"), -1)
			}
			h.mails()
			want := h.table(gid).State.(interface{ Adjudicate() *engine.Result }).Adjudicate()
			if want == nil {
				t.Fatal("no adjudication of a running game")
			}
			h.org("ADJUDICATE " + gid)
			ms := h.mails()
			contains(t, h.mailTo(ms, org).Body, "ADJUDICATE "+gid+": scored as it stands")
			// The players hear the result, in their language.
			for _, seat := range h.game(gid).Seats {
				body := strings.Join(strings.Fields(h.mailTo(ms, seat.Address).Body), " ")
				contains(t, body, "the position as it stands is scored by the game's own final scoring", "1. ", seat.Name)
			}
			m := h.tour("adj").Rounds[0].Matches[0]
			if m.State != tournament.MatchAdjudicated || fmt.Sprint(m.Rank) != fmt.Sprint(want.Rank) || fmt.Sprint(m.Scores) != fmt.Sprint(lifecycle.Scores(want, 2)) {
				t.Fatalf("match %+v, want ranks %v scores %v", m, want.Rank, lifecycle.Scores(want, 2))
			}
			if g := h.game(gid); g.Status != StatusAborted {
				t.Fatalf("game %s is %s", gid, g.Status)
			}
			// The other game is late at the deadline: scored as it stands
			// too, and round 2 opens.
			h.clock.Advance(3*24*time.Hour + time.Minute)
			h.tick()
			tr := h.tour("adj")
			if len(tr.Rounds) != 2 || tr.Rounds[0].Matches[1].State != tournament.MatchAdjudicated {
				t.Fatalf("after the deadline: %d rounds, %+v", len(tr.Rounds), tr.Rounds[0].Matches)
			}
			checkWidth(t, h.mails())
		})
	}
}
