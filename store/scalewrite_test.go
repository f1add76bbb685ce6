package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// What a move writes at scale (issue 25): every page a commit wrote is
// found by two readings of the file (PageReading, pagefile.Written: the
// figures of referee bench --pages), and a move writes in each tree it
// touches one leaf (two when it splits, more when it overflows) and at
// most the branches above it, one a level (and the one a split adds). So
// the branch pages a move writes grow with the trees' depth, which the
// number of games sets: the cause of the move's cost at scale. Variation:
// 40 to 1,500 games, records and entries of generated sizes, moves in
// games drawn at random, with and without a mail and a wake-up.
func TestMoveWritesTheDepthOfItsTrees_Issue25(t *testing.T) {
	if testing.Short() {
		t.Skip("builds stores of up to 1,500 games")
	}
	if raceEnabled {
		t.Skip("one goroutine's commits, 28 s under the detector against 6 s: make check runs it without -race (make content)")
	}
	rng := rand.New(rand.NewPCG(25, 7))
	text := func(n int) []byte { return moveText(rng, n) }
	var branches []float64
	for _, games := range []int{40, 300, 1500} {
		db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		recs := map[string][]byte{}
		for k := 0; k < games; k += 100 {
			if err := db.Update(func(tx *Tx) error {
				for j := k; j < min(games, k+100); j++ {
					id := fmt.Sprintf("s%d", j)
					recs[id] = append([]byte(`{"id":"`+id+`","table":[`), text(2000+rng.IntN(6000))...)
					if err := tx.PutGame(id, recs[id]); err != nil {
						return err
					}
					for e := 0; e < 2+rng.IntN(6); e++ {
						if _, err := tx.AppendLog(id, text(100+rng.IntN(500))); err != nil {
							return err
						}
					}
					if err := tx.MarkInbound(InboundRecord{Keys: []string{fmt.Sprintf("join:%s:%d", id, rng.Uint64())}, Game: id, Outcome: "applied"}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		page := int64(db.PageSize())
		moves, sum := 25, 0
		for m := 0; m < moves; m++ {
			id := fmt.Sprintf("s%d", rng.IntN(games))
			before, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			ws0 := db.WriteStats()
			if err := db.Update(func(tx *Tx) error {
				rec := recs[id]
				at := 20 + rng.IntN(len(rec)-40)
				recs[id] = append(append(append([]byte{}, rec[:at]...), text(10+rng.IntN(60))...), rec[at+5:]...)
				if err := tx.PutGame(id, recs[id]); err != nil {
					return err
				}
				if _, err := tx.AppendLog(id, text(100+rng.IntN(500))); err != nil {
					return err
				}
				if err := tx.MarkInbound(InboundRecord{Keys: []string{fmt.Sprintf("move:%s:%d", id, m)}, Game: id, Outcome: "applied"}); err != nil {
					return err
				}
				if m%2 == 0 {
					if _, err := tx.Enqueue("outbox", Item{Key: id, To: "a@example.test", Payload: text(3000)}); err != nil {
						return err
					}
					return tx.SetWake(id, t0.Add(time.Duration(m)*time.Minute))
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			ws := db.WriteStats().Sub(ws0)
			after, err := db.PageReading()
			if err != nil {
				t.Fatal(err)
			}
			written, splits := pagefile.Written(before, after)
			n := 0
			for _, c := range written {
				n += c
			}
			// Every page the commit wrote but its meta page is found.
			if int64(n+1)*page != ws.DiskBytes {
				t.Fatalf("%d games, move %d: %d pages found, the commit wrote %d bytes: %v", games, m, n, ws.DiskBytes, written)
			}
			depth := depths(db)
			for owner, c := range written {
				bucket, kind, _ := strings.Cut(owner, " ")
				if kind != "branch" {
					continue
				}
				if c > depth[bucket]-1+splits[bucket] {
					t.Errorf("%d games, move %d: %d branch pages of %s, %d levels deep, %d leaves added", games, m, c, bucket, depth[bucket], splits[bucket])
				}
				sum += c
			}
		}
		branches = append(branches, float64(sum)/float64(moves))
		if err := db.Check(); err != nil {
			t.Error(err)
		}
		db.Close()
	}
	// The branches a move writes grow with the number of games.
	if !(branches[0] < branches[1] && branches[1] < branches[2]) {
		t.Errorf("branch pages a move at 40, 300, 1,500 games: %.2f", branches)
	}
	t.Logf("branch pages a move at 40, 300, 1,500 games: %.2f", branches)
}

// moveText returns n bytes of generated move-like JSON text.
func moveText(rng *rand.Rand, n int) []byte {
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, `{"seat":%d,"card":"c%d","n":%d},`, rng.IntN(4), rng.IntN(90), rng.IntN(1e6))
	}
	return []byte(b.String()[:n])
}

// depths returns each top-level bucket's depth (levels, a leaf alone 1).
func depths(db *DB) map[string]int {
	out := map[string]int{}
	db.View(func(tx *Tx) error {
		return eachBucket(tx.tx, func(name []byte, b *bolt.Bucket) error {
			out[string(name)] = b.Stats().Depth
			return nil
		})
	})
	return out
}

// A move writes no page of "games" (issue 25, writepath.go: the record
// beside the log): its record's value goes into log.flat, after its
// entries, and "games" is written once a game, at its first put or the
// first put since an older store kept the value there. Variation: 150
// games, records of generated sizes (small ones whole, deltas, records
// rewritten past a page that become snapshots), moves in games drawn at
// random, by an update and by a speculation, half the games in the older
// layout (their values moved back into "games", as main wrote them).
func TestMoveWritesNoGamesTree_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 12))
	text := func(n int) []byte { return moveText(rng, n) }
	db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const games = 150
	recs, logs := map[string][]byte{}, map[string]int{}
	if err := db.Update(func(tx *Tx) error {
		for j := range games {
			id := fmt.Sprintf("g%d", j)
			recs[id] = append([]byte(`{"id":"`+id+`","t":[`), text(rng.IntN(6000))...)
			if err := tx.PutGame(id, recs[id]); err != nil {
				return err
			}
			for range 1 + rng.IntN(4) {
				if _, err := tx.AppendLog(id, text(100+rng.IntN(400))); err != nil {
					return err
				}
				logs[id]++
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The older layout: every other game's value in "games".
	old := map[string]bool{}
	if err := db.bolt.Update(func(btx *bolt.Tx) error {
		g, l := bucketOf(btx, bGames), bucketOf(btx, bLogFlat)
		for j := 0; j < games; j += 2 {
			id := fmt.Sprintf("g%d", j)
			old[id] = true
			v := l.Get(recordKey(id))
			if !isInLog(g.Get([]byte(id))) || v == nil {
				t.Errorf("game %s: its value not beside its log", id)
				continue
			}
			if err := g.Put([]byte(id), bytes.Clone(v)); err != nil {
				return err
			}
			if err := l.Delete(recordKey(id)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	check := func(when, id string) {
		t.Helper()
		db.View(func(tx *Tx) error {
			if got, err := tx.Game(id); err != nil || !bytes.Equal(got, recs[id]) {
				t.Errorf("%s: game %s reads %d bytes of %d (%v)", when, id, len(got), len(recs[id]), err)
			}
			n := 0
			tx.Log(id, 1, func(seq uint64, _ []byte) error { n++; return nil })
			if n != logs[id] || tx.LogLen(id) != uint64(logs[id]) {
				t.Errorf("%s: game %s: %d entries read, length %d, %d appended", when, id, n, tx.LogLen(id), logs[id])
			}
			return nil
		})
	}
	for id := range recs {
		check("before the moves", id)
	}
	moved, gamesWritten, firstMoves := map[string]bool{}, 0, 0
	for m := range 120 {
		id := fmt.Sprintf("g%d", rng.IntN(games))
		rec := recs[id]
		next := append([]byte{}, rec...)
		switch rng.IntN(4) {
		case 0: // rewritten past what a delta holds: a snapshot
			next = append([]byte(`{"id":"`+id+`","t":[`), text(1000+rng.IntN(5000))...)
		default:
			at := min(len(rec), 10+rng.IntN(len(rec)+1))
			next = append(append(append([]byte{}, rec[:at]...), text(5+rng.IntN(80))...), rec[min(len(rec), at+5):]...)
		}
		entry := text(100 + rng.IntN(400))
		move := func(tx *Tx) error {
			if err := tx.PutGame(id, next); err != nil {
				return err
			}
			_, err := tx.AppendLog(id, entry)
			return err
		}
		written, _ := pagesOfMove(t, db, m, move)
		recs[id] = next
		logs[id]++
		n := written["games leaf"] + written["games branch"] + written["games overflow"]
		first := old[id] && !moved[id]
		moved[id] = true
		if first {
			firstMoves++
			if n == 0 {
				t.Errorf("move %d, game %s of the older layout: no page of games written (its value is not moved)", m, id)
			}
		} else if n > 0 {
			t.Errorf("move %d, game %s: %d pages of games written: %v", m, id, n, written)
		}
		gamesWritten += n
		check(fmt.Sprintf("move %d", m), id)
	}
	if firstMoves == 0 || firstMoves == len(moved) {
		t.Fatalf("%d first moves of older games in %d games moved: the test would not fail", firstMoves, len(moved))
	}
	for id := range recs {
		check("after the moves", id)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	t.Logf("%d games moved, %d of the older layout; %d pages of games written", len(moved), firstMoves, gamesWritten)
}

// A game's wake-up key is found beside its log (issue 25, wake.go): a
// change of its wake-up writes in "wake" the new time key's leaf only
// (its old key left for the tick: TestStaleWakeKeysLeftForTheTick_Issue25), and an older store's 0xFF + game entry in "wake" is read,
// then moved by the game's next change. Variation: 200 games, wake-ups
// at generated times, moves that set a later, an earlier, the same or no
// wake-up, by an update and by a speculation, half the games in the older
// form; DueWakes and NextWake checked against the model after each move.
func TestWakeKeptBesideTheLog_Issue25(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 13))
	path := filepath.Join(t.TempDir(), "referee.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	const games = 200
	wakes, logs := map[string]time.Time{}, map[string]int{}
	at := func() time.Time { return t0.Add(time.Duration(rng.IntN(1e6)) * time.Second) }
	if err := db.Update(func(tx *Tx) error {
		for j := range games {
			id := fmt.Sprintf("g%d", j)
			for range 1 + rng.IntN(3) {
				if _, err := tx.AppendLog(id, fmt.Appendf(nil, `{"seat":%d}`, rng.IntN(4))); err != nil {
					return err
				}
				logs[id]++
			}
			if rng.IntN(5) > 0 {
				wakes[id] = at()
				if err := tx.SetWake(id, wakes[id]); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	old := map[string]bool{}
	if err := db.bolt.Update(func(btx *bolt.Tx) error {
		w, l := bucketOf(btx, bWake), bucketOf(btx, bLogFlat)
		for j := 0; j < games; j += 2 {
			id := fmt.Sprintf("g%d", j)
			if _, ok := wakes[id]; !ok {
				continue
			}
			old[id] = true
			k := append([]byte(id), 0, 0xFE) // wake.go
			v := l.Get(k)
			if v == nil {
				t.Errorf("game %s: its wake-up key not beside its log", id)
				continue
			}
			if err := w.Put(wakeByKey(id), bytes.Clone(v)); err != nil {
				return err
			}
			if err := l.Delete(k); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Opened as an older store is (the older form is read only when the
	// open found some: wake.go).
	db.Close()
	if db, err = Open(path, &Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		db.View(func(tx *Tx) error {
			var due []string
			for id, w := range wakes {
				if got := tx.Wake(id); !got.Equal(w) {
					t.Errorf("%s: game %s wakes at %v, want %v", when, id, got, w)
				}
				if !w.After(t0.Add(5e5 * time.Second)) {
					due = append(due, id)
				}
			}
			got := tx.DueWakes(t0.Add(5e5*time.Second), 0)
			if len(got) != len(due) {
				t.Errorf("%s: %d due, want %d", when, len(got), len(due))
			}
			for i := 1; i < len(got); i++ {
				if wakes[got[i]].Before(wakes[got[i-1]]) {
					t.Errorf("%s: due out of order: %s before %s", when, got[i-1], got[i])
				}
			}
			if next, ok := tx.NextWake(); ok && !next.Equal(wakes[got[0]]) {
				t.Errorf("%s: next wake-up %v", when, next)
			}
			for id, n := range logs {
				if tx.LogLen(id) != uint64(n) {
					t.Errorf("%s: game %s: log length %d, %d appended", when, id, tx.LogLen(id), n)
				}
			}
			return nil
		})
	}
	check("before the moves")
	changed := map[string]bool{}
	for m := range 120 {
		id := fmt.Sprintf("g%d", rng.IntN(games))
		next := wakes[id]
		switch rng.IntN(5) {
		case 0:
			next = time.Time{}
		case 1: // unchanged
		default:
			next = at()
		}
		move := func(tx *Tx) error {
			if _, err := tx.AppendLog(id, []byte(`{"move":1}`)); err != nil {
				return err
			}
			return tx.SetWake(id, next)
		}
		written, splits := pagesOfMove(t, db, m, move)
		logs[id]++
		if !next.Equal(wakes[id]) {
			changed[id] = true
		}
		if next.IsZero() {
			delete(wakes, id)
		} else {
			wakes[id] = next
		}
		if n := written["wake leaf"] - splits["wake"]; n > 1 && !old[id] {
			t.Errorf("move %d, game %s: %d leaves of wake written (%d added): %v", m, id, written["wake leaf"], splits["wake"], written)
		}
		check(fmt.Sprintf("move %d", m))
	}
	// A game whose wake-up changed keeps no key in the older form.
	moved := 0
	db.View(func(tx *Tx) error {
		for id := range changed {
			if tx.bucket(bWake).Get(wakeByKey(id)) != nil {
				t.Errorf("game %s: its wake-up changed and is still kept in wake", id)
			}
			if old[id] {
				moved++
			}
		}
		return nil
	})
	if moved == 0 {
		t.Fatal("no game of the older form changed its wake-up: the test would not fail")
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	t.Logf("%d wake-ups changed, %d of the older form", len(changed), moved)
}

// pagesOfMove writes move, through Update when m is even and through
// Speculate and Commit when odd, and returns the pages it wrote and the
// leaves it added (pagefile.Written of the readings before and after).
func pagesOfMove(t *testing.T, db *DB, m int, move func(*Tx) error) (written, splits map[string]int) {
	t.Helper()
	before, err := db.PageReading()
	if err != nil {
		t.Fatal(err)
	}
	if err := updateOrSpeculate(db, m, move); err != nil {
		t.Fatal(err)
	}
	after, err := db.PageReading()
	if err != nil {
		t.Fatal(err)
	}
	return pagefile.Written(before, after)
}

// updateOrSpeculate runs move in an update when m is even, else in a
// speculation committed at once.
func updateOrSpeculate(db *DB, m int, move func(*Tx) error) error {
	if m%2 == 0 {
		return db.Update(move)
	}
	s, err := db.Speculate(move)
	if err == nil {
		err = db.Commit(s, nil)
	}
	return err
}
