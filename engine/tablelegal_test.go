package engine_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestTableLegalIsThePromptsList_Issue25: Table.Legal of a seat is, byte
// for byte as JSON, what State.Legal gives for the seat's prompt (the
// game's order, not the menu's grouped order), at every move of random
// games of every registered game and seat count; it is the list the prompt
// was made from (no allocation: Legal is not computed again for the mail's
// JSON part), and a table read back from its JSON, which keeps no list,
// gives the same.
func TestTableLegalIsThePromptsList_Issue25(t *testing.T) {
	checked, stale := 0, 0
	playRandomTables(t, "legal", 26, 60, func(tb *engine.Table, game string, n, move int, d engine.Decision, cmd string) bool {
		js, err := tb.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := engine.LoadTable(js, nil)
		if err != nil {
			t.Fatalf("%s: LoadTable: %v", game, err)
		}
		for seat := -1; seat <= n; seat++ {
			var want []engine.Option
			if seat >= 0 && seat < n && tb.Prompts[seat] != nil {
				want = tb.State.Legal(tb.Prompts[seat].Decision)
				if allocs := testing.AllocsPerRun(3, func() { tb.Legal(seat) }); allocs != 0 {
					t.Fatalf("%s move %d seat %d: Legal computed again (%v allocations)", game, move, seat, allocs)
				}
				checked++
			}
			for _, tab := range []*engine.Table{tb, back} {
				if got := tab.Legal(seat); !sameJSON(t, got, want) {
					t.Fatalf("%s move %d seat %d: Legal %v, want %v", game, move, seat, got, want)
				}
			}
		}
		if move == 59 {
			// A move applied to the state behind the Table's back (the
			// token moves on): the prompts' lists are stale, and Legal
			// computes the list for the state as it is.
			stale += staleLegal(t, tb, d, cmd)
			return false
		}
		return true
	}, nil)
	if checked < 200 || stale == 0 {
		t.Fatalf("checked %d prompts, %d stale lists: the games did not reach enough", checked, stale)
	}
	t.Logf("%d prompts, %d stale lists", checked, stale)
}

func sameJSON(t *testing.T, a, b []engine.Option) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

// staleLegal applies cmd for d to tb's state directly and checks that
// Legal gives, for every seat with a prompt, the legal options of the
// prompt's decision now; it returns how many of those differ from the
// prompt's own list.
func staleLegal(t *testing.T, tb *engine.Table, d engine.Decision, cmd string) int {
	t.Helper()
	kept := make([][]engine.Option, len(tb.Prompts))
	for seat := range tb.Prompts {
		kept[seat] = tb.Legal(seat)
	}
	m, err := tb.State.Parse(d.Seat, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.State.Apply(d.Seat, m); err != nil {
		t.Fatal(err)
	}
	n := 0
	for seat, p := range tb.Prompts {
		if p == nil {
			continue
		}
		want := tb.State.Legal(p.Decision)
		if got := tb.Legal(seat); !sameJSON(t, got, want) {
			t.Fatalf("seat %d after a move outside the Table: Legal %v, want %v", seat, got, want)
		}
		if !sameJSON(t, kept[seat], want) {
			n++
		}
	}
	return n
}
