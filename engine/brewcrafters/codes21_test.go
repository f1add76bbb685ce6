package brewcrafters

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// dataIDs are the data-file ids a player never types (doc.go "Canonical
// commands"): every worker, building and building space whose code
// differs from its id.
func dataIDs(r *catalog.Rules) map[string]string {
	out := map[string]string{}
	for id, c := range r.Codes {
		if c != id {
			out[id] = c
		}
	}
	return out
}

// Issue 21: over whole random games of every variant, player count and
// research side, every legal option, default and pass of every decision is
// written in codes (no data-file id), parses back to itself, and its
// data-file id form (the Legacy text) parses to the same canonical line.
func TestCanonicalCommandsInCodes(t *testing.T) {
	games, options := 0, 0
	seen := map[string]bool{}
	for _, variant := range []string{"first", "standard", "complex"} {
		for _, side := range []string{"basic", "advanced"} {
			for n := 2; n <= 5; n++ {
				seats := []string{"a", "b", "c", "d", "e"}[:n]
				cfg := engine.Config{Variant: variant, Seats: seats, Seed: fmt.Sprintf("codes21/%s/%s/%d", variant, side, n),
					Options: map[string]string{"research_side": side}}
				st, _, err := Game{}.NewState(cfg)
				if err != nil {
					t.Fatal(err)
				}
				s := st.(*State)
				ids := dataIDs(s.r)
				if len(ids) < 30 {
					t.Fatalf("only %d data-file ids", len(ids))
				}
				rng := rand.New(rand.NewPCG(uint64(n), 21))
				for k := 0; k < 5000 && s.Result() == nil; k++ {
					d := s.Pending()[0]
					opts := s.Legal(d)
					if len(opts) == 0 {
						t.Fatalf("%s: no option", d.Kind)
					}
					for _, line := range append([]string{d.Default, d.Pass}, optionCmds(opts)...) {
						if line == "" {
							continue
						}
						options++
						for _, f := range strings.Fields(line) {
							if c, ok := ids[f]; ok {
								t.Fatalf("%s: %q carries the data-file id %s (its code is %s)", d.Kind, line, f, c)
							}
						}
						m, err := s.Parse(d.Seat, line)
						if err != nil {
							t.Fatalf("%s: %q does not parse: %v", d.Kind, line, err)
						}
						if m.String() != line {
							t.Fatalf("%s: %q parses to %q", d.Kind, line, m.String())
						}
						legacy := m.(*notation.Move).Legacy()
						if legacy != line {
							seen[d.Kind] = true
							m2, err := s.Parse(d.Seat, legacy)
							if err != nil || m2.String() != line {
								t.Fatalf("%s: the id form %q of %q reads as %v (%v)", d.Kind, legacy, line, m2, err)
							}
						}
					}
					m, err := s.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := s.Apply(d.Seat, m); err != nil {
						t.Fatal(err)
					}
				}
				games++
			}
		}
	}
	for _, kind := range []string{kindMarket, kindBrewery, kindHire} {
		if !seen[kind] {
			t.Errorf("no %s option was written with a data-file id before issue 21: the test did not look", kind)
		}
	}
	t.Logf("%d games, %d lines", games, options)
}

func optionCmds(opts []engine.Option) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Cmd
	}
	return out
}

// Issue 21: a log written before the canonical lines took codes (its steps
// carry data-file ids) replays; a step in any other non-canonical form
// still does not.
func TestLegacyLogReplays(t *testing.T) {
	cfg := engine.Config{Variant: "complex", Seats: []string{"a", "b", "c"}, Seed: "legacy21"}
	tb, first, setup, err := engine.NewTable(Game{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	log := engine.Log{Game: catalog.GameName, Config: cfg, Setup: setup, RulesetSHA: tb.State.Head().RulesetSHA}
	if first != nil {
		log.Steps = append(log.Steps, first.Steps...)
	}
	rng := rand.New(rand.NewPCG(21, 1))
	for k := 0; k < 3000 && tb.State.Result() == nil; k++ {
		d := tb.Waiting()[0]
		opts := tb.State.Legal(d)
		rep, err := tb.Submit(d.Seat, engine.ParseScript(opts[rng.IntN(len(opts))].Cmd), tb.Token())
		if err != nil {
			t.Fatal(err)
		}
		log.Steps = append(log.Steps, rep.Steps...)
	}
	if _, err := engine.Replay(Game{}, log); err != nil {
		t.Fatalf("the log as written: %v", err)
	}
	// The same log as the engine wrote it before issue 21.
	st, _, err := Game{}.NewState(cfg)
	if err != nil {
		t.Fatal(err)
	}
	old := log
	old.Steps = append([]engine.Step(nil), log.Steps...)
	changed, bad := 0, -1
	for i, s := range old.Steps {
		for _, f := range s.Script {
			st.Head().Rand.Push(f.Kind, f.Value)
		}
		m, err := st.Parse(s.Seat, s.Cmd)
		if err != nil {
			t.Fatal(err)
		}
		if l := m.(*notation.Move).Legacy(); l != s.Cmd {
			old.Steps[i].Cmd = l
			changed++
			if bad < 0 && strings.Contains(l, "_") {
				bad = i
			}
		}
		if _, err := st.Apply(s.Seat, m); err != nil {
			t.Fatal(err)
		}
	}
	if changed == 0 || bad < 0 {
		t.Fatalf("no step was written with an id before issue 21 (%d changed): the test did not look", changed)
	}
	if _, err := engine.Replay(Game{}, old); err != nil {
		t.Fatalf("the log in the old form (%d steps with ids): %v", changed, err)
	}
	// Neither form: the id with its underscores dropped only in part.
	odd := old
	odd.Steps = append([]engine.Step(nil), old.Steps...)
	odd.Steps[bad].Cmd = strings.Replace(odd.Steps[bad].Cmd, "_", "", 1) + " "
	if _, err := engine.Replay(Game{}, odd); err == nil {
		t.Fatalf("step %d %q replayed", bad, odd.Steps[bad].Cmd)
	}
	t.Logf("%d steps, %d written with ids before", len(log.Steps), changed)
}

// HasChoice never says "a choice" where Legal lists fewer than two options
// (engine.Chooser): over random games of every variant and player count.
func TestHasChoiceAgreesWithLegal(t *testing.T) {
	checked := 0
	for _, variant := range []string{"first", "standard", "complex"} {
		for n := 2; n <= 5; n++ {
			st, _, err := Game{}.NewState(engine.Config{Variant: variant, Seats: []string{"a", "b", "c", "d", "e"}[:n], Seed: fmt.Sprint("choice21/", variant, n)})
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			rng := rand.New(rand.NewPCG(uint64(n), 5))
			for k := 0; k < 5000 && s.Result() == nil; k++ {
				d := s.Pending()[0]
				opts := s.Legal(d)
				if s.HasChoice(d) {
					checked++
					if len(opts) < 2 {
						t.Fatalf("%s: HasChoice but %d options", d.Kind, len(opts))
					}
				}
				m, err := s.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Apply(d.Seat, m); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d decisions with a choice", checked)
	}
}
