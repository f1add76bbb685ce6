package records

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store"
)

// TestPlayersLoadAsStored_Issue24: a unit of work's Players.Load returns,
// at every step of generated runs of saves (every field changed, the
// observed games grown, shrunk, emptied, the record deleted and saved
// again by another caller, under addresses in either case) and of
// changes a caller makes to the player it was handed, exactly what
// LoadPlayer returns then: a record decoded once is never returned stale,
// and a caller's change to its copy reaches neither the memo nor the
// store.
func TestPlayersLoadAsStored_Issue24(t *testing.T) {
	db := openStore(t)
	rng := rand.New(rand.NewPCG(24, 5000))
	addrs := []string{"ann@example.test", "Bob@Example.test", "bob@example.test", "cy@example.test"}
	at := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	checked := 0
	err := db.Update(func(tx *store.Tx) error {
		var ps Players
		for step := range 4000 {
			addr := addrs[rng.IntN(len(addrs))]
			switch rng.IntN(4) {
			case 0: // another caller saves a changed record
				p := &Player{Address: addr, Name: fmt.Sprint("P", rng.IntN(5)), Lang: []string{"en", "it", "fr", "nl"}[rng.IntN(4)],
					TZ: []string{"", "Europe/Rome"}[rng.IntN(2)], Secret: fmt.Sprint("s", rng.IntN(3)), Failing: rng.IntN(2) == 0,
					Bounces: rng.IntN(3), Created: at.Add(time.Duration(rng.IntN(3)) * time.Hour), Pending: rng.IntN(2) == 0}
				for range rng.IntN(4) {
					p.Observing = append(p.Observing, fmt.Sprint("g", rng.IntN(4)))
				}
				if rng.IntN(3) == 0 {
					p.Helped = at
				}
				if err := SavePlayer(tx, p); err != nil {
					return err
				}
			default: // a load, compared; the caller then changes its copy
				got, gerr := ps.Load(tx, addr)
				want, werr := LoadPlayer(tx, addr)
				if (gerr == nil) != (werr == nil) {
					t.Fatalf("step %d %s: Load err %v, LoadPlayer err %v", step, addr, gerr, werr)
				}
				if gerr != nil {
					continue
				}
				checked++
				if !reflect.DeepEqual(got, want) {
					t.Errorf("step %d %s: Load\n%+v\nLoadPlayer\n%+v", step, addr, got, want)
				}
				got.Name += "x"
				got.Bounces++
				if len(got.Observing) > 0 {
					got.Observing[0] = "changed"
				}
				got.Observing = append(got.Observing[:min(len(got.Observing), 1)], "more")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 2000 {
		t.Fatalf("only %d loads compared", checked)
	}
}
