package store

import (
	"path/filepath"
	"testing"
)

func TestListedGames(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list := func() (out []string) {
		db.View(func(tx *Tx) error {
			return tx.ListedGames(func(g string) error { out = append(out, g); return nil })
		})
		return out
	}
	if got := list(); len(got) != 0 {
		t.Fatalf("new store lists %v", got)
	}
	if err := db.Update(func(tx *Tx) error {
		if err := tx.SetGameListed("zz", false); err != nil { // before the bucket exists
			return err
		}
		for _, g := range []string{"g2", "g1", "g3"} {
			if err := tx.SetGameListed(g, true); err != nil {
				return err
			}
		}
		return tx.SetGameListed("g3", false)
	}); err != nil {
		t.Fatal(err)
	}
	if got := list(); len(got) != 2 || got[0] != "g1" || got[1] != "g2" {
		t.Fatalf("listed %v, want [g1 g2]", got)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
}
