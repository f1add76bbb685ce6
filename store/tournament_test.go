package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

func TestTournamentBuckets(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *Tx) error {
		if _, err := tx.Tournament("t1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing tournament: %v", err)
		}
		if err := tx.PutTournament("t1", []byte(`{"id":"t1"}`)); err != nil {
			return err
		}
		if err := tx.SetGameTournament("g7", "t1"); err != nil {
			return err
		}
		for _, k := range [][2]string{{"dicebrewing", "A@x"}, {"dicebrewing", "b@x"}, {"fromage", "a@x"}} {
			if err := tx.PutRating(k[0], k[1], []byte(k[0]+k[1])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		if !tx.HasTournament("t1") || tx.GameTournament("g7") != "t1" || tx.GameTournament("g8") != "" {
			t.Error("tournament records lost")
		}
		if v, err := tx.Rating("dicebrewing", "a@X"); err != nil || string(v) != "dicebrewingA@x" {
			t.Errorf("rating: %q %v", v, err)
		}
		n := 0
		tx.Ratings("dicebrewing", func(g, a string, _ []byte) error { n++; return nil })
		if n != 2 {
			t.Errorf("%d dicebrewing ratings, want 2", n)
		}
		n = 0
		tx.Ratings("", func(g, a string, _ []byte) error { n++; return nil })
		if n != 3 {
			t.Errorf("%d ratings, want 3", n)
		}
		return nil
	})
}

// TestDecodedTournamentKeptForItsRecordOnly (issue 24: the batches of a
// round opening decode their tournament once): a decoded tournament kept
// by a committed transaction is taken once, and only while its record is
// the one that transaction wrote and its match records are the ones
// there were at the keeping (written by that transaction or none); a
// transaction that rolls back keeps nothing.
func TestDecodedTournamentKeptForItsRecordOnly(t *testing.T) {
	for _, size := range []int{10, 100000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			db, err := Open(filepath.Join(t.TempDir(), "d.db"), &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rec := func(n int) []byte { return fmt.Appendf(nil, `{"n":%d,"pad":%q}`, n, make([]byte, size)) }
			write := func(n int, v any) error {
				return db.Update(func(tx *Tx) error {
					raw := rec(n)
					if err := tx.PutTournament("cup", raw); err != nil {
						return err
					}
					return tx.KeepDecodedTournament("cup", raw, v)
				})
			}
			take := func() (v any, ok bool) {
				db.View(func(tx *Tx) error { v, ok = tx.TakeDecodedTournament("cup"); return nil })
				return v, ok
			}
			if err := write(1, "one"); err != nil {
				t.Fatal(err)
			}
			if v, ok := take(); !ok || v != "one" {
				t.Fatalf("kept: %v %v", v, ok)
			}
			if _, ok := take(); ok {
				t.Fatal("taken twice")
			}
			// Rolled back: nothing kept.
			boom := errors.New("boom")
			if err := db.Update(func(tx *Tx) error {
				raw := rec(2)
				if err := tx.PutTournament("cup", raw); err != nil {
					return err
				}
				if err := tx.KeepDecodedTournament("cup", raw, "two"); err != nil {
					return err
				}
				return boom
			}); !errors.Is(err, boom) {
				t.Fatal(err)
			}
			if _, ok := take(); ok {
				t.Fatal("a rolled-back transaction kept its tournament")
			}
			// The record written again by someone else: not the one kept.
			if err := write(3, "three"); err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *Tx) error { return tx.PutTournament("cup", rec(4)) }); err != nil {
				t.Fatal(err)
			}
			if _, ok := take(); ok {
				t.Fatal("kept for a record since replaced")
			}
			// A match record since: not the tournament kept.
			if err := write(5, "five"); err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *Tx) error { return tx.PutTournamentMatch("cup", 0, 1, []byte(`{}`)) }); err != nil {
				t.Fatal(err)
			}
			if _, ok := take(); ok {
				t.Fatal("kept though a match record came since")
			}
			if err := db.Update(func(tx *Tx) error { return tx.PutTournamentMatch("cupa", 0, 1, []byte(`{}`)) }); err != nil {
				t.Fatal(err)
			}
			if err := write(6, "six"); err != nil {
				t.Fatal(err)
			}
			if v, ok := take(); !ok || v != "six" {
				t.Fatalf("another tournament's match records hid this one's: %v %v", v, ok)
			}
			// Kept by a transaction that wrote match records and left the
			// whole record as it was (a batch of a round opening): taken
			// while those are the match records, not once one changed, was
			// added or was folded into a whole record.
			keepMatches := func(v any, recs ...int) {
				t.Helper()
				if err := db.Update(func(tx *Tx) error {
					for _, k := range recs {
						if err := tx.PutTournamentMatch("cup", 0, k, fmt.Appendf(nil, `{"k":%d}`, k)); err != nil {
							return err
						}
					}
					raw, err := tx.Tournament("cup")
					if err != nil {
						return err
					}
					return tx.KeepDecodedTournament("cup", raw, v)
				}); err != nil {
					t.Fatal(err)
				}
			}
			keepMatches("seven", 1, 2)
			keepMatches("eight", 3)
			if v, ok := take(); !ok || v != "eight" {
				t.Fatalf("kept with its match records: %v %v", v, ok)
			}
			for i, change := range []func(tx *Tx) error{
				func(tx *Tx) error { return tx.PutTournamentMatch("cup", 0, 2, []byte(`{"k":22}`)) },
				func(tx *Tx) error { return tx.PutTournamentMatch("cup", 0, 4, []byte(`{"k":4}`)) },
				func(tx *Tx) error { return tx.PutTournamentMatch("cup", 1, 0, []byte(`{"k":1}`)) },
				func(tx *Tx) error { return tx.PutTournament("cup", rec(6)) },
			} {
				keepMatches("nine")
				if err := db.Update(change); err != nil {
					t.Fatal(err)
				}
				if _, ok := take(); ok {
					t.Fatalf("change %d: kept though its match records changed since", i)
				}
			}
		})
	}
}
