package referee

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/store"
)

// setTable rewrites game id's state with edit and stores it back, the
// prompts recomputed (queues, halts and the numbered-prompt history
// dropped): a hand-made position for a scenario.
func (h *harness) setTable(id string, edit func(st engine.State)) {
	h.t.Helper()
	tb := h.table(id)
	edit(tb.State)
	tb = engine.WrapTable(tb.Game(), tb.State)
	g := h.game(id)
	raw, err := json.Marshal(tb)
	if err != nil {
		h.t.Fatal(err)
	}
	g.Table = raw
	if err := h.db.Update(func(tx *store.Tx) error { return saveGame(tx, g) }); err != nil {
		h.t.Fatal(err)
	}
}

// haCell returns the garden index of a Heaven & Ale spot (S1-S15,
// D1-D15), read through the game's own parser.
func haCell(t *testing.T, st engine.State, spot string) int {
	t.Helper()
	m, err := st.Parse(0, "BUY HO1 "+spot)
	if err != nil {
		t.Fatal(err)
	}
	return m.(heavenale.Move).Buys[0].Cell
}

// haTV03 starts a 2-player Heaven & Ale game in lang and sets up TV-03
// for Ann: a disc on 12 (C) whose only usable spot is BA (HO holds a
// disc, no water tile). Bob holds 2 ducats and no card; space 2 holds
// HO2 and WA1. It returns the seats of Ann and Bob.
func haTV03(t *testing.T, h *harness, id, lang string) (int, int) {
	t.Helper()
	h.org("NEW heavenale id=" + id + " seed=echo1 deadline=none\n" +
		"PLAYER ann@example.test Ann " + lang + "\n" +
		"PLAYER bob@example.test Bob " + lang)
	h.send(id, ann, "JOIN", -1)
	h.send(id, bob, "JOIN", -1)
	h.mails()
	for i := 0; i < 10; i++ {
		tb := h.table(id)
		w := tb.Waiting()
		if len(w) == 0 || w[0].Kind != "setup" {
			break
		}
		h.send(id, h.game(id).Seats[w[0].Seat].Address, w[0].Default, -1)
		h.mails()
	}
	g := h.game(id)
	a, b := g.SeatOfAddress(ann), g.SeatOfAddress(bob)
	h.setTable(id, func(st engine.State) {
		s := st.(*heavenale.State)
		for i := range s.Spaces {
			s.Spaces[i] = []string{}
			s.Discs[i] = 0
		}
		s.Spaces[2] = []string{"HO2", "WA1"}
		s.Discs[12] = 1
		s.Cur, s.Sub = a, "move"
		p := &s.Players[a]
		p.Garden[haCell(t, st, "S2")] = "BA2"
		p.Garden[haCell(t, st, "D4")] = "BA4"
		p.Garden[haCell(t, st, "S5")] = "HO1"
		p.Spots[3] = true // HO
		p.Markers[4], p.Ducats = -8, 5
		q := &s.Players[b]
		q.Ducats, q.Cards = 2, []string{}
	})
	h.mails()
	return a, b
}

// Issue 21 through the mail pipeline, in four languages (HA §10.1, TV-03):
// a whole turn whose second line differs from the forced choice is refused
// with the true reason; the same turn with the line agreeing is echoed as
// agreed (done), never refused or dropped; a line queued for a later turn
// that can no longer be played is told to its owner, with the reason, in
// the next mail.
func TestGoldenForcedChoiceEchoes(t *testing.T) {
	eachLanguage(t, "echoes", func(g *golden) {
		h := g.h
		haTV03(g.t, h, "h1", g.lang)
		// Bob queues his turn: after HO2 he has no ducat left, the
		// purchases end by themselves (HA-5.2.5) and his second BUY can
		// no longer be played.
		h.send("h1", bob, "GO 2\nBUY HO2 D1\nBUY WA1 D2", -1)
		g.take("Bob queues a turn of three lines", bob)
		h.send("h1", ann, "GO 12\nSCORE HO", -1)
		m := g.take("a line that differs from the forced choice: refused, with the true reason", ann)
		body := g.pick(m, ann).Body
		contains(g.t, body, "(HA-5.6.4)")
		lacks(g.t, body, "dropped", "scartato", "écarté", "vervallen")
		h.send("h1", ann, "GO 12\nSCORE BA", -1)
		ms := h.mails()
		g.record("the line agreeing with the forced choice: agreed, done", g.pick(ms, ann))
		body = g.pick(ms, ann).Body
		lacks(g.t, body, "REFUSED", "RESPINTO", "REFUSÉ", "GEWEIGERD", "dropped", "scartato", "écarté", "vervallen")
		g.record("Bob's queued turn played; the line that could not be: told, with why", g.pick(ms, bob))
		bb := g.pick(ms, bob).Body
		if !strings.Contains(bb, "BUY WA1 D2") {
			g.t.Errorf("%s: Bob is not told about his dropped line:\n%s", g.lang, bb)
		}
	})
}
