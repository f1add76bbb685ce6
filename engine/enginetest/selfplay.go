package enginetest

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// selfPlayGames is the number of one-mail-turn self-play games a game's
// TestSelfPlayOneMailTurns plays per player count (issue 21: the target is
// 20,000 per engine; the default keeps go test quick, -short keeps it
// quicker). Set it with -selfplay=N.
var selfPlayGames = flag.Int("selfplay", 0, "one-mail-turn self-play games per player count (0: the test's default)")

// SelfPlayCount returns how many self-play games to play: the -selfplay
// flag when set, else def (def/10, at least 1, with -short or the race
// detector).
func SelfPlayCount(def int) int {
	if *selfPlayGames > 0 {
		return *selfPlayGames
	}
	if testing.Short() || raceOn {
		return max(1, def/10)
	}
	return def
}

// MailStats counts the line outcomes of self-play mails.
type MailStats struct {
	Games, Mails, Lines int
	// Status counts every OrderResult status seen.
	Status map[string]int
	// Bad describes the first lines that were refused, dropped, halted,
	// failed or skipped (at most 10), with the mail they came in.
	Bad []string
}

// badStatus are the outcomes a legal line written at its turn must never
// get (issue 21).
var badStatus = map[string]bool{"rejected": true, "skipped": true, "failed": true, "dropped": true, "halted": true, "partial": true}

// TurnLines plays seat's whole turn on a copy of st with bot, from its
// waiting decision d on, and returns one command per line, forced choices
// written out as a player who reads the rules would: every decision of the
// seat that follows without another seat acting (for a simultaneous
// decision, the seat's part of d's group) in d's queue slot (the turn: a
// later turn may depend on what the player cannot see yet, such as the
// tiles of the next round), stopping after a move that drew a random
// outcome (the player cannot know what comes after it).
func TurnLines(st engine.State, d engine.Decision, bot engine.Bot, rng *rand.Rand) ([]string, error) {
	st = st.Clone()
	st.Head().Rand.Blind()
	seat := d.Seat
	var lines []string
	for n := 0; n < 500; n++ {
		var cur engine.Decision
		found := false
		pend := st.Pending()
		for _, p := range pend {
			if p.Seat == seat && (d.Mode == engine.Sequential && p.Mode == engine.Sequential || p.Mode == engine.Simultaneous && p.Group == d.Group) {
				cur, found = p, true
				break
			}
		}
		if !found || (d.Mode == engine.Sequential && pend[0].Seat != seat) || cur.Slot != d.Slot {
			break
		}
		opts := st.Legal(cur)
		if len(opts) == 0 {
			return lines, fmt.Errorf("no legal option for %s of seat %d", cur.Kind, seat)
		}
		i := 0
		if len(opts) > 1 {
			i = bot.Choose(st, cur, opts, rng)
		}
		lines = append(lines, opts[i].Cmd)
		m, err := st.Parse(seat, opts[i].Cmd)
		if err != nil {
			return lines, err
		}
		drawn := st.Head().Rand.Drawn()
		if _, err := st.Apply(seat, m); err != nil {
			return lines, fmt.Errorf("legal option %q: %w", opts[i].Cmd, err)
		}
		if st.Head().Rand.Drawn() != drawn || st.Result() != nil {
			break
		}
	}
	return lines, nil
}

// SelfPlayMails plays games complete games of g through a Table, every
// turn sent as one mail of one command per line with forced choices written
// out (TurnLines), and counts the outcome of every line. Engine errors and
// games that stall fail the test; refused lines are counted in the stats
// (the caller decides).
func SelfPlayMails(t testing.TB, g engine.Game, games int, cfg func(n int) engine.Config, bot engine.Bot, rng *rand.Rand) MailStats {
	t.Helper()
	stats := MailStats{Status: map[string]int{}}
	for n := 0; n < games; n++ {
		tb, _, _, err := engine.NewTable(g, cfg(n))
		if err != nil {
			t.Fatal(err)
		}
		stats.Games++
		for k := 0; tb.State.Result() == nil; k++ {
			if k > 20000 {
				t.Fatalf("game %d did not end", n)
			}
			w := tb.Waiting()
			if len(w) == 0 {
				t.Fatalf("game %d: nobody is asked anything and the game is not over", n)
			}
			d := w[0]
			lines, err := TurnLines(tb.State, d, bot, rng)
			if err != nil {
				t.Fatalf("game %d: %v", n, err)
			}
			if len(lines) == 0 {
				t.Fatalf("game %d: seat %d asked %s with nothing to say", n, d.Seat, d.Kind)
			}
			text := strings.Join(lines, "\n")
			rep, err := tb.Submit(d.Seat, engine.ParseScript(text), tb.Token())
			if err != nil {
				t.Fatalf("game %d: Submit(%d, %q): %v", n, d.Seat, text, err)
			}
			stats.Mails++
			for _, r := range rep.Results {
				stats.Lines++
				stats.Status[r.Status]++
				if badStatus[r.Status] && len(stats.Bad) < 10 {
					var why []string
					for _, e := range r.Errors {
						why = append(why, e.Error())
					}
					stats.Bad = append(stats.Bad, fmt.Sprintf("game %d seat %d %s: %q %s [%s] in mail %q",
						n, d.Seat, d.Kind, r.Order.Text, r.Status, strings.Join(why, "; "), text))
				}
			}
			if rep.Rejected {
				// A refused mail changes nothing: let the bot take that
				// decision alone so that the game goes on.
				ans, err := engine.BotAnswer(tb.State, d.Seat, d.Group, bot, rng)
				if err != nil || len(ans) == 0 {
					t.Fatalf("game %d: refused mail %q and no bot answer (%v)", n, text, err)
				}
				if _, err := tb.Submit(d.Seat, engine.ParseScript(strings.Join(ans, "\n")), tb.Token()); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return stats
}

// Refused counts the lines of the stats that got an outcome a legal line
// must never get.
func (s MailStats) Refused() int {
	k := 0
	for st, n := range s.Status {
		if badStatus[st] {
			k += n
		}
	}
	return k
}

// SelfPlayTest is a game's TestSelfPlayOneMailTurns: SelfPlayCount(def)
// games of random bots for every player count and variant of g, every turn
// one mail (SelfPlayMails), and not one line may get an outcome a legal
// line must never get (issue 21). options are the game options of every
// game (nil: the defaults).
func SelfPlayTest(t *testing.T, g engine.Game, def int, options map[string]string) {
	info := g.Info()
	variants := []string{""}
	if len(info.Variants) > 0 {
		variants = nil
	}
	for _, v := range info.Variants {
		variants = append(variants, v.Name)
	}
	n := SelfPlayCount(def)
	for _, v := range variants {
		for np := max(2, info.MinPlayers); np <= info.MaxPlayers; np++ {
			t.Run(fmt.Sprintf("%s/%dp", v, np), func(t *testing.T) {
				seats := []string{"ann", "ben", "cat", "dan", "eve"}[:np]
				rng := rand.New(rand.NewPCG(uint64(np), 21))
				st := SelfPlayMails(t, g, n, func(k int) engine.Config {
					return engine.Config{Variant: v, Seats: seats, Seed: fmt.Sprintf("selfplay/%s/%d/%d", v, np, k), Options: options}
				}, engine.RandomBot{}, rng)
				t.Logf("%d games, %d mails, %d lines: %v", st.Games, st.Mails, st.Lines, st.Status)
				if k := st.Refused(); k > 0 {
					t.Errorf("%d legal lines were not played as written:\n%s", k, strings.Join(st.Bad, "\n"))
				}
			})
		}
	}
}
