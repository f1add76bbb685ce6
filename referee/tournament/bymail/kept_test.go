package bymail

import (
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
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
	back, err := loadTour(h.rec, "cup")
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
	if h2.kept.tours != nil {
		t.Fatal("a tournament only read was kept")
	}
}
