package store

import (
	"errors"
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
