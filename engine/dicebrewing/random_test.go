package dicebrewing

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// explorer plays a random legal option with probability Eps, else the
// greedy bot's choice: random enough to visit odd corners, purposeful
// enough to reach the natural end of the game (the end trigger, DB-1.3).
type explorer struct{ Eps float64 }

func (e explorer) Choose(st engine.State, d engine.Decision, opts []engine.Option, rng *rand.Rand) int {
	if rng.Float64() < e.Eps {
		return rng.IntN(len(opts))
	}
	return Greedy{}.Choose(st, d, opts, rng)
}

// exploreGames plays games random games (randomConfig, with the option
// round_limit, the explorer choosing from rng) through enginetest.Play,
// failing one not over after limit answers: probe sees each position
// before its answer, the decision owed first and its legal options; end,
// when set, sees each game once over.
func exploreGames(t *testing.T, rng *rand.Rand, games int, roundLimit string, limit int,
	probe func(cfg engine.Config, n int, s *state, d engine.Decision, opts []engine.Option), end func(cfg engine.Config, s *state)) {
	t.Helper()
	bot := explorer{Eps: 0.5}
	for i := 0; i < games; i++ {
		cfg := randomConfig(i, rng)
		cfg.Options["round_limit"] = roundLimit
		st, _, err := Game.NewState(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		enginetest.Play{Name: cfg.Seed, Limit: limit,
			At: func(n int, _ engine.State, pend []engine.Decision) { probe(cfg, n, s, pend[0], s.Legal(pend[0])) },
			Choose: func(_ int, st engine.State, d engine.Decision, opts []engine.Option) int {
				return bot.Choose(st, d, opts, rng)
			},
		}.Run(t, s)
		if end != nil {
			end(cfg, s)
		}
	}
}

// randomConfig picks the setup of random game number i: every player
// count, both variants and every option value occur.
func randomConfig(i int, rng *rand.Rand) engine.Config {
	seats := []string{"ann", "bob", "cat", "dan"}
	n := 2 + i%3
	cfg := engine.Config{Seats: seats[:n], Seed: fmt.Sprintf("random-%d", i), Options: map[string]string{}}
	if i%2 == 1 {
		cfg.Variant = "advanced"
	} else if rng.IntN(3) == 0 {
		cfg.Options[position.OptHidden] = "true"
	}
	if rng.IntN(2) == 0 {
		cfg.Options[position.OptUnlucky] = "true"
	}
	if rng.IntN(3) == 0 {
		cfg.Options[position.OptBlockB] = "brewing"
	}
	if rng.IntN(4) == 0 {
		cfg.Options[position.OptFirst] = strconv.Itoa(1 + rng.IntN(n))
	}
	return cfg
}

// playChecked plays one game with the given bots, checking the invariants
// after every move (Check) and, every few moves, the JSON round trip and
// the canonical text of the options.
func playChecked(t testing.TB, cfg engine.Config, bots []engine.Bot, rng *rand.Rand, maxMoves int) (*state, int) {
	t.Helper()
	st0, _, err := Game.NewState(cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Seed, err)
	}
	s := st0.(*state)
	moves := 0
	for s.Result() == nil {
		if moves >= maxMoves {
			t.Fatalf("%s: no end after %d moves (round %d)", cfg.Seed, moves, s.Round)
		}
		pend := s.Pending()
		if len(pend) != 1 {
			t.Fatalf("%s: %d decisions pending", cfg.Seed, len(pend))
		}
		d := pend[0]
		opts := s.Legal(d)
		if len(opts) == 0 {
			t.Fatalf("%s: no option for %s", cfg.Seed, d.Kind)
		}
		if len(opts) == 1 && (opts[0].Cmd == d.Pass) && d.Kind != position.KindSecond {
			t.Fatalf("%s: asked %s with PASS as the only option", cfg.Seed, d.Kind)
		}
		i := 0
		if len(opts) > 1 {
			i = bots[d.Seat].Choose(s, d, opts, rng)
		}
		check := moves%50 == 0
		if check {
			for _, o := range opts {
				m, err := s.Parse(d.Seat, o.Cmd)
				if err != nil || m.String() != o.Cmd {
					t.Fatalf("%s: option %q is not canonical: %v", cfg.Seed, o.Cmd, err)
				}
			}
		}
		m, err := s.Parse(d.Seat, opts[i].Cmd)
		if err != nil {
			t.Fatalf("%s: %q: %v", cfg.Seed, opts[i].Cmd, err)
		}
		if _, err := s.Apply(d.Seat, m); err != nil {
			t.Fatalf("%s: move %d: legal %q of %s refused: %v", cfg.Seed, moves, opts[i].Cmd, d.Kind, err)
		}
		moves++
		if err := s.Check(); err != nil {
			t.Fatalf("%s: move %d (%q): invariant: %v", cfg.Seed, moves, opts[i].Cmd, err)
		}
		if check {
			js := mustMarshal(t, s)
			back, err := Game.DecodeState(js, cfg.Ruleset)
			if err != nil || !bytes.Equal(js, mustMarshal(t, back)) {
				t.Fatalf("%s: JSON round trip: %v", cfg.Seed, err)
			}
		}
	}
	res := s.Result()
	if len(res.Rank) != s.N || len(res.Winners()) == 0 {
		t.Fatalf("%s: result %+v", cfg.Seed, res)
	}
	return s, moves
}

// TestRandomGames plays 510 complete games over every player count,
// variant and option, checking the invariants after every move: 370 with
// uniformly random players (they stall the game, hoarding ingredients and
// selling their dice, so these use the round_limit house rule) and 140
// uncapped games of explorers (random part of the time) and greedy bots,
// which end by the rules' own trigger.
func TestRandomGames(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2026, 5))
	games, moves, triggered := 0, 0, 0
	start := time.Now()
	for i := 0; i < 510; i++ {
		cfg := randomConfig(i, rng)
		n := len(cfg.Seats)
		bots := make([]engine.Bot, n)
		switch {
		case i < 370:
			limits := []string{"4", "5", "6", "8", "4"}
			cfg.Options[position.OptLimit] = limits[i%len(limits)]
			for k := range bots {
				bots[k] = engine.RandomBot{}
			}
		case i < 450:
			for k := range bots {
				bots[k] = explorer{Eps: 0.4}
			}
		default:
			for k := range bots {
				bots[k] = Greedy{}
			}
			bots[i%n] = explorer{Eps: 0.2}
		}
		s, m := playChecked(t, cfg, bots, rng, 50000)
		games++
		moves += m
		if s.BrewedAll >= s.Target() {
			triggered++
		}
	}
	t.Logf("%d games, %d moves, %d ended by the brewing trigger, %v", games, moves, triggered, time.Since(start))
	if triggered < 125 {
		t.Errorf("only %d games reached the end trigger", triggered)
	}
}

// TestLongRandomGames plays 20,000 games when DB_LONG is set (DB_LONG=n
// plays n games).
func TestLongRandomGames(t *testing.T) {
	v := os.Getenv("DB_LONG")
	if v == "" {
		t.Skip("set DB_LONG=1 (20,000 games) or DB_LONG=<games>")
	}
	total := 20000
	if n, err := strconv.Atoi(v); err == nil && n > 1 {
		total = n
	}
	rng := rand.New(rand.NewPCG(7, 7))
	start := time.Now()
	moves, triggered := 0, 0
	for i := 0; i < total; i++ {
		cfg := randomConfig(i, rng)
		cfg.Seed = fmt.Sprintf("long-%d", i)
		bots := make([]engine.Bot, len(cfg.Seats))
		if i%2 == 0 {
			cfg.Options[position.OptLimit] = "15"
			for k := range bots {
				bots[k] = engine.RandomBot{}
			}
		} else {
			for k := range bots {
				bots[k] = explorer{Eps: 0.3 + 0.4*rng.Float64()}
			}
		}
		s, m := playChecked(t, cfg, bots, rng, 200000)
		moves += m
		if s.BrewedAll >= s.Target() {
			triggered++
		}
	}
	el := time.Since(start)
	t.Logf("%d games, %d moves, %d by the end trigger, %v: %.1f games/s, %.0f moves/s",
		total, moves, triggered, el, float64(total)/el.Seconds(), float64(moves)/el.Seconds())
}

// The greedy bot beats the random bot clearly: over 200 games (2 to 4
// players, one greedy seat among random ones, rotating) it must win at
// least 90%. Random players can stall the display with hoarded
// ingredients, so the games stop at round 15 at the latest (round_limit);
// the log says how many needed it.
func TestGreedyBeatsRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	wins, games, capped := 0, 200, 0
	for i := 0; i < games; i++ {
		cfg := randomConfig(i, rng)
		cfg.Seed = fmt.Sprintf("duel-%d", i)
		cfg.Options[position.OptLimit] = "15"
		n := len(cfg.Seats)
		bots := make([]engine.Bot, n)
		for k := range bots {
			bots[k] = engine.RandomBot{}
		}
		g := i % n
		bots[g] = Greedy{}
		st, _, err := engine.PlayOut(Game, cfg, bots, rng, false, 100000)
		if err != nil {
			t.Fatalf("%s: %v", cfg.Seed, err)
		}
		s := st.(*state)
		if s.BrewedAll < s.Target() {
			capped++
		}
		if s.Result().Rank[g] == 1 {
			wins++
		}
	}
	rate := float64(wins) / float64(games)
	t.Logf("greedy won %d of %d games against random players (%.1f%%); %d games reached round 15", wins, games, 100*rate, capped)
	if rate < 0.9 {
		t.Errorf("greedy won only %d of %d", wins, games)
	}
}
