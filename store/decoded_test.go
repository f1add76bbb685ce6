package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
)

// The decoded form of a record is kept for the version written with it and
// no other: a later write by anyone, a rolled-back write, a speculation
// that did not commit, and a second take all miss. Varied over record
// sizes (plain records and snapshot+delta ones) and the way it was
// written (Update, a committed speculation).
func TestDecodedKeptForItsVersionOnly(t *testing.T) {
	for _, size := range []int{100, 5000} {
		for _, spec := range []bool{false, true} {
			t.Run(fmt.Sprintf("size-%d-spec-%v", size, spec), func(t *testing.T) {
				db, err := Open(filepath.Join(t.TempDir(), "d.db"), &Options{NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				rec := func(n int) []byte { return fmt.Appendf(nil, `{"n":%d,"pad":%q}`, n, make([]byte, size)) }
				write := func(n int, v any) error {
					fn := func(tx *Tx) error {
						if err := tx.PutGame("g", rec(n)); err != nil {
							return err
						}
						return tx.KeepDecoded("g", v)
					}
					if !spec {
						return db.Update(fn)
					}
					s, err := db.Speculate(fn)
					if err != nil {
						return err
					}
					return db.Commit(s, nil)
				}
				take := func() (any, bool) {
					var v any
					var ok bool
					db.View(func(tx *Tx) error { v, ok = tx.TakeDecoded("g"); return nil })
					return v, ok
				}
				if err := write(1, "one"); err != nil {
					t.Fatal(err)
				}
				if v, ok := take(); !ok || v != "one" {
					t.Errorf("after the write: %v %v", v, ok)
				}
				if _, ok := take(); ok {
					t.Error("taken twice")
				}
				write(2, "two")
				db.Update(func(tx *Tx) error { return tx.PutGame("g", rec(3)) }) // another writer
				if v, ok := take(); ok {
					t.Errorf("kept across another write: %v", v)
				}
				write(4, "four")
				db.Update(func(tx *Tx) error {
					tx.PutGame("g", rec(5))
					tx.KeepDecoded("g", "five")
					return errors.New("rolled back")
				})
				if v, ok := take(); !ok || v != "four" {
					t.Errorf("after a rolled-back write: %v %v", v, ok)
				}
			})
		}
	}
}
