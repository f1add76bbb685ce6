package records

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// TestOrganiserGamesPlaceFreshGames_Issue25: an organiser's LIST page
// (OrganiserGames) is the organiser's games, stored or created by a NEW
// of the same mail (fresh, not stored yet), in id order, from the game
// from on, at most page of them; next is the first game past the page
// and more how many are past it. Checked against a sorted list over
// generated mixes: stored and fresh ids interleaved (a fresh id before,
// between and after the stored ones), games of another organiser between
// them, every from (before, on and after each id, and none) and page
// sizes 1 to past the end.
func TestOrganiserGamesPlaceFreshGames_Issue25(t *testing.T) {
	const org, other = "org@example.test", "else@example.test"
	rng := rand.New(rand.NewPCG(25, 7))
	checked := 0
	for round := range 24 {
		db := openStore(t)
		var stored, fresh []*Game
		var want []string // org's ids, sorted
		n := 1 + rng.IntN(12)
		for i := range n {
			g := game(fmt.Sprintf("g%03d", rng.IntN(400)), "")
			if slices.ContainsFunc(append(stored, fresh...), func(h *Game) bool { return h.ID == g.ID }) {
				continue
			}
			g.Status = []string{StatusForming, StatusRunning, StatusOver}[i%3]
			if rng.IntN(5) == 0 {
				g.Organiser = other
			}
			if g.Organiser == org {
				want = append(want, g.ID)
			}
			if round%2 == 1 && rng.IntN(3) == 0 {
				fresh = append(fresh, g)
			} else {
				stored = append(stored, g)
			}
		}
		slices.Sort(want)
		err := db.Update(func(tx *store.Tx) error {
			for _, g := range stored {
				if err := SaveGame(tx, g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		froms := []string{""}
		for _, id := range want {
			froms = append(froms, id, id+"0", id[:len(id)-1])
		}
		rng.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
		for _, from := range froms {
			for page := 1; page <= len(want)+1; page++ {
				var wantPage []string
				for _, id := range want {
					if id >= from {
						wantPage = append(wantPage, id)
					}
				}
				wantNext, wantMore := "", 0
				if len(wantPage) > page {
					wantNext, wantMore = wantPage[page], len(wantPage)-page
					wantPage = wantPage[:page]
				}
				err := db.View(func(tx *store.Tx) error {
					games, next, more, err := OrganiserGames(tx, org, from, page, func(string) *Game { return nil }, fresh)
					var got []string
					for _, g := range games {
						got = append(got, g.ID)
					}
					if !slices.Equal(got, wantPage) || next != wantNext || more != wantMore {
						t.Errorf("round %d, from %q, page %d (fresh %d): %v, next %q, %d more; want %v, next %q, %d more",
							round, from, page, len(fresh), got, next, more, wantPage, wantNext, wantMore)
					}
					checked++
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("%d pages checked", checked)
	}
}

// TestJoinableCountKeptWithTheGames_Issue25: the store's index of the
// games a player may JOIN and its counter (what a seat's LIST pages and
// counts "more" by, without reading every forming game) follow every
// change of a game that makes it joinable or not (opened, closed, a seat
// taken or freed, started, finished, created joinable), in one
// transaction with the change, and are rebuilt whole for a store whose
// indexes were built before them: against a model, over random changes.
func TestJoinableCountKeptWithTheGames_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 11))
	db := openStore(t)
	games := map[string]*Game{}
	check := func(step int) {
		t.Helper()
		var want []string
		for id, g := range games {
			if Joinable(g) {
				want = append(want, id)
			}
		}
		slices.Sort(want)
		err := db.View(func(tx *store.Tx) error {
			var got []string
			err := tx.JoinableGames(func(id string) (bool, error) { got = append(got, id); return true, nil })
			if n := tx.JoinableCount(); n != len(want) || !slices.Equal(got, want) {
				t.Fatalf("step %d: %d joinable games counted, %v listed; want %d: %v", step, n, got, len(want), want)
			}
			for _, page := range []int{1, 3, 20} {
				open, more, err := OpenGames(tx, page)
				if err != nil {
					return err
				}
				if len(open) != min(page, len(want)) || more != max(len(want)-page, 0) {
					t.Fatalf("step %d, page %d: %d open and %d more; want %d joinable", step, page, len(open), more, len(want))
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	changes := []func(g *Game){
		func(g *Game) { g.Open = !g.Open },
		func(g *Game) { g.Seats = g.Seats[:max(len(g.Seats)-1, 0)] },
		func(g *Game) {
			g.Seats = append(g.Seats, Seat{Name: "Cid", Address: "cid@example.test", State: SeatJoined})
		},
		func(g *Game) { g.Status = StatusRunning },
		func(g *Game) { g.Status = StatusForming },
		func(g *Game) { g.Status = StatusOver },
		func(g *Game) { g.Players = 2 + rng.IntN(3) },
	}
	for step := range 300 {
		err := db.Update(func(tx *store.Tx) error {
			for range 1 + rng.IntN(3) {
				id := fmt.Sprintf("g%02d", rng.IntN(30))
				g := games[id]
				if g == nil {
					g = game(id, "")
					g.Status, g.Open, g.Players = StatusForming, rng.IntN(2) == 0, 3
					games[id] = g
				} else {
					changes[rng.IntN(len(changes))](g)
				}
				if err := SaveGame(tx, g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		check(step)
		if step%100 == 99 {
			// Indexes of an older build: rebuilt whole at the next open.
			if err := db.Update(func(tx *store.Tx) error { return tx.ForgetGameIndex() }); err != nil {
				t.Fatal(err)
			}
			if err := EnsureGameIndex(db); err != nil {
				t.Fatal(err)
			}
			check(step)
		}
	}
}
