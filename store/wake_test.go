package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// A move that leaves its game's wake-up where it was writes nothing of
// wake (issue 25: a delete and a put of the same keys still wrote their
// leaves and the branches above them, two leaves of wake a move at
// scale); one that changes it moves it. Variation: stores of 1-600
// games' wake-ups, times before 1970, at 1970, now and far ahead, the
// zero time (none before and none now), each game set again to its own
// time and then to another.
func TestSetWakeUnchangedWritesNothing_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 6))
	times := []time.Time{time.Unix(-5, 0), time.Unix(0, 0), t0, t0.Add(time.Nanosecond), t0.Add(400 * 24 * time.Hour)}
	for _, games := range []int{1, 7, 90, 600} {
		db := open(t)
		page := int64(db.PageSize())
		at := map[string]time.Time{}
		if err := db.Update(func(tx *Tx) error {
			for k := 0; k < games; k++ {
				id := fmt.Sprintf("g%d", k)
				if k%5 == 4 {
					continue // no wake-up
				}
				at[id] = times[rng.IntN(len(times))].Add(time.Duration(rng.IntN(1e6)) * time.Second)
				if err := tx.SetWake(id, at[id]); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < min(games, 40); k++ {
			id := fmt.Sprintf("g%d", rng.IntN(games))
			// A commit that changed nothing writes its meta page only.
			ws0 := db.WriteStats()
			if err := db.Update(func(tx *Tx) error { return tx.SetWake(id, at[id]) }); err != nil {
				t.Fatal(err)
			}
			if ws := db.WriteStats().Sub(ws0); ws.DiskBytes != page {
				t.Fatalf("%d games: %s set again to %v wrote %d bytes", games, id, at[id], ws.DiskBytes)
			}
			// Changed: moved, and wake written.
			next := at[id].Add(time.Minute)
			if at[id].IsZero() {
				next = t0
			}
			ws0 = db.WriteStats()
			if err := db.Update(func(tx *Tx) error { return tx.SetWake(id, next) }); err != nil {
				t.Fatal(err)
			}
			if ws := db.WriteStats().Sub(ws0); ws.DiskBytes <= page {
				t.Fatalf("%d games: %s moved to %v wrote %d bytes", games, id, next, ws.DiskBytes)
			}
			at[id] = next
		}
		db.View(func(tx *Tx) error {
			for id, want := range at {
				if got := tx.Wake(id); !got.Equal(want) && !(want.Before(time.Unix(0, 0)) && got.Equal(time.Unix(0, 0))) {
					t.Errorf("%d games: %s wakes at %v, want %v", games, id, got, want)
				}
			}
			return nil
		})
	}
}

// The older form of a wake-up key (0xFF + the game in "wake") is read
// only by a store that held some at its open (2026-12-07, issue 25: a
// game without a wake-up read it at every miss): a key of that form
// written after an open that found none is not read, and the same store
// opened again reads it. Variation: games with and without wake-ups
// beside their logs, a few keys of the older form.
func TestOldWakeFormReadOnlyWhenOpenedWithIt_Issue25(t *testing.T) {
	path := filepath.Join(t.TempDir(), "referee.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]time.Time{}
	if err := db.Update(func(tx *Tx) error {
		for j := range 60 {
			id := fmt.Sprintf("g%d", j)
			if _, err := tx.AppendLog(id, []byte(`{"x":1}`)); err != nil {
				return err
			}
			if j%3 == 0 {
				at[id] = t0.Add(time.Duration(j) * time.Minute)
				if err := tx.SetWake(id, at[id]); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	old := map[string]time.Time{}
	db.Update(func(tx *Tx) error {
		for j := 1; j < 60; j += 3 {
			id := fmt.Sprintf("g%d", j)
			old[id] = t0.Add(time.Duration(100+j) * time.Minute)
			k := append(u64(uint64(old[id].UnixNano())), id...)
			tx.bucket(bWake).Put(k, nil)
			tx.bucket(bWake).Put(wakeByKey(id), k)
		}
		return nil
	})
	read := func(when string, want func(id string) time.Time) {
		t.Helper()
		db.View(func(tx *Tx) error {
			for j := range 60 {
				id := fmt.Sprintf("g%d", j)
				if got := tx.Wake(id); !got.Equal(want(id)) {
					t.Errorf("%s: %s wakes at %v, want %v", when, id, got, want(id))
				}
			}
			return nil
		})
	}
	read("the open found none", func(id string) time.Time { return at[id] })
	db.Close()
	if db, err = Open(path, &Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	read("the open found some", func(id string) time.Time {
		if w, ok := old[id]; ok {
			return w
		}
		return at[id]
	})
}
