package heavenale

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The Table helpers of every game's tests (enginetest).
var (
	submit   = enginetest.Submit
	statuses = enginetest.Statuses
)

// tableState sets up a 2-player Table where Ann starts and Ben has picked
// CASH; the track is replaced by a known one.
func newTable(t *testing.T) (*engine.Table, *State) {
	t.Helper()
	tb, _, _, err := engine.NewTable(Game{}, engineConfig(2, map[string]string{"start_player": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	s := tb.State.(*State)
	bare(s)
	s.Spaces[2] = []string{"HO2", "WA1"}
	s.Spaces[5] = []string{"BA3"}
	s.Discs[12] = 1
	rep := submit(t, tb, 1, "HOME CASH")
	if rep.Rejected {
		t.Fatalf("setup pick: %s", statuses(rep))
	}
	return tb, tb.State.(*State)
}

// §10.1: a whole turn in one message; §10.2: the other seat's queued turn
// with alternatives, tried in order when its turn comes.
func TestTableTurnAndQueue(t *testing.T) {
	tb, _ := newTable(t)
	// Ben queues before his turn: GO 12 is illegal for him (no tile), so the
	// second alternative is taken.
	rep := submit(t, tb, 1, "NEXT\nGO 12\nSCORE WA\nOR\nGO 5\nBUY BA3 D2\nEND")
	if rep.Rejected || statuses(rep) != "queued" {
		t.Fatalf("Ben's queue: %s", statuses(rep))
	}
	rep = submit(t, tb, 0, "GO 2\nBUY HO2 S1\nBUY WA1 D1")
	if rep.Rejected {
		t.Fatalf("Ann's turn: %s %+v", statuses(rep), rep.Results)
	}
	s := tb.State.(*State)
	a, b := &s.Players[0], &s.Players[1]
	if a.Garden[s.r.CellIdx["S1"]] != "HO2" || a.Garden[s.r.CellIdx["D1"]] != "WA1" || a.Ducats != 25-4-1 {
		t.Fatalf("Ann: %v ducats %d", a.Garden, a.Ducats)
	}
	if b.Garden[s.r.CellIdx["D2"]] != "BA3" || b.Pos != 5 {
		t.Fatalf("Ben's queued turn not applied: pos %d", b.Pos)
	}
	if s.Cur != 0 || s.Sub != subMove {
		t.Fatalf("Ann should move again: cur %d %s", s.Cur, s.Sub)
	}
	// ELSE PASS: no alternative legal, so Ann goes home.
	rep = submit(t, tb, 0, "GO 3 | GO 4 ELSE PASS")
	s = tb.State.(*State)
	if rep.Rejected || statuses(rep) != "else_pass" || !s.Players[0].Back {
		t.Fatalf("ELSE PASS: %s back %v", statuses(rep), s.Players[0].Back)
	}
}

// §10.1: a first line that is illegal rejects the whole message; nothing
// changes.
func TestTableRejectsIllegalFirstLine(t *testing.T) {
	tb, _ := newTable(t)
	before, _ := json.Marshal(tb.State)
	rep := submit(t, tb, 0, "GO 12\nSCORE WA")
	if !rep.Rejected {
		t.Fatalf("accepted: %s", statuses(rep))
	}
	if after, _ := json.Marshal(tb.State); string(after) != string(before) {
		t.Fatalf("state changed")
	}
	rep = submit(t, tb, 0, "FLY 12")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != engine.CodeUnknownCommand {
		t.Fatalf("unknown command: %+v", rep.Results)
	}
}

// §10.2: a numbered reply picks from the track menu, whose resource spaces
// come best known first (issue 22: BA3 at 5 is worth more than HO2 at 2).
func TestTableNumberedMenu(t *testing.T) {
	tb, _ := newTable(t)
	p := tb.Prompts[0]
	if p == nil || !p.Numbered {
		t.Fatalf("no numbered prompt: %+v", p)
	}
	if p.Options[0].Cmd != "GO 5" || p.Options[1].Cmd != "GO 2" || p.Options[len(p.Options)-1].Cmd != "GO HOME" {
		t.Fatalf("menu %v", p.Options)
	}
	rep := submit(t, tb, 0, "1")
	if rep.Rejected || tb.State.(*State).Players[0].Pos != 5 {
		t.Fatalf("1: %s", statuses(rep))
	}
}

// §10.1: a message that bought and ends without DONE ends the purchases
// (implied DONE); with DONE missing after a shed choice too.
func TestTableImpliedDone(t *testing.T) {
	tb, _ := newTable(t)
	rep := submit(t, tb, 0, "GO 2\nBUY HO2 S1")
	s := tb.State.(*State)
	if rep.Rejected || s.Cur != 1 || len(s.Spaces[2]) != 1 {
		t.Fatalf("implied DONE: %s cur %d space 2 %v", statuses(rep), s.Cur, s.Spaces[2])
	}
	// Issue 14.2: the implied DONE is marked as such (State.Implied), so
	// that the echo of the player's lines can leave it out: without it the
	// commands applied are exactly the lines written.
	last := rep.Results[len(rep.Results)-1]
	var written []string
	implied := 0
	for _, c := range last.Cmds {
		if s.Implied(c) {
			implied++
			continue
		}
		written = append(written, c)
	}
	if implied != 1 || strings.Join(written, "; ") != last.Order.Text {
		t.Fatalf("implied DONE not marked: cmds %q, text %q", last.Cmds, last.Order.Text)
	}
	if s.Implied("DONE") || s.Implied("BUY HO2 S1") {
		t.Fatalf("a written command marked implied")
	}
	// A purchase that encloses a shed: the shed is asked, then the
	// purchases end without a DONE.
	put(s, 1, "S9", "HO5", "S8", "BA4", "S6", "WA3", "S3", "YE2", "S4", "WO1")
	s.Spaces[6] = []string{"HO2", "WO1"}
	s.Players[1].Ducats = 30
	rep = submit(t, tb, 1, "GO 6\nBUY HO2 S7")
	s = tb.State.(*State)
	if rep.Rejected || s.Cur != 1 || s.Sub != subShed {
		t.Fatalf("shed pending: %s cur %d %s auto %v", statuses(rep), s.Cur, s.Sub, s.AutoDone)
	}
	rep = submit(t, tb, 1, "SHED S6 S7")
	s = tb.State.(*State)
	if rep.Rejected || s.Cur != 0 || len(s.Spaces[6]) != 1 {
		t.Fatalf("after the shed: %s cur %d %s", statuses(rep), s.Cur, s.Sub)
	}
}

// Whole games through the Table where every message is a whole turn (the
// move and every follow-up line, without DONE: implied), as §10.1 asks
// players to write them; a seat sometimes also queues its next turn as a
// NEXT block with an alternative. Every message must be accepted, and the
// game must end.
func TestTableWholeTurnMessages(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		tb, _, _, err := engine.NewTable(Game{}, engineConfig(n, nil))
		if err != nil {
			t.Fatal(err)
		}
		rng := newRand(uint64(n))
		queued := 0
		for msgs := 0; tb.State.Result() == nil; msgs++ {
			if msgs > 2000 {
				t.Fatalf("%d players: no end after %d messages", n, msgs)
			}
			w := tb.Waiting()
			if len(w) == 0 {
				t.Fatalf("nobody waits")
			}
			seat := w[0].Seat
			// Compose the rest of the turn on a copy with the greedy bot.
			c := tb.State.Clone().(*State)
			var lines []string
			turns := c.Players[seat].Turns
			for c.Result() == nil && c.Cur == seat && c.Players[seat].Turns == turns {
				d := c.Pending()[0]
				opts := c.Legal(d)
				i := 0
				if len(opts) > 1 {
					i = Greedy{}.Choose(c, d, opts, rng)
				}
				if opts[i].Cmd == "DONE" {
					break // implied at the end of the message
				}
				if len(opts) > 1 || len(lines) == 0 {
					lines = append(lines, opts[i].Cmd)
				}
				must(t, c, seat, opts[i].Cmd)
			}
			text := strings.Join(lines, "\n")
			if msgs%5 == 0 && c.Result() == nil && c.Phase == phasePlay && !c.Players[seat].Back {
				// Queue the next turn: an unlikely first choice, then GO HOME.
				text += "\nNEXT\nGO 27\nOR\nGO HOME\nEND"
				queued++
			}
			rep := submit(t, tb, seat, text)
			if rep.Rejected {
				t.Fatalf("%d players: message %q rejected: %+v", n, text, rep.Results)
			}
		}
		if queued == 0 {
			t.Fatalf("no queued turn")
		}
	}
}

// §10.3 UNDO by mail: it restarts the turn in progress at once; sent out
// of turn it is refused.
func TestTableUndo(t *testing.T) {
	tb, _ := newTable(t)
	submit(t, tb, 0, "GO 2\nBUY HO2 S1\nDONE")
	// Ben moves to 5 but has not bought yet.
	rep := submit(t, tb, 1, "GO 5")
	if rep.Rejected || tb.State.(*State).Sub != subBuy {
		t.Fatalf("GO 5: %s", statuses(rep))
	}
	if rep := submit(t, tb, 0, "UNDO"); !rep.Rejected {
		t.Fatalf("UNDO out of turn accepted")
	}
	rep = submit(t, tb, 1, "UNDO\nGO 12 | GO HOME")
	s := tb.State.(*State)
	if rep.Rejected || s.Players[1].Pos == 5 {
		t.Fatalf("UNDO: %s pos %d", statuses(rep), s.Players[1].Pos)
	}
}

// §10.1, TV-11 case A through the Table: a failing line of the turn in
// progress refuses the whole message (nothing applied, the figure stays
// put), not only a failing first line.
func TestTableWholeTurnAtomic(t *testing.T) {
	tb, s := newTable(t)
	pos, token := s.Players[0].Pos, tb.Token()
	rep := submit(t, tb, 0, "GO 2\nBUY HO2 S1\nBUY WA1 S1")
	s = tb.State.(*State)
	if !rep.Rejected || tb.Token() != token || s.Players[0].Pos != pos || len(s.Spaces[2]) != 2 {
		t.Fatalf("a failing line of the turn was not refused whole: %s, pos %d (was %d), space 2 %v",
			statuses(rep), s.Players[0].Pos, pos, s.Spaces[2])
	}
	if r := rep.Results[2]; r.Status != "rejected" || len(r.Errors) == 0 {
		t.Fatalf("the failing line is not named: %+v", rep.Results)
	}
	// The same turn without the failing line is played.
	rep = submit(t, tb, 0, "GO 2\nBUY HO2 S1")
	if rep.Rejected || tb.State.(*State).Players[0].Pos != 2 {
		t.Fatalf("the turn was not played after the refusal: %s", statuses(rep))
	}
}

// §10.1/§10.2: a failing line of a later turn queued in the same message
// (after Ben's queued turn was played) halts that turn; the turn in progress
// stays applied.
func TestTableLaterTurnHalts(t *testing.T) {
	tb, _ := newTable(t)
	if rep := submit(t, tb, 1, "NEXT\nGO 5\nBUY BA3 D2"); rep.Rejected {
		t.Fatalf("Ben's queue: %s", statuses(rep))
	}
	rep := submit(t, tb, 0, "GO 2\nBUY HO2 S1\nNEXT\nGO 1")
	s := tb.State.(*State)
	if rep.Rejected || s.Players[0].Pos != 2 || s.Players[1].Pos != 5 {
		t.Fatalf("the turn in progress was refused with the later one: %s %+v", statuses(rep), rep.Results)
	}
	if h := tb.Halts[0]; h == nil || !strings.HasSuffix(h.Order.Text, "GO 1") {
		t.Fatalf("the later turn did not halt: %+v (%s)", tb.Halts[0], statuses(rep))
	}
}
