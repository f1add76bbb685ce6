package store

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// matchesOf lists a tournament's match records as "round/match=record".
func matchesOf(t *testing.T, tx *Tx, id string) []string {
	t.Helper()
	var out []string
	if err := tx.TournamentMatches(id, func(r, m int, rec []byte) error {
		out = append(out, fmt.Sprintf("%d/%d=%s", r, m, rec))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTournamentMatchRecords (issues 24, 25): a tournament's match records
// are read back in round and match order whatever order they were written
// in, the last write of a match wins, tournaments whose ids share a prefix
// keep their own, and the whole record (PutTournament) folds them: it
// deletes its tournament's, and only its. A store whose bucket was never
// made reads as having none. Generated: random ids, rounds, matches and
// orders of writing.
func TestTournamentMatchRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	for trial := range 20 {
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			db := open(t)
			ids := []string{"t", "t1", "t10", fmt.Sprintf("cup%d", trial)}
			// No bucket yet: none, and a fold writes nothing.
			if err := db.Update(func(tx *Tx) error {
				for _, id := range ids {
					if got := matchesOf(t, tx, id); got != nil {
						t.Fatalf("no bucket: %s has %v", id, got)
					}
				}
				return tx.PutTournament(ids[0], []byte(`{}`))
			}); err != nil {
				t.Fatal(err)
			}
			want := map[string]map[[2]int]string{}
			for range 1 + rng.IntN(60) {
				id := ids[rng.IntN(len(ids))]
				k := [2]int{rng.IntN(12), rng.IntN(300)}
				rec := fmt.Sprintf(`{"w":%d}`, rng.IntN(1000))
				if want[id] == nil {
					want[id] = map[[2]int]string{}
				}
				want[id][k] = rec
				if err := db.Update(func(tx *Tx) error { return tx.PutTournamentMatch(id, k[0], k[1], []byte(rec)) }); err != nil {
					t.Fatal(err)
				}
			}
			expect := func(id string) []string {
				var out []string
				keys := make([][2]int, 0, len(want[id]))
				for k := range want[id] {
					keys = append(keys, k)
				}
				slices.SortFunc(keys, func(a, b [2]int) int {
					if a[0] != b[0] {
						return a[0] - b[0]
					}
					return a[1] - b[1]
				})
				for _, k := range keys {
					out = append(out, fmt.Sprintf("%d/%d=%s", k[0], k[1], want[id][k]))
				}
				return out
			}
			check := func() {
				t.Helper()
				db.View(func(tx *Tx) error {
					for _, id := range ids {
						if got, w := matchesOf(t, tx, id), expect(id); !slices.Equal(got, w) {
							t.Errorf("%s: %v, want %v", id, got, w)
						}
					}
					return nil
				})
			}
			check()
			fold := ids[rng.IntN(len(ids))]
			if err := db.Update(func(tx *Tx) error { return tx.PutTournament(fold, []byte(`{"folded":true}`)) }); err != nil {
				t.Fatal(err)
			}
			delete(want, fold)
			check()
		})
	}
}

// TestTournamentMatchRecordsOldStore: a store written before match records
// existed (no tournaments.matches bucket) opens and reads its tournaments
// as before; the bucket is made by the first match record and is kept
// after a reopen.
func TestTournamentMatchRecordsOldStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutTournament("cup", []byte(`{"id":"cup"}`)) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(func(tx *Tx) error {
		if tx.bucket(bTourMatches) != nil {
			t.Error("opening made the bucket: a schema change")
		}
		if got := matchesOf(t, tx, "cup"); got != nil {
			t.Errorf("old store: %v", got)
		}
		rec, err := tx.Tournament("cup")
		if err != nil || string(rec) != `{"id":"cup"}` {
			t.Errorf("old record: %q %v", rec, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error { return tx.PutTournamentMatch("cup", 0, 3, []byte(`{"m":3}`)) }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if got := matchesOf(t, tx, "cup"); !slices.Equal(got, []string{`0/3={"m":3}`}) {
			t.Errorf("after the first match record: %v", got)
		}
		return nil
	})
	for _, bad := range []struct {
		id   string
		r, m int
		rec  []byte
	}{{"", 0, 0, []byte("x")}, {"cup", -1, 0, []byte("x")}, {"cup", 0, -1, []byte("x")}, {"cup", 0, 0, nil}} {
		if err := db.Update(func(tx *Tx) error { return tx.PutTournamentMatch(bad.id, bad.r, bad.m, bad.rec) }); err == nil {
			t.Errorf("PutTournamentMatch(%q, %d, %d, %q) accepted", bad.id, bad.r, bad.m, bad.rec)
		}
	}
}

// matchesFor writes n match records of each of ids (one round), committed.
func matchesFor(tb testing.TB, db *DB, n int, ids ...string) {
	tb.Helper()
	if err := db.Update(func(tx *Tx) error {
		for m := range n {
			for _, id := range ids {
				if err := tx.PutTournamentMatch(id, 0, m, []byte(fmt.Sprintf(`{"m":%d,"pad":"%040d"}`, m, m))); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
}

// TestFoldOfManyLeaves_Issue24: a fold of a tournament whose match records
// fill many leaves (a round of 5,000 games adjudicated, then the first
// batch of the next round writing the whole record) deletes every one of
// its records, in the transaction that writes its record, and none of its
// neighbours' (ids that share a prefix, before and after it).
func TestFoldOfManyLeaves_Issue24(t *testing.T) {
	for _, n := range []int{1, 37, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			db := open(t)
			matchesFor(t, db, n, "c", "cup", "cup1")
			if err := db.Update(func(tx *Tx) error { return tx.PutTournament("cup", []byte(`{}`)) }); err != nil {
				t.Fatal(err)
			}
			db.View(func(tx *Tx) error {
				for id, want := range map[string]int{"c": n, "cup": 0, "cup1": n} {
					if got := len(matchesOf(t, tx, id)); got != want {
						t.Errorf("%s: %d match records after the fold of cup, want %d", id, got, want)
					}
				}
				return nil
			})
		})
	}
}

// BenchmarkFoldTournamentMatches_Issue24 measures the fold of 5,000 match
// records (the first batch of round 2 of 5,000 games, PutTournament).
// Run: go test -run '^$' -bench FoldTournamentMatches ./store/
func BenchmarkFoldTournamentMatches_Issue24(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := open(b)
		matchesFor(b, db, 5000, "cup")
		b.StartTimer()
		if err := db.Update(func(tx *Tx) error { return tx.PutTournament("cup", []byte(`{}`)) }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLowerASCIIOnlyASCIILetters: lowerASCII lower-cases the letters A-Z
// and nothing else (an address's other bytes, UTF-8 among them, kept),
// whether or not the string needed a change (issue 24: it returns a
// string already in lower case as it is). Generated: random strings of
// ASCII letters, digits, '@', '.', and multi-byte runes.
func TestLowerASCIIOnlyASCIILetters(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	alphabet := []rune("aZbYz@.09AÉé ß")
	for range 5000 {
		r := make([]rune, rng.IntN(12))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		s := string(r)
		want := []byte(s)
		for i, c := range want {
			if c >= 'A' && c <= 'Z' {
				want[i] = c + 32
			}
		}
		if got := lowerASCII(s); got != string(want) {
			t.Fatalf("lowerASCII(%q) = %q, want %q", s, got, want)
		}
	}
}
