package enginelog

import (
	"errors"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
)

func step(tok int) records.Entry {
	return records.Entry{Kind: records.EntryStep, Step: &engine.Step{Token: tok, Cmd: "C"}}
}

func tokens(lg *engine.Log) []int {
	var out []int
	for _, s := range lg.Steps {
		out = append(out, s.Token)
	}
	return out
}

// TestRebuild: the engine log keeps the configuration of the start, the
// steps in effect (a rollback drops the steps after it and the errata
// that came with them), the errata where they took effect and the ruleset
// the game was created with; before the start nothing is final.
func TestRebuild(t *testing.T) {
	g := &records.Game{Game: "dicebrewing", Variant: "v", Seed: "s33d"}
	rulesets := map[string][]byte{"sha-a": []byte("A"), "sha-b": []byte("B"), "sha-c": []byte("C")}
	read := func(sha string) ([]byte, error) {
		if d, ok := rulesets[sha]; ok {
			return d, nil
		}
		return nil, errors.New("no ruleset " + sha)
	}
	start := records.Entry{Kind: records.EntryStart, Params: map[string]any{"order": []any{"Bob", "Ann"}},
		Setup: []engine.Event{{}}}
	create := records.Entry{Kind: records.EntryCreate, Params: map[string]any{"ruleset": "sha-a"}}
	erratum := func(sha string) records.Entry { return records.Entry{Kind: records.EntryErratum, Ruleset: sha} }
	rollback := func(to float64) records.Entry {
		return records.Entry{Kind: records.EntryRollback, Params: map[string]any{"to": to}}
	}
	for _, c := range []struct {
		name       string
		entries    []records.Entry
		steps      []int
		errata     []int // Before of each erratum
		ruleset    string
		wantConfig bool
	}{
		{"no start", []records.Entry{{Kind: records.EntryCreate}}, nil, nil, "", false},
		{"plain", []records.Entry{{Kind: records.EntryCreate}, start, step(1), step(2)}, []int{1, 2}, nil, "", true},
		{"created with a ruleset", []records.Entry{create, start, step(1)}, []int{1}, nil, "sha-a", true},
		{"erratum", []records.Entry{create, start, step(1), erratum("sha-b"), step(2)}, []int{1, 2}, []int{1}, "sha-a", true},
		{"rollback drops later steps and errata", []records.Entry{start, step(1), step(2), erratum("sha-b"), step(3), rollback(1), step(2)},
			[]int{1, 2}, nil, "", true},
		{"rollback keeps earlier errata", []records.Entry{start, step(1), erratum("sha-b"), step(2), step(3), rollback(2), erratum("sha-c"), step(3)},
			[]int{1, 2, 3}, []int{1, 2}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			lg, err := Rebuild(g, c.entries, read, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := tokens(lg); !reflect.DeepEqual(got, c.steps) {
				t.Errorf("steps %v, want %v", got, c.steps)
			}
			var before []int
			for _, e := range lg.Errata {
				before = append(before, e.Before)
			}
			if !reflect.DeepEqual(before, c.errata) {
				t.Errorf("errata before %v, want %v", before, c.errata)
			}
			if lg.RulesetSHA != c.ruleset || string(lg.Ruleset) != string(rulesets[c.ruleset]) {
				t.Errorf("ruleset %q %q, want %q", lg.RulesetSHA, lg.Ruleset, c.ruleset)
			}
			want := engine.Config{}
			if c.wantConfig {
				want = engine.Config{Variant: "v", Seats: []string{"Bob", "Ann"}, Seed: "s33d"}
				if len(lg.Setup) != 1 {
					t.Errorf("setup %v, want the start's", lg.Setup)
				}
			}
			if !reflect.DeepEqual(lg.Config, want) {
				t.Errorf("config %+v, want %+v", lg.Config, want)
			}
			if lg.Game != "dicebrewing" || lg.Final != "" {
				t.Errorf("game %q final %q", lg.Game, lg.Final)
			}
		})
	}
	if _, err := Rebuild(g, []records.Entry{start, erratum("missing")}, read, nil, nil); err == nil {
		t.Error("a missing erratum's ruleset was not reported")
	}
	if _, err := Rebuild(g, []records.Entry{{Kind: records.EntryCreate, Params: map[string]any{"ruleset": "missing"}}}, read, nil, nil); err == nil {
		t.Error("a missing initial ruleset was not reported")
	}
}

// TestRollback: cutting a log back to move `to` keeps exactly the steps
// of tokens up to `to`, the errata in effect before the last step kept
// (none that came after it), and no final hash, for every cut of logs of
// several shapes (several steps a token, errata between them).
func TestRollback(t *testing.T) {
	shapes := [][]int{{}, {1}, {1, 2, 3}, {1, 1, 2, 2, 2, 3, 4, 5}, {0, 1, 3, 3, 7}}
	for _, toks := range shapes {
		for to := -1; to <= 8; to++ {
			for _, before := range []int{0, 1, 2, 4, 8} {
				lg := &engine.Log{Final: "h"}
				for _, tok := range toks {
					lg.Steps = append(lg.Steps, engine.Step{Token: tok, Cmd: "C"})
				}
				lg.Errata = []engine.Erratum{{Before: 0, Ruleset: []byte("a")}, {Before: before, Ruleset: []byte("b")}}
				Rollback(lg, to)
				var want []int
				for _, tok := range toks {
					if tok <= to {
						want = append(want, tok)
					}
				}
				if got := tokens(lg); !reflect.DeepEqual(got, want) {
					t.Errorf("steps %v rolled back to %d: %v, want %v", toks, to, got, want)
				}
				if lg.Final != "" {
					t.Errorf("steps %v rolled back to %d: final hash %q kept", toks, to, lg.Final)
				}
				wantErrata := 1
				if before <= len(want) {
					wantErrata = 2
				}
				if len(lg.Errata) != wantErrata || string(lg.Errata[0].Ruleset) != "a" {
					t.Errorf("steps %v to %d, erratum before %d: errata %+v, want %d", toks, to, before, lg.Errata, wantErrata)
				}
			}
		}
	}
}
