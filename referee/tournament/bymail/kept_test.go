package bymail

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// TestKeptWritesOnceAtTheEnd: a tournament saved in a unit of work is
// found again decoded (the same value, counted by Hit), its record is
// written only by Flush, and one only read is never kept (issue 24: ENTER
// decoded and wrote the whole record per line).
func TestKeptWritesOnceAtTheEnd(t *testing.T) {
	h := newTestHost(t, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	hits := 0
	h.kept.Hit = func() { hits++ }
	d := newDesk(h)
	tr := &tournament.Tournament{ID: "cup", Status: tournament.StatusSignup}
	if err := d.saveTour(tr); err != nil { // new: written at once
		t.Fatal(err)
	}
	first := string(h.rec.tours["cup"])
	tr.Entrants = append(tr.Entrants, tournament.Entrant{Address: "a@x.test", Name: "A"})
	if err := d.saveTour(tr); err != nil {
		t.Fatal(err)
	}
	if string(h.rec.tours["cup"]) != first {
		t.Fatal("a known tournament's record was written before the end of the unit of work")
	}
	got, err := d.load("cup")
	if err != nil || got != tr || hits != 1 {
		t.Fatalf("load = %p, %v (hits %d); want the kept %p, one hit", got, err, hits, tr)
	}
	h.flush()
	back, err := tourrec.Load(h.rec, "cup")
	if err != nil || len(back.Entrants) != 1 {
		t.Fatalf("after Flush: %v, %+v", err, back)
	}
	// A unit of work that only reads keeps nothing.
	h2 := newTestHost(t, h.now)
	h2.rec = h.rec
	d2 := newDesk(h2)
	if r, err := d2.load("cup"); err != nil || r == tr {
		t.Fatalf("a new unit of work read %p, %v", r, err)
	}
	if h2.kept.Has("cup") {
		t.Fatal("a tournament only read was kept")
	}
}

// TestKeptWritesWhatChangedOnly (issue 24: Kept reads how a tournament
// was off the bytes it was decoded from, not by encoding it again at its
// load): generated tournaments, loaded from a whole record with or
// without match records laid over it, and saved unchanged, with a
// match's result changed, with something outside the matches changed,
// or with a match given a game: an unchanged one writes nothing, a
// changed match writes that match's record alone, and any other change
// writes the whole record; each reads back as saved.
func TestKeptWritesWhatChangedOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 11))
	changes := []string{"none", "result", "shell", "game", "opening"}
	for i, c := range []struct {
		format         string
		n, size, round int
	}{{"swiss", 8, 2, 1}, {"swiss", 9, 2, 2}, {"swiss", 30, 2, 3}, {"tables", 12, 3, 2}, {"tables", 11, 4, 1}} {
		for _, overlaid := range []bool{false, true} {
			for _, change := range changes {
				t.Run(fmt.Sprintf("%s-%d-%d/overlaid-%v/%s", c.format, c.n, i, overlaid, change), func(t *testing.T) {
					h := newTestHost(t, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
					tr := genTour(t, rng, c.format, c.n, c.size, c.round)
					last := &tr.Rounds[len(tr.Rounds)-1]
					// An open match of the last round, and one without its game.
					open := -1
					for k := range last.Matches {
						if m := &last.Matches[k]; m.State != tournament.MatchBye && !m.Decided() {
							open = k
						}
					}
					if open < 0 {
						last.Matches[0].State, last.Matches[0].Rank = tournament.MatchPlaying, nil
						open = 0
					}
					if err := tourrec.Write(h.rec, tr, h.now); err != nil {
						t.Fatal(err)
					}
					if overlaid { // a result already stored as a match record
						m := last.Matches[open]
						m.State, m.Rank = tournament.MatchDone, make([]int, len(m.Seats))
						for s := range m.Rank {
							m.Rank[s] = s + 1
						}
						raw, _ := json.Marshal(&m)
						h.rec.PutTournamentMatch("cup", len(tr.Rounds)-1, open, raw)
						for k := range last.Matches {
							if k != open && last.Matches[k].State != tournament.MatchBye && !last.Matches[k].Decided() {
								open = k
								break
							}
						}
					}
					h.rec.puts, h.rec.matchPuts = 0, 0
					h.kept = tourrec.Kept{}
					d := newDesk(h)
					got, err := d.load("cup")
					if err != nil {
						t.Fatal(err)
					}
					if h.kept.Base("cup") == nil {
						t.Fatal("no shape read off the record loaded")
					}
					lr := &got.Rounds[len(got.Rounds)-1]
					wantPuts, wantMatch := 0, 0
					switch change {
					case "result":
						m := &lr.Matches[open]
						m.State, m.Rank, m.Scores = tournament.MatchAdjudicated, make([]int, len(m.Seats)), make([]int, len(m.Seats))
						for s := range m.Rank {
							m.Rank[s], m.Scores[s] = len(m.Seats)-s, 7*s
						}
						wantMatch = 1
					case "shell":
						got.Entrants[rng.IntN(len(got.Entrants))].Name += " Jr"
						wantPuts = 1
					case "game":
						lr.Matches[open].GameID += "x0"
						wantPuts = 1
					case "opening":
						got.Opening = true
						wantPuts = 1
					}
					if err := d.saveTour(got); err != nil {
						t.Fatal(err)
					}
					want, _ := json.Marshal(got)
					h.flush()
					if h.rec.puts != wantPuts || h.rec.matchPuts != wantMatch {
						t.Fatalf("%s: %d whole records and %d match records written, want %d and %d",
							change, h.rec.puts, h.rec.matchPuts, wantPuts, wantMatch)
					}
					back, err := tourrec.Load(h.rec, "cup")
					if err != nil {
						t.Fatal(err)
					}
					if raw, _ := json.Marshal(back); string(raw) != string(want) {
						t.Fatalf("%s: read back otherwise than saved", change)
					}
				})
			}
		}
	}
}

// cachedRecords are memRecords with the store's decoded tournaments
// (store.Tx.Take/KeepDecodedTournament): kept at once (no transaction
// to commit here), taken while the record is the one kept.
type cachedRecords struct {
	*memRecords
	kept map[string]any
	raw  map[string][]byte
	over map[string]string // the match records at the keeping
}

func (c *cachedRecords) TakeDecodedTournament(id string) (any, bool) {
	v, ok := c.kept[id]
	delete(c.kept, id)
	return v, ok && string(c.raw[id]) == string(c.tours[id]) && c.over[id] == fmt.Sprint(c.matches[id])
}

func (c *cachedRecords) KeepDecodedTournament(id string, rec []byte, v any) error {
	if c.over == nil {
		c.over = map[string]string{}
	}
	c.kept[id], c.raw[id], c.over[id] = v, rec, fmt.Sprint(c.matches[id])
	return nil
}

// TestRoundOpeningDecodesOnce (issue 24: each batch of a round opening
// decoded the whole tournament): a unit of work that writes a tournament
// whose round is still opening keeps it decoded, and the next unit of
// work takes that very value with its shape, not a decoding; one whose
// round is open keeps nothing, and a record changed in between is
// decoded again.
func TestRoundOpeningDecodesOnce(t *testing.T) {
	h := newTestHost(t, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	c := &cachedRecords{memRecords: h.rec, kept: map[string]any{}, raw: map[string][]byte{}}
	rng := rand.New(rand.NewPCG(24, 3))
	tr := genTour(t, rng, "swiss", 10, 2, 1)
	if err := tourrec.Write(c, tr, h.now); err != nil {
		t.Fatal(err)
	}
	unit := func(fn func(d *desk, got *tournament.Tournament)) *tournament.Tournament {
		h.kept = tourrec.Kept{}
		d := newDesk(h)
		d.rec = c
		got, err := d.load("cup")
		if err != nil {
			t.Fatal(err)
		}
		fn(d, got)
		if err := d.saveTour(got); err != nil {
			t.Fatal(err)
		}
		if err := h.kept.Flush(c, h.now); err != nil {
			t.Fatal(err)
		}
		return got
	}
	first := unit(func(_ *desk, got *tournament.Tournament) { got.Opening = true })
	second := unit(func(d *desk, got *tournament.Tournament) {
		if got != first || d.h.Kept().Base("cup") == nil {
			t.Fatalf("the batch after decoded the tournament again (%p, %p)", got, first)
		}
		got.Opening = false
	})
	if len(c.kept) != 0 {
		t.Fatal("a tournament whose round is open was kept decoded")
	}
	third := unit(func(_ *desk, got *tournament.Tournament) {
		if got == second {
			t.Fatal("taken though nothing kept it")
		}
		got.Opening = true
	})
	c.tours["cup"] = append(append([]byte(nil), c.tours["cup"]...), ' ') // the record written again since
	unit(func(_ *desk, got *tournament.Tournament) {
		if got == third {
			t.Fatal("taken though the record changed")
		}
	})
}

// TestRoundOpeningBatchesTakeTheirMatchRecords (issue 24): a batch of a
// round opening writes its games' matches as match records and keeps the
// tournament decoded: the next batch takes that very value (the store's
// check covers the match records: its whole record is still the one
// stored), and one after a match record written by another unit of work
// decodes the record with its match records again, and reads the games
// of every batch.
func TestRoundOpeningBatchesTakeTheirMatchRecords(t *testing.T) {
	h := newTestHost(t, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	c := &cachedRecords{memRecords: h.rec, kept: map[string]any{}, raw: map[string][]byte{}}
	tr, err := toyCup(t, 10)
	if err != nil {
		t.Fatal(err)
	}
	tr.Opening = true
	if err := tourrec.Write(c, tr, h.now); err != nil {
		t.Fatal(err)
	}
	var prev *tournament.Tournament
	for batch := range 5 {
		h.kept = tourrec.Kept{}
		d := newDesk(h)
		d.rec = c
		got, err := d.load("cup")
		if err != nil {
			t.Fatal(err)
		}
		if taken := got == prev; taken != (batch == 2 || batch == 4) {
			t.Fatalf("batch %d: taken decoded %v", batch, taken)
		}
		for k := range got.Rounds[0].Matches[:batch] {
			if got.Rounds[0].Matches[k].GameID == "" {
				t.Fatalf("batch %d: match %d's game not read", batch, k)
			}
		}
		got.Rounds[0].Matches[batch].GameID = fmt.Sprintf("cupr1t%d", batch+1)
		puts := c.puts
		if err := d.saveTour(got); err != nil {
			t.Fatal(err)
		}
		if err := h.kept.Flush(c, h.now); err != nil {
			t.Fatal(err)
		}
		if c.puts != puts || len(c.matches["cup"]) != batch+1 {
			t.Fatalf("batch %d: %d whole records written, %d match records", batch, c.puts-puts, len(c.matches["cup"]))
		}
		prev = got
		if batch == 0 || batch == 2 {
			// Another unit of work's match record (a game's end)
			// between this batch and the next: decoded again.
			m := got.Rounds[0].Matches[0]
			m.Rank = []int{1, 2 + batch}
			raw, _ := json.Marshal(&m)
			c.matches["cup"][[2]int{0, 0}] = raw
		}
	}
}

// TestRoundOpeningStandingsOncePerRun_Issue24 (shape.done): the later
// batches of a round opening, each taking the tournament as the batch
// before left it, compute the standings of the rounds before once, not
// once a batch (at 10,000 entrants each computation allocated 4 MB), and
// their round mails are the ones an opening in one batch sends, byte for
// byte. Generated: Swiss, tables, knockout, round robin, fields of 9 to
// 16, late entrants, byes asked for, withdrawals, four languages, batches
// of 1 and 2 games.
func TestRoundOpeningStandingsOncePerRun_Issue24(t *testing.T) {
	langs := []string{"en", "it", "fr", "nl"}
	checked := 0
	for i, f := range []struct {
		format   string
		n, table int
	}{{"swiss", 13, 2}, {"swiss", 16, 2}, {"tables", 12, 3}, {"tables", 11, 4}, {"knockout", 11, 2}, {"roundrobin", 9, 2}} {
		for _, batch := range []int{1, 2} {
			c := roundMailCase{f.format, f.n, f.table, 1, 1, i % 2, 1, langs[i%4]}
			if f.format == "knockout" || f.format == "roundrobin" {
				c.lateNow, c.lateOn, c.asked = 0, 0, 0
			}
			one, _ := openRoundTwo(t, c, 0)
			h := newBatchHost(t, batch)
			h.cached = &cachedRecords{memRecords: h.rec, kept: map[string]any{}, raw: map[string][]byte{}}
			computed := map[*tournament.Standing]bool{}
			units := 0
			h.after = func() {
				units++
				if v, ok := h.cached.kept["cup"].(*tourrec.Decoded); ok {
					if done, ok := v.S.Done.(*standings); ok && len(done.st) > 0 {
						computed[&done.st[0]] = true
					}
				}
			}
			h.openRoundTwo(t, c, 0)
			name := fmt.Sprintf("%s/%d/batch%d", c.format, c.n, batch)
			if units < 4 { // the tournament, the first batch, two later ones at least
				continue // too few batches to tell
			}
			checked++
			if len(computed) != 1 {
				t.Errorf("%s: the standings were computed %d times in %d units of work, want once after the first", name, len(computed), units)
			}
			got := map[string][]string{}
			for _, m := range h.sent {
				if strings.Contains(m.Subject, "2") {
					got[m.To] = append(got[m.To], m.Subject+"\n"+m.Body)
				}
			}
			if !maps.EqualFunc(got, one, slices.Equal) {
				t.Errorf("%s: the round mails differ from one batch's", name)
			}
		}
	}
	if checked < 7 {
		t.Fatalf("%d openings of three batches or more, want 7", checked)
	}
}
