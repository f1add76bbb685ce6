package referee

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// TestEncodeGame: the record written with the table appended as it is
// decodes to the same game as encoding/json's own encoding, with and
// without a table.
func TestEncodeGame(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@example.test", "bob@example.test")
	g := h.game("g1")
	if len(g.Table) == 0 {
		t.Fatal("the toy game has no table")
	}
	for _, g := range []*Game{g, {ID: "g2", Game: "toy", Status: StatusForming}} {
		mine, err := encodeGame(g)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != len(theirs) || !json.Valid(mine) {
			t.Fatalf("%s: %d bytes, encoding/json %d:\n%s", g.ID, len(mine), len(theirs), mine)
		}
		var a, b Game
		if err := json.Unmarshal(mine, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(theirs, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: decodes to\n%+v\nnot\n%+v", g.ID, a, b)
		}
	}
}

// TestEachGameHead: every game, with everything but its table.
func TestEachGameHead(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@example.test", "bob@example.test")
	h.org("NEW toy id=g2\nPLAYER cid@example.test Cid\nPLAYER dan@example.test Dan")
	var got []*Game
	err := h.db.View(func(tx *store.Tx) error {
		return eachGameHead(tx, func(g *Game) error { got = append(got, g); return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "g1" || got[1].ID != "g2" {
		t.Fatalf("games %+v", got)
	}
	for _, g := range got {
		full := h.game(g.ID)
		if g.Table != nil {
			t.Errorf("%s: a table", g.ID)
		}
		full.Table = nil
		if !reflect.DeepEqual(g, full) {
			t.Errorf("%s: head\n%+v\nnot\n%+v", g.ID, g, full)
		}
	}
}
