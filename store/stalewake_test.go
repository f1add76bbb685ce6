package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// wakeModel is the reference of the wake-up keys: each game's wake-up
// (live) and the keys a change left behind (stale), as SetWake states
// them.
type wakeModel struct {
	live  map[string]time.Time
	stale map[string]bool // wake keys (8-byte time + game)
}

func wakeModelKey(game string, at time.Time) string {
	return string(append(u64(uint64(max(0, at.UnixNano()))), game...))
}

// set is SetWake's rule: the old key stays, stale unless it is the new one.
func (m *wakeModel) set(game string, at time.Time) {
	if !at.IsZero() && at.Before(time.Unix(0, 0)) {
		at = time.Unix(0, 0)
	}
	old, had := m.live[game]
	if had && old.Equal(at) {
		return
	}
	if had {
		m.stale[wakeModelKey(game, old)] = true
	}
	delete(m.live, game)
	if !at.IsZero() {
		m.live[game] = at
		delete(m.stale, wakeModelKey(game, at))
	}
}

// keys returns every key "wake" must hold, in order, and which are live.
func (m *wakeModel) keys() (keys []string, live map[string]bool) {
	live = map[string]bool{}
	for g, at := range m.live {
		k := wakeModelKey(g, at)
		keys, live[k] = append(keys, k), true
	}
	for k := range m.stale {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, live
}

// A change of a game's wake-up leaves its old key in "wake" for the tick
// to drop (2026-12-07, issue 25: the delete wrote a leaf of wake and its
// branches, ~0.9 page a move); nothing is woken wrongly or lost for it.
// Against a reference (wakeModel), generated sequences of: moves that set
// a game's wake-up later, earlier, to a time it had before, to the same
// time, before 1970 or to none (by an update and by a speculation, some
// rolled back); ticks at a later now that find the games due, set their
// next wake-ups and drop the stale keys (some rolled back); and crashes
// (the store as last committed, opened again). After each step: every
// game's Wake, the keys in "wake" exactly the live and stale ones,
// DueWakes at every key's time and past the last the live games in
// order, NextWake the first live time unless more than StaleSkip stale
// keys come first (then the next key's), StaleWakes their count; after a
// tick no stale key at or before its now.
func TestStaleWakeKeysLeftForTheTick_Issue25(t *testing.T) {
	for _, c := range []struct{ games, ticks int }{{1, 5}, {3, 5}, {40, 5}, {300, 5}, {40, 0}, {300, 0}} {
		games := c.games
		t.Run(fmt.Sprintf("%d games, ticks %d in 20", games, c.ticks), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(25, uint64(games*c.ticks)))
			dir := t.TempDir()
			path := filepath.Join(dir, "0.db")
			db, err := Open(path, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { db.Close() }()
			m := &wakeModel{live: map[string]time.Time{}, stale: map[string]bool{}}
			now := t0
			past := map[string][]time.Time{}
			at := func(g string) time.Time {
				switch r := rng.IntN(20); {
				case r == 0:
					return time.Time{}
				case r == 1:
					return time.Unix(-int64(rng.IntN(1e6)), 0)
				case r < 5 && len(past[g]) > 0:
					return past[g][rng.IntN(len(past[g]))]
				case r < 7:
					return m.live[g] // the same (or none)
				case r < 10:
					return now.Add(-time.Duration(rng.IntN(3600)) * time.Second)
				}
				return now.Add(time.Duration(rng.IntN(3*86400)) * time.Second)
			}
			errRollback := errors.New("rolled back")
			ticks, crashes, dropped, skipped := 0, 0, 0, 0
			steps := 1200
			if c.ticks == 0 {
				steps = 700 // the stale keys pile up: fewer, longer checks
			}
			if raceEnabled {
				steps /= 4
			}
			for step := range steps {
				opened := false
				switch r := rng.IntN(20); {
				case r < 19-c.ticks: // a move
					g := fmt.Sprintf("g%d", rng.IntN(games))
					next := at(g)
					back := rng.IntN(10) == 0
					move := func(tx *Tx) error {
						if _, err := tx.AppendLog(g, []byte(`{"m":1}`)); err != nil {
							return err
						}
						if err := tx.SetWake(g, next); err != nil {
							return err
						}
						if back {
							return errRollback
						}
						return nil
					}
					err = updateOrSpeculate(db, step, move)
					if back != errors.Is(err, errRollback) || (!back && err != nil) {
						t.Fatalf("step %d: move: %v", step, err)
					}
					if !back {
						m.set(g, next)
						if !next.IsZero() {
							past[g] = append(past[g], next)
						}
					}
				case r < 19: // a tick
					now = now.Add(time.Duration(rng.IntN(6*3600)) * time.Second)
					back := rng.IntN(8) == 0
					var want []string
					for g, w := range m.live {
						if !w.After(now) {
							want = append(want, g)
						}
					}
					slices.SortFunc(want, func(a, b string) int {
						return cmp.Or(m.live[a].Compare(m.live[b]), cmp.Compare(a, b))
					})
					nexts := map[string]time.Time{}
					n := 0
					err := db.Update(func(tx *Tx) error {
						due := tx.DueWakes(now, 0)
						if !slices.Equal(due, want) {
							t.Errorf("step %d: due at %v: %v, want %v", step, now, due, want)
						}
						for _, g := range due {
							nexts[g] = at(g)
							if err := tx.SetWake(g, nexts[g]); err != nil {
								return err
							}
						}
						var err error
						if n, err = tx.DropStaleWakes(now); err != nil {
							return err
						}
						if k := tx.StaleWakes(now, 0); k != 0 {
							t.Errorf("step %d: %d stale keys due after the drop", step, k)
						}
						if back {
							return errRollback
						}
						return nil
					})
					if back != errors.Is(err, errRollback) || (!back && err != nil) {
						t.Fatalf("step %d: tick: %v", step, err)
					}
					if !back {
						ticks++
						for _, g := range want {
							m.set(g, nexts[g])
						}
						k := 0
						for key := range m.stale {
							if !time.Unix(0, int64(bytesTime(key))).After(now) {
								delete(m.stale, key)
								k++
							}
						}
						if n > k { // a "wake" of one leaf deleted some at once
							t.Errorf("step %d: the tick dropped %d stale keys, %d were left", step, n, k)
						}
						dropped += n
					}
				default: // a crash: the store as last committed, opened again
					crashes++
					opened = true
					next := filepath.Join(dir, fmt.Sprintf("%d.db", crashes))
					testkit.CrashCopy(t, next, db.Backup)
					db.Close()
					if db, err = Open(next, &Options{NoSync: true}); err != nil {
						t.Fatal(err)
					}
				}
				if checkWakeModel(t, db, m, fmt.Sprintf("step %d", step), opened) {
					skipped++
				}
			}
			if err := db.Check(); err != nil {
				t.Error(err)
			}
			t.Logf("%d games: %d steps, %d ticks, %d crashes, %d stale keys dropped, %d left", games, steps, ticks, crashes, dropped, len(m.stale))
		})
	}
}

// bytesTime is the time of a key of "wake" (unix nanoseconds).
func bytesTime(key string) uint64 { return binary.BigEndian.Uint64([]byte(key[:8])) }

// checkWakeModel compares the store's wake-ups with the reference, and
// the set of stale keys kept in memory with them (none yet when the store
// was just opened); it reports whether more than StaleSkip stale keys
// came first.
func checkWakeModel(t *testing.T, db *DB, m *wakeModel, when string, opened bool) (past bool) {
	t.Helper()
	keys, live := m.keys()
	order := []string{}
	for _, k := range keys {
		if live[k] {
			order = append(order, k[8:])
		}
	}
	db.View(func(tx *Tx) error {
		for g, w := range m.live {
			if got := tx.Wake(g); !got.Equal(w) {
				t.Errorf("%s: %s wakes at %v, want %v", when, g, got, w)
			}
		}
		var got []string
		tx.bucket(bWake).ForEach(func(k, _ []byte) error {
			if k[0] != wakeByPrefix {
				got = append(got, string(k))
			}
			return nil
		})
		// The live keys all there, the others stale ones (a "wake" of
		// one leaf deletes them at once: SetWake).
		for k := range live {
			if _, ok := slices.BinarySearch(got, k); !ok {
				t.Fatalf("%s: the live key of %s at %d lost", when, k[8:], bytesTime(k))
			}
		}
		for _, k := range got {
			if !live[k] && !m.stale[k] {
				t.Fatalf("%s: key of %s at %d neither live nor stale", when, k[8:], bytesTime(k))
			}
		}
		for k := range m.stale {
			if _, ok := slices.BinarySearch(got, k); !ok {
				delete(m.stale, k) // deleted at once
			}
		}
		keys = got
		// The set kept in memory (wakeset.go): none after an Open (a
		// crash), built by the first question, then of this very state
		// and holding exactly the stale keys: the tick's questions read
		// none.
		db.stale.Lock()
		built := db.stale.keys != nil
		db.stale.Unlock()
		if opened && built {
			t.Fatalf("%s: the stale set built at Open", when)
		}
		tx.NextWake()
		db.stale.Lock()
		at, set := db.stale.at, maps.Clone(db.stale.keys)
		db.stale.Unlock()
		if at != uint64(tx.tx.ID()) {
			t.Fatalf("%s: the stale set is of transaction %d, the store at %d", when, at, tx.tx.ID())
		}
		for _, k := range got {
			if _, ok := set[k]; ok == live[k] {
				t.Fatalf("%s: key of %s at %d: in the stale set %v, live %v", when, k[8:], bytesTime(k), ok, live[k])
			}
		}
		if len(set) != len(got)-len(live) {
			t.Fatalf("%s: %d keys in the stale set, %d stale keys", when, len(set), len(got)-len(live))
		}
		// Due at each key's time, and after the last: the live ones up
		// to it, in order; the stale ones counted.
		stale, stride := 0, max(1, len(keys)/16)
		for i, k := range keys {
			end := time.Unix(0, int64(bytesTime(k)))
			if i+1 < len(keys) && bytesTime(keys[i+1]) == bytesTime(k) {
				if !live[k] {
					stale++
				}
				continue
			}
			if !live[k] {
				stale++
			}
			if i%stride != 0 {
				continue
			}
			var want []string
			for _, k2 := range keys[:i+1] {
				if live[k2] {
					want = append(want, k2[8:])
				}
			}
			if due := tx.DueWakes(end, 0); !slices.Equal(due, want) {
				t.Fatalf("%s: due at %v: %v, want %v", when, end, due, want)
			}
			if n := tx.StaleWakes(end, 0); n != stale {
				t.Fatalf("%s: %d stale keys at %v, want %d", when, n, end, stale)
			}
		}
		if due := tx.DueWakes(time.Unix(0, 1<<62), 0); !slices.Equal(due, order) {
			t.Fatalf("%s: due in the end: %v, want %v", when, due, order)
		}
		next, ok := tx.NextWake()
		skipped, want := 0, ""
		for _, k := range keys {
			if live[k] || skipped == StaleSkip {
				want = k
				break
			}
			skipped++
		}
		past = skipped == StaleSkip
		if ok != (want != "") || (ok && next.UnixNano() != int64(bytesTime(want))) {
			t.Errorf("%s: next wake-up %v %v, want the key %q", when, next, ok, want)
		}
		return nil
	})
	return past
}

// NextWake looks past StaleSkip stale keys at most, then returns the next
// key's time; the tick's drop then finds the live one (issue 25).
// Variation: one game moved 600 times, each later, in a "wake" of 40
// games' keys (a tree: the old keys left).
func TestNextWakeLooksPastStaleSkip_Issue25(t *testing.T) {
	db := open(t)
	sec := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	setWakes(t, db, 40, "game-%03d", func(j int) time.Time { return sec(1e6 + j) })
	for i := 1; i <= 600; i++ {
		if err := db.Update(func(tx *Tx) error { return tx.SetWake("game-000", sec(i)) }); err != nil {
			t.Fatal(err)
		}
	}
	next := func() time.Time {
		var at time.Time
		db.View(func(tx *Tx) error { at, _ = tx.NextWake(); return nil })
		return at
	}
	if got := next(); !got.Equal(sec(StaleSkip + 1)) {
		t.Errorf("NextWake past 599 stale keys: %v, want %v", got, sec(StaleSkip+1))
	}
	var n int
	if err := db.Update(func(tx *Tx) (err error) { n, err = tx.DropStaleWakes(sec(1000)); return err }); err != nil || n != 599 {
		t.Fatalf("dropped %d stale keys (%v), want 599", n, err)
	}
	if got := next(); !got.Equal(sec(600)) {
		t.Errorf("NextWake after the drop: %v, want %v", got, sec(600))
	}
}

// A "wake" of one leaf deletes a changed wake-up's old key at once (it is
// in the leaf the new key writes; stale keys would make the bucket a tree,
// a branch more a move): a small store keeps no stale key. Variation: 1-8
// games, 200 moves each to a later, an earlier or no time.
func TestSmallWakeKeepsNoStaleKeys_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 14))
	for _, games := range []int{1, 2, 8} {
		db := open(t)
		for m := range 200 * games {
			g := fmt.Sprintf("g%d", rng.IntN(games))
			at := t0.Add(time.Duration(rng.IntN(1e6)-1e5) * time.Second)
			if rng.IntN(8) == 0 {
				at = time.Time{}
			}
			if err := updateOrSpeculate(db, m, func(tx *Tx) error { return tx.SetWake(g, at) }); err != nil {
				t.Fatal(err)
			}
		}
		db.View(func(tx *Tx) error {
			if n := tx.StaleWakes(t0.Add(1e7*time.Second), 0); n != 0 {
				t.Errorf("%d games: %d stale keys in a wake of one leaf", games, n)
			}
			return nil
		})
	}
}
