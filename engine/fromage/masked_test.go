package fromage

import (
	"encoding/json"
	"reflect"
	"testing"
)

// clonedMasked is masked as it was before issue 25: a clone of the whole
// state with every seat but the viewer back at the start of the turn.
func clonedMasked(s *State, seat int) *State {
	c := s.Clone().(*State)
	for i := range c.Players {
		if i == seat {
			continue
		}
		done := c.Players[i].Done
		c.Players[i] = s.Snap.Players[i].clone()
		c.Players[i].Done = done
	}
	for v := range c.Board {
		for k, o := range c.Board[v] {
			if o != s.Snap.Board[v][k] && o != seat {
				c.Board[v][k] = s.Snap.Board[v][k]
			}
		}
	}
	c.Deck = make([]int, s.Snap.Deck)
	c.Discard = make([]int, s.Snap.Discard)
	return c
}

// TestMaskedViewIsTheClonedView_Issue25 (FR-6.4, issue 25): in every
// sealed turn of generated games (every phase, solo and advanced among
// them, seats with and without moves of the turn), each seat's and an
// observer's view of the state masked without a clone is the view of the
// cloned, masked state, so is Adjudicate's score (the public position),
// and taking them leaves the state as it was.
func TestMaskedViewIsTheClonedView_Issue25(t *testing.T) {
	states, _ := samplePositions(t)
	sealed, hidden := 0, 0
	for _, s := range states {
		if s.Phase != phaseTurn || s.Snap == nil {
			continue
		}
		sealed++
		before, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for seat := -1; seat < len(s.Players); seat++ {
			got, want := s.masked(seat).view(seat), clonedMasked(s, seat).view(seat)
			if !reflect.DeepEqual(got, s.view(seat)) {
				hidden++ // a seat's moves of the turn are hidden from this one
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Fatalf("turn %d, seat %d: the masked view is not the cloned one:\n%s\nwant\n%s", s.Turn, seat, g, w)
			}
		}
		if s.Corp == nil {
			got, want := s.Adjudicate(), clonedMasked(s, -1).scoreNow()
			want.Params["adjudicated"] = true
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("turn %d: Adjudicate on the masked state %+v, on the cloned one %+v", s.Turn, got, want)
			}
		}
		after, _ := json.Marshal(s)
		if string(after) != string(before) {
			t.Fatalf("turn %d: taking the views changed the state", s.Turn)
		}
	}
	if sealed < 5 || hidden < 5 {
		t.Fatalf("only %d sealed turns among the positions, %d views hiding moves", sealed, hidden)
	}
	t.Logf("%d sealed turns, %d views hiding moves", sealed, hidden)
}
