package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestLogNumberedAgainstAModel_Issue24: AppendLog numbers a game's
// entries from the last one stored, sought once a transaction and then
// counted (games.go): random appends to a few games, beside their records
// and wake-up keys (which share the game's keys in log.flat), in
// transactions committed or rolled back, some through a speculation,
// number every entry as a plain count of the committed ones does, and
// the logs read back as written.
func TestLogNumberedAgainstAModel_Issue24(t *testing.T) {
	for run := range 20 {
		t.Run(fmt.Sprint(run), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(run), 24))
			db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			games := []string{"g", "g1", "g10", "g2", "h"}
			model := map[string][]string{}
			at := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
			errRollBack := errors.New("rolled back")
			for txn := range 30 {
				pending := map[string][]string{}
				body := func(tx *Tx) error {
					clear(pending)
					for op := range r.IntN(12) {
						g := games[r.IntN(len(games))]
						switch r.IntN(5) {
						case 0:
							if err := tx.PutGame(g, []byte(fmt.Sprintf(`{"id":%q,"n":%d}`, g, op))); err != nil {
								return err
							}
						case 1:
							if err := tx.SetWake(g, at.Add(time.Duration(op)*time.Minute)); err != nil {
								return err
							}
						default:
							e := fmt.Sprintf(`{"t":%d,"op":%d}`, txn, op)
							seq, err := tx.AppendLog(g, []byte(e))
							if err != nil {
								return err
							}
							if want := uint64(len(model[g]) + len(pending[g]) + 1); seq != want {
								return fmt.Errorf("entry of %s numbered %d, want %d", g, seq, want)
							}
							pending[g] = append(pending[g], e)
						}
					}
					if r.IntN(4) == 0 {
						return errRollBack
					}
					return nil
				}
				var err error
				if r.IntN(3) == 0 {
					var s *Spec
					if s, err = db.Speculate(body); err == nil {
						err = db.Commit(s, nil)
					}
				} else {
					err = db.Update(body)
				}
				if err != nil && !errors.Is(err, errRollBack) {
					t.Fatal(err)
				}
				if err == nil {
					for g, es := range pending {
						model[g] = append(model[g], es...)
					}
				}
			}
			if err := db.View(func(tx *Tx) error {
				for _, g := range games {
					var got []string
					if err := tx.Log(g, 1, func(seq uint64, e []byte) error {
						if seq != uint64(len(got)+1) {
							return fmt.Errorf("%s: entry %d after %d", g, seq, len(got))
						}
						got = append(got, string(e))
						return nil
					}); err != nil {
						return err
					}
					if !slices.Equal(got, model[g]) {
						return fmt.Errorf("%s: log %q, want %q", g, got, model[g])
					}
					if n := tx.LogLen(g); n != uint64(len(model[g])) {
						return fmt.Errorf("%s: LogLen %d, want %d", g, n, len(model[g]))
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestLogNumberSoughtOnceATransaction_Issue24: a transaction that appends
// n entries to a game seeks its last number once (issue 24: a round of
// 5,000 games opened sought it 20,000 times): ten entries a game cost nine
// cursors more than one entry does (one a put), not eighteen.
func TestLogNumberSoughtOnceATransaction_Issue24(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "referee.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func() int64 { st := db.bolt.Stats(); return st.TxStats.GetCursorCount() }
	cursors := func(game string, n int) int64 {
		c0 := count()
		if err := db.Update(func(tx *Tx) error {
			for range n {
				if _, err := tx.AppendLog(game, []byte(`{"seat":1}`)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return count() - c0
	}
	for _, g := range []string{"a", "b", "c"} {
		one, ten := cursors(g+"1", 1), cursors(g+"10", 10)
		if ten-one != 9 {
			t.Errorf("game %s: %d cursors for ten entries, %d for one: want 9 more", g, ten, one)
		}
	}
}
