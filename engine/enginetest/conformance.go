package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Conformance checks that a game keeps the engine contract. It plays games
// with random bots from each config (seeds varied per game) and checks, after
// every move:
//
//   - State.Check (the game's invariants);
//   - the JSON round trip through Game.DecodeState is exact;
//   - Clone is deep (applying to a clone does not touch the original) and
//     exact (a clone marshals to the same JSON);
//   - every legal option parses back to itself (canonical text);
//   - the default move of every pending decision is legal;
//   - a move from a seat that owes nothing is rejected with a *RuleError and
//     leaves the state unchanged, or is a free action;
//   - every event has a visibility;
//   - every seat's view and the observer's view marshal to JSON;
//
// and at the end: a Result with one rank per seat, no pending decision, and
// the same final state when the game is played again with the same seed and
// choices (determinism). It also plays one game through a Table and checks
// that the Table round-trips through JSON.
func Conformance(t *testing.T, g engine.Game, cfgs []engine.Config, gamesPerConfig int) {
	t.Helper()
	info := g.Info()
	if info.Name == "" || info.MinPlayers < 1 || info.MaxPlayers < info.MinPlayers || len(info.Variants) == 0 {
		t.Fatalf("%s: incomplete Info: %+v", info.Name, info)
	}
	if len(info.Bots) == 0 || info.Bots[0] != "random" {
		t.Errorf("%s: Info.Bots must start with \"random\": %v", info.Name, info.Bots)
	}
	maker, ok := g.(engine.BotMaker)
	if !ok {
		t.Fatalf("%s: game provides no bots (engine.BotMaker)", info.Name)
	}
	for _, b := range info.Bots {
		if _, err := maker.NewBot(b); err != nil {
			t.Errorf("%s: bot %q: %v", info.Name, b, err)
		}
	}
	for ci, cfg := range cfgs {
		for gi := 0; gi < gamesPerConfig; gi++ {
			c := cfg
			c.Seed = fmt.Sprintf("%s/conformance/%d/%d", cfg.Seed, ci, gi)
			name := fmt.Sprintf("%s/%s/%dp/%d", info.Name, c.Variant, len(c.Seats), gi)
			final, choices := conformanceGame(t, g, c, name, uint64(ci*1000+gi))
			if final == nil {
				continue
			}
			again := replayChoices(t, g, c, choices, name)
			if again != nil && !bytes.Equal(mustJSON(t, final), mustJSON(t, again)) {
				t.Errorf("%s: same seed and choices gave a different final state", name)
			}
		}
	}
	if len(cfgs) > 0 {
		tableGame(t, g, cfgs[0])
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

func conformanceGame(t *testing.T, g engine.Game, cfg engine.Config, name string, botSeed uint64) (engine.State, []string) {
	t.Helper()
	st, setup, err := g.NewState(cfg)
	if err != nil {
		t.Errorf("%s: NewState: %v", name, err)
		return nil, nil
	}
	checkEvents(t, name, setup)
	rng := rand.New(rand.NewPCG(botSeed, 7))
	var choices []string
	for moves := 0; st.Result() == nil; moves++ {
		if moves > 200000 {
			t.Errorf("%s: no end after %d moves", name, moves)
			return nil, nil
		}
		js := mustJSON(t, st)
		back, err := g.DecodeState(js, cfg.Ruleset)
		if err != nil {
			t.Fatalf("%s: move %d: DecodeState: %v", name, moves, err)
		}
		if js2 := mustJSON(t, back); !bytes.Equal(js, js2) {
			t.Fatalf("%s: move %d: JSON round trip differs:\n%s\n%s", name, moves, js, js2)
		}
		if h, err := engine.PeekHeader(js); err != nil || h.Game != g.Info().Name {
			t.Fatalf("%s: state JSON has no proper \"head\": %v", name, err)
		}
		// Clone must keep the JSON exactly (nil and empty slices alike):
		// the Table applies moves to clones, and replays compare hashes.
		if js3 := mustJSON(t, st.Clone()); !bytes.Equal(js, js3) {
			t.Fatalf("%s: move %d: a clone marshals differently:\n%s\n%s", name, moves, js, js3)
		}
		pend := st.Pending()
		if len(pend) == 0 {
			t.Fatalf("%s: move %d: no pending decision and no result", name, moves)
		}
		owes := map[int]bool{}
		for _, d := range pend {
			owes[d.Seat] = true
			if d.Mode != engine.Sequential && d.Mode != engine.Simultaneous {
				t.Fatalf("%s: decision %q has mode %q", name, d.Kind, d.Mode)
			}
			if d.Mode == engine.Simultaneous && d.Group == "" {
				t.Fatalf("%s: simultaneous decision %q has no group", name, d.Kind)
			}
			opts := st.Legal(d)
			if len(opts) == 0 {
				t.Fatalf("%s: move %d: decision %q of seat %d has no legal option", name, moves, d.Kind, d.Seat)
			}
			for _, o := range opts {
				m, err := st.Parse(d.Seat, o.Cmd)
				if err != nil {
					t.Fatalf("%s: legal option %q does not parse: %v", name, o.Cmd, err)
				}
				if m.String() != o.Cmd {
					t.Fatalf("%s: legal option %q is not canonical (parses to %q)", name, o.Cmd, m.String())
				}
			}
			c := st.Clone()
			m, err := c.Parse(d.Seat, d.Default)
			if err != nil {
				t.Fatalf("%s: default %q of %q does not parse: %v", name, d.Default, d.Kind, err)
			}
			if _, err := c.Apply(d.Seat, m); err != nil {
				t.Fatalf("%s: default %q of %q is illegal: %v", name, d.Default, d.Kind, err)
			}
			if !bytes.Equal(js, mustJSON(t, st)) {
				t.Fatalf("%s: applying to a clone changed the original", name)
			}
		}
		// A seat that owes nothing tries another seat's option.
		d := pend[0]
		for _, p := range pend[1:] {
			if p.Rank < d.Rank {
				d = p
			}
		}
		opts := st.Legal(d)
		for s := range st.Head().Seats {
			if owes[s] {
				continue
			}
			c := st.Clone()
			m, err := c.Parse(s, opts[0].Cmd)
			if err != nil {
				continue
			}
			before := mustJSON(t, c)
			if _, err := c.Apply(s, m); err != nil {
				if _, ok := engine.AsRuleError(err); !ok {
					t.Fatalf("%s: rejection is not a *RuleError: %v", name, err)
				}
				if !bytes.Equal(before, mustJSON(t, c)) {
					t.Fatalf("%s: rejected %q for seat %d changed the state", name, opts[0].Cmd, s)
				}
			}
			break
		}
		i := 0
		if len(opts) > 1 {
			i = rng.IntN(len(opts))
		}
		m, _ := st.Parse(d.Seat, opts[i].Cmd)
		evs, err := st.Apply(d.Seat, m)
		if err != nil {
			t.Fatalf("%s: move %d: legal option %q of %q rejected: %v", name, moves, opts[i].Cmd, d.Kind, err)
		}
		choices = append(choices, fmt.Sprintf("%d:%s", d.Seat, opts[i].Cmd))
		checkEvents(t, name, evs)
		if err := st.Check(); err != nil {
			t.Fatalf("%s: move %d (%q): invariant: %v", name, moves, opts[i].Cmd, err)
		}
		for s := -1; s < len(st.Head().Seats); s++ {
			mustJSON(t, st.View(s))
		}
	}
	res := st.Result()
	if len(res.Rank) != len(st.Head().Seats) || len(res.Scores) != len(st.Head().Seats) {
		t.Errorf("%s: result has %d ranks and %d scores for %d seats", name, len(res.Rank), len(res.Scores), len(st.Head().Seats))
	}
	if len(res.Winners()) == 0 {
		t.Errorf("%s: result has no winner", name)
	}
	if p := st.Pending(); len(p) != 0 {
		t.Errorf("%s: game over but %d decisions pending", name, len(p))
	}
	return st, choices
}

func replayChoices(t *testing.T, g engine.Game, cfg engine.Config, choices []string, name string) engine.State {
	t.Helper()
	st, _, err := g.NewState(cfg)
	if err != nil {
		t.Errorf("%s: NewState again: %v", name, err)
		return nil
	}
	for _, c := range choices {
		var seat int
		var cmd string
		if _, err := fmt.Sscanf(c, "%d:", &seat); err != nil {
			t.Fatalf("bad choice %q", c)
		}
		cmd = c[len(fmt.Sprint(seat))+1:]
		m, err := st.Parse(seat, cmd)
		if err != nil {
			t.Errorf("%s: replay: %q: %v", name, cmd, err)
			return nil
		}
		if _, err := st.Apply(seat, m); err != nil {
			t.Errorf("%s: replay: %q: %v", name, cmd, err)
			return nil
		}
	}
	return st
}

func checkEvents(t *testing.T, name string, evs []engine.Event) {
	t.Helper()
	for _, e := range evs {
		if e.Type == "" {
			t.Fatalf("%s: event without type: %+v", name, e)
		}
		if !e.Vis.Public && len(e.Vis.Seats) == 0 && e.Redacted == nil {
			// Allowed (visible only in the final log), but must be deliberate:
			// such events may not carry an actor that sees nothing.
			continue
		}
	}
}

// tableGame plays a game through a Table with random bots answering their
// prompts by number or by command, and round-trips the Table through JSON.
func tableGame(t *testing.T, g engine.Game, cfg engine.Config) {
	t.Helper()
	cfg.Seed += "/table"
	tb, _, _, err := engine.NewTable(g, cfg)
	if err != nil {
		t.Fatalf("NewTable: %v", err)
	}
	tb.HashSteps = true
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; tb.State.Result() == nil; n++ {
		if n > 200000 {
			t.Fatalf("table game did not end")
		}
		w := tb.Waiting()
		if len(w) == 0 {
			t.Fatalf("table: nobody waited and no result (token %d)", tb.Token())
		}
		d := w[rng.IntN(len(w))]
		p := tb.Prompts[d.Seat]
		var text string
		if p.Numbered && rng.IntN(2) == 0 {
			text = fmt.Sprint(rng.IntN(len(p.Options)) + 1)
		} else {
			opts := tb.State.Legal(p.Decision)
			text = opts[rng.IntN(len(opts))].Cmd
		}
		rep, err := tb.Submit(d.Seat, engine.ParseScript(text), tb.Token())
		if err != nil {
			t.Fatalf("table: Submit %q: %v", text, err)
		}
		if rep.Rejected {
			t.Fatalf("table: legal %q rejected: %+v", text, rep.Results)
		}
		if n%17 == 0 {
			js := mustJSON(t, tb)
			back, err := engine.LoadTable(js, cfg.Ruleset)
			if err != nil {
				if _, lookup := engine.Lookup(g.Info().Name); lookup != nil {
					continue // the game is not registered in this test binary
				}
				t.Fatalf("LoadTable: %v", err)
			}
			if !bytes.Equal(js, mustJSON(t, back)) {
				t.Fatalf("table JSON round trip differs")
			}
			back.HashSteps = true
			tb = back
		}
	}
}
