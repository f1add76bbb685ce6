package referee

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/store"
)

// checkGameIndex compares the store's game indexes with every game
// record (issue 25: the lists and counts read the indexes, so they must
// say what the records say). Every harness runs it at its end, so every
// whole game of the referee's tests checks it.
func checkGameIndex(t testing.TB, db *store.DB) {
	t.Helper()
	err := db.View(func(tx *store.Tx) error {
		counts := map[string]int{}
		byAddr, byStatus, byOrg := map[string][]string{}, map[string][]string{}, map[string][]string{}
		err := eachGameHead(tx, func(g *Game) error {
			counts[g.Status]++
			byStatus[g.Status] = append(byStatus[g.Status], g.ID)
			byOrg[strings.ToLower(g.Organiser)] = append(byOrg[strings.ToLower(g.Organiser)], g.ID)
			seen := map[string]bool{}
			for _, s := range g.Seats {
				if a := strings.ToLower(s.Address); a != "" && !seen[a] {
					seen[a] = true
					byAddr[a] = append(byAddr[a], g.ID)
				}
			}
			ix, ok, err := tx.GameIndexOf(g.ID)
			if err != nil || !ok {
				t.Errorf("game %s: not indexed (%v)", g.ID, err)
				return nil
			}
			want := records.IndexOf(g)
			if ix.Status != want.Status || ix.Organiser != want.Organiser || ix.Open != want.Open || ix.Seats != want.Seats ||
				ix.Players != want.Players || ix.Game != want.Game || !slices.Equal(ix.Addresses, want.Addresses) {
				t.Errorf("game %s: index %+v, record says %+v", g.ID, ix, want)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if got := tx.GameCounts(); !maps.Equal(got, counts) {
			t.Errorf("counts by status %v, records say %v", got, counts)
		}
		list := func(scan func(string, func(string) error) error, key string) []string {
			var ids []string
			scan(key, func(id string) error { ids = append(ids, id); return nil })
			return ids
		}
		for a, ids := range byAddr {
			if got := list(tx.GamesOfAddress, a); !slices.Equal(got, ids) {
				t.Errorf("games of %s: index %v, records %v", a, got, ids)
			}
		}
		for s, ids := range byStatus {
			if got := list(tx.GamesWithStatus, s); !slices.Equal(got, ids) {
				t.Errorf("games %s: index %v, records %v", s, got, ids)
			}
		}
		for o, ids := range byOrg {
			if got := list(tx.GamesOfOrganiser, o); !slices.Equal(got, ids) {
				t.Errorf("games of organiser %s: index %v, records %v", o, got, ids)
			}
		}
		return nil
	})
	if err != nil {
		t.Errorf("game index: %v", err)
	}
}

// TestGameIndexBuiltForOldStore: a store whose games were saved without
// the indexes (schema <= 5) gets them built when the referee opens it,
// once; a random walk of index changes afterwards keeps them exact.
func TestGameIndexBuiltForOldStore(t *testing.T) {
	h := newHarness(t)
	for i := range 5 {
		id := fmt.Sprintf("old%d", i)
		h.org("NEW dicebrewing id=" + id + " deadline=none\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
		if i%2 == 0 {
			h.send(id, ann, "JOIN", -1)
			h.send(id, bob, "JOIN", -1)
		}
	}
	// Forget the indexes, as a store of schema 5 has none.
	rng := rand.New(rand.NewPCG(5, 25))
	h.db.Update(func(tx *store.Tx) error {
		return tx.GameIDs(func(id string) error {
			return tx.IndexGame(id, store.GameIndex{Game: "x", Status: []string{"a", "b"}[rng.IntN(2)],
				Addresses: []string{fmt.Sprintf("z%d@x", rng.IntN(3))}})
		})
	})
	h.db.Update(func(tx *store.Tx) error { return tx.ForgetGameIndex() })
	if _, err := New(h.r.opt); err != nil {
		t.Fatal(err)
	}
	checkGameIndex(t, h.db)
	for i := range 40 {
		id := fmt.Sprintf("old%d", rng.IntN(5))
		h.db.Update(func(tx *store.Tx) error {
			g, err := loadGame(tx, id)
			if err != nil {
				return err
			}
			g.Status = []string{StatusForming, StatusRunning, StatusOver, StatusAborted}[rng.IntN(4)]
			if i%3 == 0 && len(g.Seats) > 0 {
				g.Seats[rng.IntN(len(g.Seats))].Address = fmt.Sprintf("p%d@example.test", rng.IntN(4))
			}
			if i%5 == 0 {
				g.Organiser = fmt.Sprintf("Org%d@example.test", rng.IntN(2))
			}
			return saveGame(tx, g)
		})
		checkGameIndex(t, h.db)
	}
}

// TestListOpenIsPaged (issue 25: page long answers): with more open games
// than a LIST shows, the answer lists the first page and says how many
// more there are, in the reader's language, within 80 columns; with fewer,
// it lists them all and says nothing more. Games that are not open, full
// or started never count.
func TestListOpenIsPaged(t *testing.T) {
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		for _, open := range []int{0, 1, listOpenPage, listOpenPage + 1, listOpenPage + 7} {
			t.Run(fmt.Sprintf("%s/%d", lang, open), func(t *testing.T) {
				h := newHarness(t)
				var text strings.Builder
				for i := range open {
					fmt.Fprintf(&text, "NEW toy id=o%02d players=3 open deadline=none\nPLAYER ann@example.test Ann\n", i)
				}
				text.WriteString("NEW toy id=shut players=3 deadline=none\nPLAYER ann@example.test Ann\n")
				h.org(text.String())
				h.newToyGame("full", ann, bob)
				h.mails()
				h.sendAs(Request{From: dan, FromName: "Dan", Text: "REGISTER Dan " + lang})
				p := h.mailTo(h.mails(), dan)
				h.sendAs(Request{From: dan, Kind: "player", Secret: p.Tag.Secret, Text: "LIST"})
				body := h.mailTo(h.mails(), dan).Body
				shown := strings.Count(body, "\n  o")
				if want := min(open, listOpenPage); shown != want {
					t.Errorf("%d games shown, want %d:\n%s", shown, want, body)
				}
				more := fmt.Sprintf(" %d ", open-listOpenPage)
				if hasMore := strings.Contains(body, "  ... ") && strings.Contains(body, more); hasMore != (open > listOpenPage) {
					t.Errorf("%d open games: 'more' line %v:\n%s", open, hasMore, body)
				}
				if strings.Contains(body, "shut") || strings.Contains(body, "full") {
					t.Errorf("a game that is not open or has no seat is listed:\n%s", body)
				}
				for _, l := range strings.Split(body, "\n") {
					if len([]rune(l)) > 80 {
						t.Errorf("line over 80 columns: %q", l)
					}
				}
			})
		}
	}
}
