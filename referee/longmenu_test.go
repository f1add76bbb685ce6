package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Issue 12.5: a question with 16 to 48 legal moves (more than the Table
// numbered before, at most engine.MaxNumbered now) gets a numbered menu from
// the Table itself, so webhook/JSON clients see the same options as the
// mail; the mail promises numbers, a reply of just a number plays that
// option, and a number past the menu is refused with the right count.
func TestLongMenuNumberedByTheTable(t *testing.T) {
	h := newHarness(t)
	h.org("NEW dicebrewing id=d1 seed=menu1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\n")
	h.send("d1", ann, "JOIN", -1)
	h.send("d1", bob, "JOIN", -1)
	ms := h.mails()
	for step := 0; step < 200; step++ {
		tb := h.table("d1")
		gm := h.game("d1")
		seat := -1
		for s, p := range tb.Prompts {
			if p != nil {
				seat = s
				break
			}
		}
		if seat < 0 {
			t.Fatal("nobody to move before a long menu")
		}
		p := tb.Prompts[seat]
		addr := gm.Seats[seat].Address
		opts := tb.State.Legal(p.Decision)
		if p.Count > 15 && p.Count <= engine.MaxNumbered {
			if !p.Numbered || len(p.Options) != p.Count || p.Options[15].Cmd != opts[15].Cmd {
				t.Fatalf("the Table leaves %d options unnumbered: %+v", p.Count, p)
			}
			h.send("d1", addr, fmt.Sprint(p.Count+1), -1)
			tb2 := h.table("d1")
			if tb2.Token() != tb.Token() {
				t.Fatalf("number %d past a menu of %d was played", p.Count+1, p.Count)
			}
			contains(t, h.mailTo(h.mails(), addr).Body, fmt.Sprint(p.Count))
			body := h.mailTo(ms, addr).Body
			last := fmt.Sprintf("%d) ", len(opts))
			contains(t, body, " 1) ", last, "A reply of just the number of an option works too.")
			before := tb.Token()
			n := 16
			h.send("d1", addr, fmt.Sprint(n), -1)
			reply := h.mailTo(h.mails(), addr).Body
			lacks(t, reply, "rejected", "no_option")
			steps := h.table("d1").Token() - before
			if steps < 1 {
				t.Fatalf("option %d (%s) was not played:\n%s", n, opts[n-1].Cmd, reply)
			}
			if !strings.Contains(reply, opts[n-1].Cmd) {
				t.Errorf("the echo does not name option %d, %s:\n%s", n, opts[n-1].Cmd, reply)
			}
			return
		}
		if p.Count > engine.MaxNumbered {
			// Described, not numbered: no promise of numbers.
			lacks(t, h.mailTo(ms, addr).Body, "A reply of just the number")
		}
		h.send("d1", addr, opts[len(opts)/2].Cmd, -1)
		ms = h.mails()
	}
	t.Fatal("no question with a long menu in 200 moves")
}

// Issue 12.6: a queued "... ELSE PASS" that cannot be played when its turn
// comes becomes a pass, and the player is told which line it was (never
// silently), in their language.
func TestQueuedElsePassIsTold(t *testing.T) {
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		h := newHarness(t)
		h.org("NEW claim id=c1 seed=golden2\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang + "\nPLAYER cat@example.test Cat " + lang)
		for _, p := range []string{ann, bob, cat} {
			h.send("c1", p, "JOIN", -1)
		}
		h.mails()
		gm := h.game("c1")
		p0, p1 := gm.Seats[0].Address, gm.Seats[1].Address
		h.send("c1", p1, "CLAIM 5 ELSE PASS", -1)
		contains(t, h.mailTo(h.mails(), p1).Body, "CLAIM 5 ELSE PASS")
		h.send("c1", p0, "CLAIM 5", -1)
		body := h.mailTo(h.mails(), p1).Body
		want := map[string]string{"en": `Your queued line "CLAIM 5 ELSE PASS" could not be played`,
			"it": `La tua riga in coda "CLAIM 5 ELSE PASS" non si poteva giocare`,
			"fr": "Votre ligne en attente « CLAIM 5 ELSE PASS » ne pouvait pas",
			"nl": `Je geplande regel "CLAIM 5 ELSE PASS" kon niet gespeeld`}[lang]
		if !strings.Contains(strings.Join(strings.Fields(body), " "), want) {
			t.Errorf("%s: the pass is not explained:\n%s", lang, body)
		}
		// The reason is the rule's sentence, with the rule (issue 12.6).
		if !strings.Contains(body, "(CL-2)") || strings.Contains(body, "space_taken") {
			t.Errorf("%s: the pass does not cite the rule:\n%s", lang, body)
		}
		for _, l := range strings.Split(body, "\n") {
			if n := len([]rune(l)); n > 80 {
				t.Errorf("%s: %d columns: %s", lang, n, l)
			}
		}
	}
}
