package referee

import (
	"slices"
	"testing"
	"time"
)

// Issue 21 (DB-6.6 and every hidden choice): a deadline's default move is
// named in the public log only when what it did is public; a default that
// chose something hidden (the toy's sealed bid here, a face-down token in
// Dice Brewing) is logged for its seat alone, which the announcement tells
// anyway.
func TestMissedDefaultNamedPubliclyOnlyWhenPublic(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	ai := h.game("g1").SeatOfAddress(ann)
	h.send("g1", bob, "BID 2", -1)
	h.mails()
	for i := 0; i < 6 && h.game("g1").Seats[ai].Bot == ""; i++ {
		h.clock.Advance(25 * time.Hour)
		h.tick()
	}
	private, public := 0, 0
	for _, e := range h.logEntries("g1") {
		if e.Kind != EntryMissed {
			continue
		}
		cmds, _ := e.Params["cmds"].([]string)
		if cmds == nil {
			for _, c := range e.Params["cmds"].([]any) {
				cmds = append(cmds, c.(string))
			}
		}
		switch {
		case e.Vis.Public:
			public++
			if slices.ContainsFunc(cmds, func(c string) bool { return len(c) > 3 && c[:4] == "BID " }) {
				t.Errorf("a sealed bid's default is in the public log: %v", cmds)
			}
		case e.Vis.Sees(ai) && !e.Vis.Sees(1-ai):
			private++
			if !slices.Contains(cmds, "BID 0") {
				t.Errorf("the seat's own entry does not name its default: %v", cmds)
			}
		default:
			t.Errorf("missed entry visibility %+v", e.Vis)
		}
	}
	if private == 0 {
		t.Fatalf("no missed bid logged (public entries %d): the test proves nothing", public)
	}
}
