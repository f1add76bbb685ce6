package referee

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/templates"
)

// Issue 22, "how you score, where you stand": each game's summary shows the
// reader's projected final score and the leader's, so that "what is it
// worth" needs no rulebook. Mid-game positions of every game (greedy bots),
// the summary of seat 0 in every language: a line names the leader with
// the leader's projected total, and the reader's own total shows, both as
// the game's own final scoring gives them now (its Adjudicate, the score
// ADJUDICATE uses). Fromage's standing is the public position (during a
// sealed turn, its start: FR-6.4), the same for every seat; the reader's
// own row may add their score with their own moves of the turn.
func TestSummaryShowsProjectedScoreAndLeader_Issue22(t *testing.T) {
	rn, err := tell.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	seats := []string{"Ann", "Bob", "Cleo"}
	for _, game := range []string{"brewcrafters", "heavenale", "dicebrewing", "fromage"} {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		n := 3
		if !g.Info().Allows("", n) {
			n = 2
		}
		var bots []engine.Bot
		for range seats[:n] {
			b, err := g.(engine.BotMaker).NewBot(g.Info().BestBot())
			if err != nil {
				t.Fatal(err)
			}
			bots = append(bots, b)
		}
		for _, moves := range []int{40, 90} {
			st, _, _ := engine.PlayOut(g, engine.Config{Seats: seats[:n], Seed: "projected-" + game}, bots,
				rand.New(rand.NewPCG(22, uint64(moves))), false, moves)
			if st == nil || st.Result() != nil {
				t.Fatalf("%s: no mid-game position after %d moves", game, moves)
			}
			adj, ok := st.(interface{ Adjudicate() *engine.Result })
			if !ok {
				t.Fatalf("%s: no projected score (Adjudicate)", game)
			}
			res := adj.Adjudicate()
			lead := 0
			for i, r := range res.Rank {
				if r < res.Rank[lead] {
					lead = i
				}
			}
			total := func(seat int) string { return strconv.Itoa(res.Scores[seat].Total) }
			for _, lang := range templates.Languages {
				sum, err := rn.Summary(tell.Reader{Game: game, Lang: lang, Seat: 0, Seats: seats[:n], Compact: true}, st.View(0))
				if err != nil {
					t.Fatal(err)
				}
				flat := strings.Join(strings.Fields(sum), " ")
				leader := regexp.MustCompile(regexp.QuoteMeta(seats[lead]) + `[^.;]{0,40}\b` + total(lead) + `\b|\b` +
					total(lead) + `\b[^.;]{0,40}` + regexp.QuoteMeta(seats[lead]))
				if !leader.MatchString(flat) {
					t.Errorf("%s %s after %d moves: no line names the leader %s with %s:\n%s", game, lang, moves, seats[lead], total(lead), sum)
				}
				if !regexp.MustCompile(`\b` + total(0) + `\b`).MatchString(sum) {
					t.Errorf("%s %s after %d moves: the reader's projected %s is not shown:\n%s", game, lang, moves, total(0), sum)
				}
			}
		}
	}
}
