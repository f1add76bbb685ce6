package referee

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
)

// tourStored is tournament id as the store holds it: its whole record and
// how many match records it has.
func (h *harness) tourStored(id string) (rec []byte, matches int) {
	h.t.Helper()
	if err := h.db.View(func(tx *store.Tx) error {
		var err error
		if rec, err = tx.Tournament(id); err != nil {
			return err
		}
		return tx.TournamentMatches(id, func(int, int, []byte) error { matches++; return nil })
	}); err != nil {
		h.t.Fatal(err)
	}
	return rec, matches
}

// TestTournamentGameEndWritesItsMatch (issues 24, 25): through the core
// and its store, a tournament game's end (a player's RESIGN finished by
// the bots, the organiser's ADJUDICATE or FORFEIT) leaves the whole record
// as it was and writes its match's record; a correction (RESULT) of a
// result held as a match record is read back; a restart reads them all;
// the game whose end closes the round writes the whole record, which
// holds every result and leaves no match record, and the next round opens.
// Swiss and tables, even and odd fields.
func TestTournamentGameEndWritesItsMatch(t *testing.T) {
	for _, c := range []struct {
		format string
		n      int
	}{{"swiss", 8}, {"swiss", 9}, {"tables", 9}} {
		t.Run(fmt.Sprintf("%s/%d", c.format, c.n), func(t *testing.T) {
			h := newHarness(t)
			text := fmt.Sprintf("NEW TOURNAMENT cup game=toy format=%s rounds=2 deadline=24h\n", c.format)
			for i := range c.n {
				text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
			}
			h.org(text + "START cup")
			h.mails()
			var games []tournament.Match
			for _, m := range h.tour("cup").Rounds[0].Matches {
				if m.GameID != "" {
					games = append(games, m)
				}
			}
			en := h.tour("cup").Entrants
			for i, m := range games[:len(games)-1] {
				whole, before := h.tourStored("cup")
				switch i % 3 {
				case 0:
					for s := len(m.Seats) - 1; s >= 0; s-- {
						h.send(m.GameID, en[m.Seats[s]].Address, "RESIGN", -1)
					}
				case 1:
					h.org("ADJUDICATE " + m.GameID)
				case 2:
					h.org("FORFEIT " + m.GameID + " " + en[m.Seats[0]].Name)
				}
				now, after := h.tourStored("cup")
				if !bytes.Equal(whole, now) || after != before+1 {
					t.Fatalf("%s ended: the whole record changed %v, match records %d -> %d", m.GameID, !bytes.Equal(whole, now), before, after)
				}
				if got := h.tour("cup").Rounds[0].Matches[m.Table-1]; !got.Decided() {
					t.Fatalf("%s ended and reads %s", m.GameID, got.State)
				}
			}
			// A correction of a result held as a match record.
			first := games[0]
			places := make([]string, len(first.Seats))
			for s := range places {
				places[s] = fmt.Sprint(len(places) - s)
			}
			h.org("RESULT " + first.GameID + " " + strings.Join(places, ","))
			h.mails()
			got := h.tour("cup").Rounds[0].Matches[first.Table-1]
			if !got.Corrected || fmt.Sprint(got.Rank) != "["+strings.Join(places, " ")+"]" {
				t.Fatalf("the correction reads %+v", got)
			}
			was := h.tour("cup")
			h.restart()
			if back := h.tour("cup"); !reflect.DeepEqual(back, was) {
				t.Fatal("after a restart the tournament reads otherwise")
			}
			last := games[len(games)-1]
			h.org("ADJUDICATE " + last.GameID)
			h.mails()
			if _, left := h.tourStored("cup"); left != 0 {
				t.Fatalf("the round closed with %d match records left", left)
			}
			tr := h.tour("cup")
			if len(tr.Rounds) != 2 || !tr.Rounds[0].Complete() {
				t.Fatalf("after the round's last game: %d rounds", len(tr.Rounds))
			}
			if !reflect.DeepEqual(tr.Rounds[0].Matches[first.Table-1], got) {
				t.Fatalf("the fold lost the correction: %+v", tr.Rounds[0].Matches[first.Table-1])
			}
			if err := tournament.Replay(tr); err != nil {
				t.Fatalf("the draws do not replay: %v", err)
			}
		})
	}
}

// TestTournamentOpeningBatchesWriteMatchRecords (issue 24: each middle
// batch of a 5,000-game START rewrote the whole record): through the core
// and its store, a batch after the first writes its games' matches as
// match records and leaves the whole record as the first batch wrote it;
// a stop after any batch leaves exactly the games of the batches
// committed in them; the batch that ends the opening writes the whole
// record, which holds every game, and no match record is left. Swiss and
// tables, even and odd fields, batches of 1 and 2 games.
func TestTournamentOpeningBatchesWriteMatchRecords(t *testing.T) {
	for _, format := range []string{"swiss", "tables"} {
		for _, n := range []int{10, 13} {
			for _, batch := range []int{1, 2} {
				for after := 2; ; after++ {
					var more bool
					t.Run(fmt.Sprintf("%s/%d/%d/after%d", format, n, batch, after), func(t *testing.T) {
						more = batchRecords(t, format, n, batch, after)
					})
					if !more {
						break
					}
				}
			}
		}
	}
}

// batchRecords: START stops after batch "after" committed; reports false
// when the opening has no more batch than that (nothing checked).
func batchRecords(t *testing.T, format string, n, batch, after int) bool {
	h := newHarness(t)
	h.r.openBatch = batch
	text := fmt.Sprintf("NEW TOURNAMENT cup game=toy format=%s rounds=3\n", format)
	for i := range n {
		text += fmt.Sprintf("ENTER cup p%d@p.test P%d\n", i, i)
	}
	h.org(text)
	h.mails()
	opened := 0
	var first []byte
	h.r.openGameHook = func(string) error {
		if opened == batch {
			first, _ = h.tourStored("cup")
		}
		if opened++; opened == after*batch+1 {
			panic(errCrash{})
		}
		return nil
	}
	if !crashing(func() { h.org("START cup") }) {
		return false
	}
	h.r.openGameHook = nil
	h.restart()
	whole, matches := h.tourStored("cup")
	if !bytes.Equal(whole, first) || matches != (after-1)*batch {
		t.Fatalf("after batch %d: the whole record rewritten %v, %d match records (want %d)",
			after, !bytes.Equal(whole, first), matches, (after-1)*batch)
	}
	games := 0
	for _, m := range h.tour("cup").Rounds[0].Matches {
		if m.GameID != "" {
			games++
		}
	}
	if games != after*batch {
		t.Fatalf("after batch %d: %d games read, want %d", after, games, after*batch)
	}
	h.tick()
	whole, matches = h.tourStored("cup")
	tr := h.tour("cup")
	if bytes.Equal(whole, first) || matches != 0 || tr.Opening {
		t.Fatalf("opened: whole record written %v, %d match records, opening %v", !bytes.Equal(whole, first), matches, tr.Opening)
	}
	for _, m := range tr.Rounds[0].Matches {
		if m.GameID == "" && m.State != tournament.MatchBye {
			t.Fatalf("match at table %d without its game", m.Table)
		}
	}
	return true
}
