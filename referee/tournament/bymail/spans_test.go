package bymail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// genTour is a generated running tournament: n entrants (names with
// quotes, backslashes, braces and the record's own keys in them), rounds
// drawn and their games given, some results.
func genTour(t testing.TB, rng *rand.Rand, format string, n, size, rounds int) *tournament.Tournament {
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
			spans, ok := tourrec.MatchSpans(raw)
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
					if string(raw[sp.From:sp.To]) != string(own) {
						t.Fatalf("round %d match %d: span %s, own encoding %s", r, k, raw[sp.From:sp.To], own)
					}
					var m tournament.Match
					if err := json.Unmarshal(raw[sp.From:sp.To], &m); err != nil || !reflect.DeepEqual(m, tr.Rounds[r].Matches[k]) {
						t.Fatalf("round %d match %d: %v", r, k, err)
					}
					shell = append(shell, raw[at:sp.From]...)
					at = sp.To
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
				if _, ok := tourrec.MatchSpans(raw[:cut]); ok {
					t.Fatalf("a record cut at %d read as whole", cut)
				}
			}
		})
	}
	for _, bad := range []string{``, `[]`, `{}`, `{"rounds":3}`, `{"rounds":[{"n":1}]}`, `{"rounds":[1]}`, `{"rounds":[]} x`} {
		if _, ok := tourrec.MatchSpans([]byte(bad)); ok {
			t.Errorf("%q read as a record", bad)
		}
	}
	if s, ok := tourrec.MatchSpans([]byte(`{"rounds":null}`)); !ok || len(s) != 0 {
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

// matchSpansByDecoder finds the spans as matchSpans does, with
// encoding/json's Decoder (Token for the structure, RawMessage for each
// value, InputOffset for where it ends): the standard library's way,
// kept to measure against the scanner (BenchmarkMatchSpans) and to check
// that both find the same spans.
func matchSpansByDecoder(raw []byte) (rounds [][]tourrec.Span, ok bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	delim := func(want json.Delim) bool {
		tok, err := d.Token()
		return err == nil && tok == want
	}
	// members reads an object's members after its '{', calling member
	// with each key.
	members := func(member func(key string) bool) bool {
		for d.More() {
			tok, err := d.Token()
			key, isKey := tok.(string)
			if err != nil || !isKey || !member(key) {
				return false
			}
		}
		return delim('}')
	}
	skip := func() bool {
		var v json.RawMessage
		return d.Decode(&v) == nil
	}
	// array reads an array (or null), calling elem before each element.
	array := func(elem func() bool) bool {
		tok, err := d.Token()
		if err != nil || tok == nil {
			return err == nil
		}
		if tok != json.Delim('[') {
			return false
		}
		for d.More() {
			if !elem() {
				return false
			}
		}
		return delim(']')
	}
	found := false
	ok = delim('{') && members(func(key string) bool {
		if key != "rounds" {
			return skip()
		}
		found = true
		return array(func() bool {
			ms, mfound := []tourrec.Span{}, false
			ok := delim('{') && members(func(key string) bool {
				if key != "matches" {
					return skip()
				}
				mfound = true
				return array(func() bool {
					var v json.RawMessage
					if d.Decode(&v) != nil {
						return false
					}
					to := int(d.InputOffset())
					ms = append(ms, tourrec.Span{From: to - len(v), To: to})
					return true
				})
			})
			rounds = append(rounds, ms)
			return ok && mfound
		})
	})
	if _, err := d.Token(); err != io.EOF {
		return rounds, false
	}
	return rounds, ok && found
}

// TestMatchSpansByDecoderAgree: the Decoder's spans are the scanner's on
// generated records (the benchmark compares like with like).
func TestMatchSpansByDecoderAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 8))
	for _, n := range []int{8, 31, 200} {
		raw, err := json.Marshal(genTour(t, rng, "swiss", n, 2, 3))
		if err != nil {
			t.Fatal(err)
		}
		a, aok := tourrec.MatchSpans(raw)
		b, bok := matchSpansByDecoder(raw)
		if !aok || !bok || !reflect.DeepEqual(a, b) {
			t.Fatalf("%d entrants: scanner %v %v, decoder %v %v", n, aok, len(a), bok, len(b))
		}
	}
}

// BenchmarkMatchSpans finds the matches of a 10,000-entrant Swiss record
// of 3 rounds (15,000 matches) with the scanner and with encoding/json's
// Decoder.
func BenchmarkMatchSpans(b *testing.B) {
	raw, err := json.Marshal(genTour(b, rand.New(rand.NewPCG(24, 9)), "swiss", 10000, 2, 3))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		find func([]byte) ([][]tourrec.Span, bool)
	}{{"scanner", tourrec.MatchSpans}, {"decoder", matchSpansByDecoder}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := c.find(raw); !ok {
					b.Fatal("not a record")
				}
			}
		})
	}
}
