package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// The bulk loader's copies are games the referee serves: the timed moves
// (seat secrets checked against the tokens, orders applied) pass at every
// size, and the store holds every copy under its own id, seats, secrets
// and indexes. Variation: sizes below, at and above the templates' count,
// and a second batch.
func TestBulkLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end benchmark")
	}
	for _, sizes := range [][]int{{3, 40}, {8, bulkBatch + 30}} {
		dir := t.TempDir()
		rep, err := Run(context.Background(), Options{NoMail: true, Bulk: true, Sizes: sizes, Moves: 6, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Scale) != len(sizes) || !rep.BulkLoad {
			t.Fatalf("%d scale points, bulk %v", len(rep.Scale), rep.BulkLoad)
		}
		for _, p := range rep.Scale {
			if p.Moves != 6 || p.Move == nil || p.DiskBytesPerMove <= 0 {
				t.Errorf("scale point %+v", p)
			}
			// The loader's daemon closed the store: the timed moves' open
			// read the free list, and did not walk the file (issue 25).
			if p.OpenWalked {
				t.Errorf("%d games: the open walked the store", p.Games)
			}
		}
		var path string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".db") {
				path = p
			}
			return nil
		})
		db, err := store.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if db.OpenWalked() {
			t.Error("the bench's daemon left the store without its free list")
		}
		n := sizes[len(sizes)-1]
		secrets := map[string]bool{}
		db.View(func(tx *store.Tx) error {
			if got := tx.GameCount(); got != n {
				t.Errorf("%d games, want %d", got, n)
			}
			seats := map[string]int{}
			tx.Tokens(func(secret string, tok store.Token) error {
				if tok.Kind == "seat" {
					seats[tok.Game]++
					if secrets[secret] || !strings.HasPrefix(tok.Address, tok.Game+"p") {
						t.Errorf("token of %s: address %s, secret seen before: %v", tok.Game, tok.Address, secrets[secret])
					}
					secrets[secret] = true
				}
				return nil
			})
			for k := 1; k <= n; k++ {
				id := fmt.Sprintf("s%d", k)
				ix, ok, err := tx.GameIndexOf(id)
				if err != nil || !ok || len(ix.Addresses) == 0 || seats[id] != len(ix.Addresses) {
					t.Fatalf("%s: index %+v %v %v, %d seat tokens", id, ix, ok, err, seats[id])
				}
				for _, a := range ix.Addresses {
					if !strings.HasPrefix(a, id+"p") {
						t.Fatalf("%s: seat address %s", id, a)
					}
				}
				if tx.LogLen(id) == 0 {
					t.Fatalf("%s: empty log", id)
				}
			}
			return nil
		})
		db.Close()
	}
}

// The scale part's page counts (Options.Pages, issue 25) find every page
// the timed moves' commits wrote, and name the buckets a move writes.
// Variation: two sizes, the second a batch of copies later. A move
// writes no page of games (its record is beside its log).
func TestScalePagesPerMove_Issue25(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end benchmark")
	}
	rep, err := Run(context.Background(), Options{NoMail: true, Bulk: true, Pages: true, Sizes: []int{12, 300}, Moves: 5, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Scale {
		if p.PagesCounted != 1 {
			t.Errorf("%d games: %.3f of the pages written found: %v", p.Games, p.PagesCounted, p.PagesPerMove)
		}
		for _, want := range []string{"meta", "log.flat leaf", "inbound leaf"} {
			if p.PagesPerMove[want] <= 0 {
				t.Errorf("%d games: no %q pages a move: %v", p.Games, want, p.PagesPerMove)
			}
		}
		// A move's record goes beside its log entries (store/writepath.go):
		// the games copied in were put once, so a move writes no page of
		// games.
		for _, kind := range []string{"leaf", "branch", "overflow"} {
			if n := p.PagesPerMove["games "+kind]; n != 0 {
				t.Errorf("%d games: %.2f pages of games (%s) a move: %v", p.Games, n, kind, p.PagesPerMove)
			}
		}
	}
}
