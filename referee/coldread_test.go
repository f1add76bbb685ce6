package referee

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// TestColdReadAfterEveryMoveSameMails_Issue25: a game's record holds no
// engine prompts (engine.Table.MarshalJSON; engine.LoadTable asks the
// seats again), so whole bot games of every engine are played twice, once
// in one process with its decoded records kept (store/decoded.go), once
// with a new referee before every answer on a store that keeps none, so
// that every move reads the game from its stored bytes: every mail of the
// two runs is the same, byte for byte (but its bounce address, keyed by
// the store's own secret), and so is every record.
func TestColdReadAfterEveryMoveSameMails_Issue25(t *testing.T) {
	for _, game := range []string{"brewcrafters", "dicebrewing", "fromage", "heavenale"} {
		t.Run(game, func(t *testing.T) {
			warm, warmRecs := coldReadRun(t, game, false)
			cold, coldRecs := coldReadRun(t, game, true)
			if len(warm) != len(cold) || len(warm) < 20 {
				t.Fatalf("%d mails with the records kept, %d read cold", len(warm), len(cold))
			}
			for i := range warm {
				if !bytes.Equal(warm[i], cold[i]) {
					t.Fatalf("mail %d differs:\nkept %s\ncold %s", i, warm[i], cold[i])
				}
			}
			for i := range warmRecs {
				if !bytes.Equal(warmRecs[i], coldRecs[i]) {
					t.Fatalf("record after answer %d differs:\nkept %s\ncold %s", i, warmRecs[i], coldRecs[i])
				}
			}
			t.Logf("%d mails, %d answers", len(warm), len(warmRecs))
		})
	}
}

// coldReadRun plays a whole game of game between Ann and Bob with the
// greedy bot (every other answer by its number) and returns every mail sent (as JSON) and the game's stored
// record after each answer; cold: a new referee before every answer on a
// store that keeps no decoded records.
func coldReadRun(t *testing.T, game string, cold bool) (mails, recs [][]byte) {
	h := newHarnessStore(t, &store.Options{NoSync: true, NoDecodedCache: cold})
	h.org("NEW " + game + " id=g1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
	h.send("g1", ann, "JOIN", -1)
	h.send("g1", bob, "JOIN", -1)
	keep := func(ms []*Outgoing) {
		for _, m := range ms {
			// The bounce address is keyed by the store's own random
			// secret (mailmsg.BounceID), the one part of a mail that
			// differs between two stores.
			m.EnvelopeFrom = ""
			raw, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			mails = append(mails, raw)
		}
	}
	g := h.newBotGame("g1", 1, 25, 14)
	g.Mails = keep
	g.Before = func(*botTurn) bool {
		if cold {
			h.restart()
		}
		return false
	}
	// Every other answer by its number in the menu the seat was shown
	// (the prompt's options, which the stored table does not hold).
	g.Answer = func(tn *botTurn) string {
		if p := tn.Table.Prompts[tn.D.Seat]; tn.N%2 == 1 && p.Numbered {
			for i, o := range p.Options {
				if o.Cmd == tn.Line {
					return fmt.Sprint(i + 1)
				}
			}
		}
		return tn.Line
	}
	g.After = func(*botTurn, Outcome) {
		var raw []byte
		if err := h.db.View(func(tx *store.Tx) (err error) { raw, err = tx.Game("g1"); return err }); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, raw)
	}
	n := g.play()
	keep(h.mails())
	if st := h.game("g1").Status; st != StatusOver {
		t.Fatalf("the game is %s after %d answers", st, n)
	}
	return mails, recs
}

// TestOlderRecordReadAndRewritten_Issue25: a game whose record was stored
// before the prompts were left out (its table with "prompts") is read as
// stored, plays on (its next mail is the one of a game stored in the new
// form), and its next put writes the record in the new form.
func TestOlderRecordReadAndRewritten_Issue25(t *testing.T) {
	var mails [2][]byte
	for run, old := range []bool{false, true} {
		h := newHarnessStore(t, &store.Options{NoSync: true, NoDecodedCache: true})
		h.org("NEW dicebrewing id=g1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob")
		h.send("g1", ann, "JOIN", -1)
		h.send("g1", bob, "JOIN", -1)
		g := h.newBotGame("g1", 1, 7, 8)
		g.Moves = 6
		g.play()
		h.mails()
		if old {
			tb := h.table("g1")
			var m map[string]json.RawMessage
			rec := h.game("g1")
			if err := json.Unmarshal(rec.Table, &m); err != nil {
				t.Fatal(err)
			}
			if _, ok := m["prompts"]; ok {
				t.Fatal("the record in play holds its prompts")
			}
			m["prompts"], _ = json.Marshal(tb.Prompts)
			rec.Table, _ = json.Marshal(m)
			if err := h.db.Update(func(tx *store.Tx) error { return saveGame(tx, rec) }); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(h.game("g1").Table, []byte(`"prompts"`)) {
				t.Fatal("the older record was not stored")
			}
		}
		tn := h.botTurn("g1", g.bot, g.rng)
		if out := h.send("g1", tn.Addr, tn.Line, tn.Table.Token()); out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("the answer to the older record: %+v", out)
		}
		if bytes.Contains(h.game("g1").Table, []byte(`"prompts"`)) {
			t.Fatal("the record was not rewritten in the new form")
		}
		for _, m := range h.mails() {
			m.EnvelopeFrom = ""
			raw, _ := json.Marshal(m)
			mails[run] = append(mails[run], raw...)
		}
	}
	if !bytes.Equal(mails[0], mails[1]) || len(mails[0]) == 0 {
		t.Fatalf("the mails of the move differ:\nnew form %s\nolder %s", mails[0], mails[1])
	}
}
