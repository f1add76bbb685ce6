package engine_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
)

// tableRef is the table's encoding as encoding/json writes it with the
// state passed as a RawMessage: the bytes Table.MarshalJSON must give.
type tableRef struct {
	Game    string           `json:"game"`
	State   json.RawMessage  `json:"state"`
	Queues  [][]engine.Order `json:"queues"`
	Halts   []*engine.Halt   `json:"halts"`
	Expired []string         `json:"expired"`
	NextTag int              `json:"next_tag"`
	Asked   [][]engine.Asked `json:"asked,omitempty"`
	Forced  [][]string       `json:"forced,omitempty"`
}

// TestTableJSONIsSpliced: the spliced encoding of a table is byte for byte
// the one encoding/json writes, and reads back to the same bytes, at every
// move of random games of every registered game and seat count, with
// queued orders, halts, prompts and asked lists as play leaves them.
func TestTableJSONIsSpliced(t *testing.T) {
	playRandomTables(t, "splice", 25, 60, func(tb *engine.Table, game string, _, _ int, _ engine.Decision, _ string) bool {
		checkSplice(t, game, tb)
		return true
	}, func(tb *engine.Table, game string) { checkSplice(t, game, tb) })
}

// playRandomTables plays random games (seed) of every registered game at
// its least and most seats, at most moves moves each, the choices drawn
// from a PCG of the seat count and stream. Before each move it calls at
// with the table, the decision and the command about to be played (false
// ends the game there), and done with the table at the end of each game.
func playRandomTables(t *testing.T, seed string, stream uint64, moves int,
	at func(tb *engine.Table, game string, n, move int, d engine.Decision, cmd string) bool, done func(tb *engine.Table, game string)) {
	t.Helper()
	for _, g := range engine.Games() {
		info := g.Info()
		for _, n := range []int{info.MinPlayers, info.MaxPlayers} {
			seats := []string{"Ann", "Bob", "Cleo", "Dirk", "Eva", "Finn"}[:n]
			tb, _, _, err := engine.NewTable(g, engine.Config{Seats: seats, Seed: seed})
			if err != nil {
				t.Fatalf("%s/%d: %v", info.Name, n, err)
			}
			rng := rand.New(rand.NewPCG(uint64(n), stream))
			for move := 0; move < moves && tb.State.Result() == nil; move++ {
				w := tb.Waiting()
				if len(w) == 0 {
					break
				}
				d := w[rng.IntN(len(w))]
				opts := tb.State.Legal(d)
				if len(opts) == 0 {
					break
				}
				cmd := opts[rng.IntN(len(opts))].Cmd
				if !at(tb, info.Name, n, move, d, cmd) {
					break
				}
				if _, err := tb.Submit(d.Seat, engine.ParseScript(cmd), tb.Token()); err != nil {
					t.Fatalf("%s: %v", info.Name, err)
				}
			}
			if done != nil {
				done(tb, info.Name)
			}
		}
	}
}

func checkSplice(t *testing.T, game string, tb *engine.Table) {
	t.Helper()
	got, err := tb.MarshalJSON()
	if err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	st, err := json.Marshal(tb.State)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(tableRef{Game: tb.State.Head().Game, State: st, Queues: tb.Queues, Halts: tb.Halts,
		Expired: tb.Expired, NextTag: tb.NextTag, Asked: tb.Asked, Forced: tb.Forced})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s move %d: spliced table differs:\n got %.300s\nwant %.300s", game, tb.Token(), got, want)
	}
	back, err := engine.LoadTable(got, nil)
	if err != nil {
		t.Fatalf("%s: LoadTable: %v", game, err)
	}
	again, _ := back.MarshalJSON()
	if !bytes.Equal(again, got) {
		t.Fatalf("%s move %d: the table does not read back to its bytes", game, tb.Token())
	}
}

// TestLoadedTableAsksWhatWasAsked_Issue25: a table is stored without its
// prompts, and the table read back asks every seat what the table in play
// asked it (the same prompts, option lists, halts, sealed answers, and
// the same legal lists), at every move of random games of every game and
// seat count; the bytes hold no "prompts".
func TestLoadedTableAsksWhatWasAsked_Issue25(t *testing.T) {
	checked := 0
	check := func(tb *engine.Table, game string) {
		raw, err := tb.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(`"prompts"`)) {
			t.Fatalf("%s move %d: the stored table holds its prompts", game, tb.Token())
		}
		back, err := engine.LoadTable(raw, nil)
		if err != nil {
			t.Fatalf("%s: LoadTable: %v", game, err)
		}
		want, _ := json.Marshal(tb.Prompts)
		got, _ := json.Marshal(back.Prompts)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s move %d: the table read back asks\n%s\nwhere the table in play asked\n%s", game, tb.Token(), got, want)
		}
		for s := range tb.Prompts {
			wl, _ := json.Marshal(tb.Legal(s))
			gl, _ := json.Marshal(back.Legal(s))
			if !bytes.Equal(gl, wl) {
				t.Fatalf("%s move %d seat %d: legal lists differ", game, tb.Token(), s)
			}
		}
		checked++
	}
	for _, stream := range []uint64{25, 26, 27} {
		playRandomTables(t, "asked", stream, 200, func(tb *engine.Table, game string, _, _ int, _ engine.Decision, _ string) bool {
			check(tb, game)
			return true
		}, check)
	}
	t.Logf("%d tables read back", checked)
}

// TestTableStoredWithPromptsReadsThem_Issue25: a table stored before its
// prompts were left out (with "prompts") reads them as stored, not asked
// again (each stored prompt marked here by a count of its own).
func TestTableStoredWithPromptsReadsThem_Issue25(t *testing.T) {
	playRandomTables(t, "old", 3, 30, func(tb *engine.Table, game string, _, move int, _ engine.Decision, _ string) bool {
		st, _ := json.Marshal(tb.State)
		stored := make([]*engine.Prompt, len(tb.Prompts))
		for i, p := range tb.Prompts {
			if p != nil {
				c := *p
				c.Count = 1000 + i
				stored[i] = &c
			}
		}
		old, err := json.Marshal(struct {
			Game    string           `json:"game"`
			State   json.RawMessage  `json:"state"`
			Queues  [][]engine.Order `json:"queues"`
			Halts   []*engine.Halt   `json:"halts"`
			Prompts []*engine.Prompt `json:"prompts"`
			Expired []string         `json:"expired"`
			NextTag int              `json:"next_tag"`
			Asked   [][]engine.Asked `json:"asked,omitempty"`
			Forced  [][]string       `json:"forced,omitempty"`
		}{tb.State.Head().Game, st, tb.Queues, tb.Halts, stored, tb.Expired, tb.NextTag, tb.Asked, tb.Forced})
		if err != nil {
			t.Fatal(err)
		}
		back, err := engine.LoadTable(old, nil)
		if err != nil {
			t.Fatalf("%s: LoadTable of the old form: %v", game, err)
		}
		want, _ := json.Marshal(stored)
		got, _ := json.Marshal(back.Prompts)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s move %d: the old form's prompts read back as %s, stored %s", game, move, got, want)
		}
		return true
	}, nil)
}
