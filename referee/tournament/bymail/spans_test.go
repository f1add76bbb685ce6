package bymail

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

// genTour is a generated running tournament: n entrants (names with
// quotes, backslashes, braces and the record's own keys in them), rounds
// drawn and their games given, some results.
func genTour(t *testing.T, rng *rand.Rand, format string, n, size, rounds int) *tournament.Tournament {
	t.Helper()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s := tournament.Settings{Game: "toy", Format: format, Table: size, NumRounds: 3, OrgLang: "en"}
	if err := tournament.Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	tr := &tournament.Tournament{ID: "cup", Organiser: "org@x.test", Settings: s, Seed: "seed", Status: tournament.StatusRunning,
		Key: "k", Created: now, Started: now}
	odd := []string{`"rounds":[`, `"matches":[{}]`, `a\"b`, `{[`, `]}`, `ü é`, `\\`}
	for i := range n {
		tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x.test", i),
			Name: fmt.Sprintf("P%d %s", i, odd[rng.IntN(len(odd))]), Lang: "en"})
	}
	for r := range rounds {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		rd.Opened = now
		for k := range rd.Matches {
			if m := &rd.Matches[k]; m.State != tournament.MatchBye {
				m.GameID = fmt.Sprintf("cupr%dt%d", rd.N, m.Table)
			}
		}
		tr.Rounds = append(tr.Rounds, rd)
		for k := range tr.Rounds[len(tr.Rounds)-1].Matches {
			m := &tr.Rounds[len(tr.Rounds)-1].Matches[k]
			if m.State == tournament.MatchBye || (r == rounds-1 && rng.IntN(4) == 0) {
				continue
			}
			rank := make([]int, len(m.Seats))
			for i := range rank {
				rank[i] = 1 + rng.IntN(len(m.Seats))
			}
			if _, _, err := tr.Record(m.GameID, tournament.MatchDone, rank, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	return tr
}

// TestMatchSpansFindEveryMatch (issue 24): in generated records, each
// span matchSpans finds decodes to its match and is that match's own
// encoding, and the record outside the spans is the record without its
// matches; bytes that are not such a record are refused.
func TestMatchSpansFindEveryMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 7))
	for i, c := range []struct {
		format         string
		n, size, round int
	}{{"swiss", 8, 2, 0}, {"swiss", 9, 2, 1}, {"swiss", 31, 2, 3}, {"tables", 12, 3, 2}, {"tables", 11, 4, 3}, {"tables", 13, 3, 1}} {
		t.Run(fmt.Sprintf("%s/%d/%d", c.format, c.n, i), func(t *testing.T) {
			tr := genTour(t, rng, c.format, c.n, c.size, c.round)
			raw, err := json.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			spans, ok := matchSpans(raw)
			if !ok || len(spans) != len(tr.Rounds) {
				t.Fatalf("spans %v, %d rounds", ok, len(spans))
			}
			var shell []byte
			at := 0
			for r, rs := range spans {
				if len(rs) != len(tr.Rounds[r].Matches) {
					t.Fatalf("round %d: %d spans, %d matches", r, len(rs), len(tr.Rounds[r].Matches))
				}
				for k, sp := range rs {
					own, _ := json.Marshal(&tr.Rounds[r].Matches[k])
					if string(raw[sp.from:sp.to]) != string(own) {
						t.Fatalf("round %d match %d: span %s, own encoding %s", r, k, raw[sp.from:sp.to], own)
					}
					var m tournament.Match
					if err := json.Unmarshal(raw[sp.from:sp.to], &m); err != nil || !reflect.DeepEqual(m, tr.Rounds[r].Matches[k]) {
						t.Fatalf("round %d match %d: %v", r, k, err)
					}
					shell = append(shell, raw[at:sp.from]...)
					at = sp.to
				}
			}
			shell = append(shell, raw[at:]...)
			// Without its matches (each {} kept as its place), the record
			// is the shell with every match empty.
			c := *tr
			c.Rounds = tr.Rounds[:0:0]
			if tr.Rounds == nil {
				c.Rounds = nil
			}
			var want []byte
			for r := range tr.Rounds {
				c.Rounds = append(c.Rounds, tr.Rounds[r])
				c.Rounds[r].Matches = make([]tournament.Match, 0)
			}
			want, _ = json.Marshal(&c)
			if got := stripCommas(shell); got != stripCommas(want) {
				t.Fatalf("shell differs:\n%s\n%s", got, want)
			}
			for cut := 1; cut < len(raw); cut += 1 + len(raw)/40 {
				if _, ok := matchSpans(raw[:cut]); ok {
					t.Fatalf("a record cut at %d read as whole", cut)
				}
			}
		})
	}
	for _, bad := range []string{``, `[]`, `{}`, `{"rounds":3}`, `{"rounds":[{"n":1}]}`, `{"rounds":[1]}`, `{"rounds":[]} x`} {
		if _, ok := matchSpans([]byte(bad)); ok {
			t.Errorf("%q read as a record", bad)
		}
	}
	if s, ok := matchSpans([]byte(`{"rounds":null}`)); !ok || len(s) != 0 {
		t.Errorf("no rounds: %v %v", s, ok)
	}
}

// stripCommas drops the commas between the empty places of matches.
func stripCommas(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == ',' && i > 0 && (b[i-1] == '[' || b[i-1] == ',') {
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}
