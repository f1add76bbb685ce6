package store

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestPageTournamentKeptWhileItsRecordsStay_Issue24 (tourpages.go): the
// pages' decoded tournament is found by every read after its keeping,
// not taken out, while the tournament's whole record and match records
// are the ones it was decoded from; a record written again (even with
// the same length), a match record written or deleted since, make it a
// miss, and a tournament kept again after is found again. At most
// PageTournaments tournaments are kept, the oldest dropped.
func TestPageTournamentKeptWhileItsRecordsStay_Issue24(t *testing.T) {
	for _, size := range []int{10, 100000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			db, err := Open(filepath.Join(t.TempDir(), "p.db"), &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rec := func(n int) []byte { return fmt.Appendf(nil, `{"n":%d,"pad":%q}`, n, make([]byte, size)) }
			put := func(id string, n int) {
				if err := db.Update(func(tx *Tx) error { return tx.PutTournament(id, rec(n)) }); err != nil {
					t.Fatal(err)
				}
			}
			page := func(id string) (v any, ok bool) {
				db.View(func(tx *Tx) error { v, ok = tx.PageTournament(id); return nil })
				return v, ok
			}
			keep := func(id string, v any) {
				db.View(func(tx *Tx) error {
					raw, err := tx.Tournament(id)
					if err != nil {
						t.Fatal(err)
					}
					tx.KeepPageTournament(id, raw, v)
					return nil
				})
			}
			put("cup", 1)
			if _, ok := page("cup"); ok {
				t.Fatal("found before any keeping")
			}
			keep("cup", "one")
			for range 3 {
				if v, ok := page("cup"); !ok || v != "one" {
					t.Fatalf("kept: %v %v", v, ok)
				}
			}
			put("cup", 2) // the same length, other bytes
			if _, ok := page("cup"); ok {
				t.Fatal("found for a record since replaced")
			}
			keep("cup", "two")
			if err := db.Update(func(tx *Tx) error { return tx.PutTournamentMatch("cup", 0, 1, []byte(`{}`)) }); err != nil {
				t.Fatal(err)
			}
			if _, ok := page("cup"); ok {
				t.Fatal("found though a match record came since")
			}
			keep("cup", "three")
			if v, ok := page("cup"); !ok || v != "three" {
				t.Fatalf("kept with its match record: %v %v", v, ok)
			}
			put("cup", 2) // the whole record again: its match records folded, deleted
			if _, ok := page("cup"); ok {
				t.Fatal("found though its match records went")
			}
			keep("cup", "four")
			for i := range PageTournaments {
				id := fmt.Sprintf("t%d", i)
				put(id, i)
				keep(id, id)
			}
			if _, ok := page("cup"); ok {
				t.Fatalf("more than %d tournaments kept", PageTournaments)
			}
			for i := range PageTournaments {
				if id := fmt.Sprintf("t%d", i); func() bool { v, ok := page(id); return !ok || v != id }() {
					t.Fatalf("%s dropped", id)
				}
			}
		})
	}
}
