package referee

import (
	"strings"
	"testing"

	_ "github.com/pbem-referee/referee/engine/heavenale"
)

// Issue 14.2, Heaven & Ale §10.1: a purchase without DONE ends the
// purchases (the engine adds "DONE AUTO"); the reply echoes the player's
// line without the added command, and the step log keeps it.
func TestImpliedDoneLeftOutOfTheEcho(t *testing.T) {
	h := newHarness(t)
	h.org("NEW heavenale id=h1 deadline=none\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\n")
	h.send("h1", ann, "JOIN", -1)
	h.send("h1", bob, "JOIN", -1)
	h.mails()
	for step := 0; step < 300; step++ {
		tb := h.table("h1")
		w := tb.Waiting()
		if len(w) == 0 {
			t.Fatal("nobody waits")
		}
		seat := w[0].Seat
		addr := h.game("h1").Seats[seat].Address
		opts := tb.State.Legal(tb.Prompts[seat].Decision)
		cmd := opts[0].Cmd
		buy := false
		for _, o := range opts {
			if strings.HasPrefix(o.Cmd, "BUY ") {
				cmd, buy = o.Cmd, true
				break
			}
		}
		steps := h.game("h1").Steps
		h.send("h1", addr, cmd, -1)
		if !buy {
			h.mails()
			continue
		}
		body := h.mailTo(h.mails(), addr).Body
		contains(t, body, cmd)
		lacks(t, body, "DONE AUTO", "=>")
		auto := false
		for _, e := range h.logEntries("h1") {
			if e.Kind == EntryStep && e.Step != nil && e.Step.Seat == seat && e.Step.Cmd == "DONE AUTO" {
				auto = true
			}
		}
		if h.game("h1").Steps <= steps || !auto {
			t.Fatalf("the purchase or its implied DONE is not in the step log (auto %v)", auto)
		}
		return
	}
	t.Fatal("no purchase in 300 moves")
}
