package referee

import (
	"encoding/json"
	"reflect"
	"testing"
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
