package referee

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// TestBounceAlertDecodesOnlyGamesAlerted_Issue25: a failed delivery tells
// the organiser of every running or forming game of the address, and
// reads the status of the address's other games (over, paused, aborted)
// from the store's index: their records are never decoded (here they are
// made unreadable, so a decode fails the alert). Generated: 30 stores of
// 5-40 games of the address in random statuses and organisers, the
// address written in its seat in random case, seated first or second.
func TestBounceAlertDecodesOnlyGamesAlerted_Issue25(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 7))
	statuses := []string{StatusRunning, StatusForming, StatusOver, StatusPaused, StatusAborted}
	for iter := 0; iter < 30; iter++ {
		h := newHarness(t)
		h.newToyGame("tmpl", ann, bob)
		h.mails()
		tmpl := h.game("tmpl")
		want := map[string]string{} // game -> its organiser, the games alerted
		kept := map[string][]byte{} // the records made unreadable, put back at the end
		n := 5 + r.IntN(36)
		err := h.db.Update(func(tx *store.Tx) error {
			for i := 0; i < n; i++ {
				g := *tmpl
				g.ID = fmt.Sprintf("b%03d", i)
				g.Status = statuses[r.IntN(len(statuses))]
				g.Organiser = fmt.Sprintf("org%d@example.test", r.IntN(4))
				g.Seats = append([]Seat(nil), tmpl.Seats...)
				g.Seats[0].Address = fmt.Sprintf("x%d@example.test", i)
				g.Seats[1].Address = fmt.Sprintf("y%d@example.test", i)
				addr := bob
				if r.IntN(2) == 0 {
					addr = strings.ToUpper(bob[:1]) + bob[1:]
				}
				g.Seats[r.IntN(2)].Address = addr
				if err := saveGame(tx, &g); err != nil {
					return err
				}
				if g.Status == StatusRunning || g.Status == StatusForming {
					want[g.ID] = g.Organiser
					continue
				}
				raw, err := tx.Game(g.ID)
				if err != nil {
					return err
				}
				kept[g.ID] = raw
				if err := tx.PutGame(g.ID, []byte("not a game record")); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.r.DeliveryFailed(bob, "550 5.1.1 no such user"); err != nil {
			t.Errorf("iter %d: %v", iter, err)
		}
		got := map[string]string{}
		for _, m := range h.mails() {
			if m.Game != "" && m.Game != "tmpl" && strings.HasPrefix(m.To, "org") {
				if _, twice := got[m.Game]; twice {
					t.Errorf("iter %d: game %s alerted twice", iter, m.Game)
				}
				got[m.Game] = m.To
			}
		}
		delete(want, "tmpl")
		if !maps.Equal(got, want) {
			t.Errorf("iter %d: alerted %v, want %v", iter, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		err = h.db.Update(func(tx *store.Tx) error {
			for id, raw := range kept {
				if err := tx.PutGame(id, raw); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
