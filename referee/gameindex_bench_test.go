package referee

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/store"
)

// BenchmarkListsAtScale (issue 25: indexes): the lists and counts that
// name many games, in a store of 10,000 and 100,000 games (copies of one
// running Brew Crafters game of two seats, 1,000 players, 50 organisers,
// a few games open): a seat's or player's LIST of open games, the
// organiser's LIST, a bounce alert's search for an address's games, and
// the counts every metrics scrape reads.
func BenchmarkListsAtScale(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			if testing.Short() && n > 10000 {
				b.Skip("-short")
			}
			h := newHarness(b)
			h.org("NEW brewcrafters id=tmpl deadline=none\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
			h.send("tmpl", ann, "JOIN", -1)
			h.send("tmpl", bob, "JOIN", -1)
			tmpl := h.game("tmpl")
			for lo := 0; lo < n; lo += 5000 {
				err := h.db.Update(func(tx *store.Tx) error {
					for i := lo; i < min(n, lo+5000); i++ {
						g := *tmpl
						g.ID = fmt.Sprintf("s%06d", i)
						g.Organiser = fmt.Sprintf("org%d@example.test", i%50)
						g.Seats = append([]Seat(nil), tmpl.Seats...)
						g.Seats[0].Address = fmt.Sprintf("p%d@example.test", i%1000)
						g.Seats[1].Address = fmt.Sprintf("p%d@example.test", (i+1)%1000)
						switch {
						case i%100 == 0:
							g.Status, g.Open, g.Players = StatusForming, true, 3
						case i%10 < 4:
							g.Status = StatusOver
						}
						if err := saveGame(tx, &g); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			read := func(b *testing.B, fn func(w *work) error) {
				b.ReportAllocs()
				for b.Loop() {
					err := h.db.View(func(tx *store.Tx) error { return fn(h.r.newWork(tx, h.clock.Now())) })
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.Run("list-open", func(b *testing.B) {
				read(b, func(w *work) error { _, err := playerWork{w}.listOpen("en"); return err })
			})
			b.Run("org-list", func(b *testing.B) {
				read(b, func(w *work) error {
					_, _, _, err := orgHostOf(w).List("org7@example.test", "", organise.ListPage)
					return err
				})
			})
			b.Run("bounce-games", func(b *testing.B) {
				read(b, func(w *work) error {
					err := w.alertBounce("p7@example.test", "550")
					if len(w.games) == 0 {
						return fmt.Errorf("%d games of p7", len(w.games))
					}
					return err
				})
			})
			b.Run("counts", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c, err := h.r.Counts(OutboxQueue)
					if err != nil || c.Games[StatusRunning] < n/2 {
						b.Fatal(c.Games, err)
					}
				}
			})
		})
	}
}
