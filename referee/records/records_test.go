package records

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
)

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// game is a record with every kind of field set, its table any compact
// JSON (the engine's own bytes, as the core stores them).
func game(id string, table string) *Game {
	at := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	g := &Game{ID: id, Game: "toy", Status: StatusRunning, Organiser: "org@example.test", Seed: "s", Players: 2,
		Options: map[string]string{"k": "v"}, Created: at, Started: at.Add(time.Hour), Nonce: 3, Steps: 7,
		Seats: []Seat{
			{Name: "Ann", Address: "Ann@Example.test", Lang: "it", State: SeatPlaying, Notify: DefaultNotify,
				Deadline: &Deadline{Kind: "move", Due: at.Add(48 * time.Hour), Reminders: []time.Time{at}}},
			{Name: "Bob", Player: "Bobby", Address: "bob@example.test", Lang: "en", State: SeatPlaying, Bot: "random"},
		}}
	if table != "" {
		g.Table = json.RawMessage(table)
	}
	return g
}

// TestEncodeGame: the record written with the table appended as it is
// decodes to the same game as encoding/json's own encoding, with and
// without a table, and is as long.
func TestEncodeGame(t *testing.T) {
	for _, table := range []string{"", `{"state":{"a":[1,2,3]},"queue":null}`, `[]`, `"x"`} {
		g := game("g1", table)
		mine, err := EncodeGame(g)
		if err != nil {
			t.Fatal(err)
		}
		if string(g.Table) != table {
			t.Fatalf("EncodeGame changed the table: %s", g.Table)
		}
		theirs, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != len(theirs) || !json.Valid(mine) {
			t.Fatalf("table %q: %d bytes, encoding/json %d:\n%s", table, len(mine), len(theirs), mine)
		}
		a, err := DecodeGame("g1", mine)
		if err != nil {
			t.Fatal(err)
		}
		var b Game
		if err := json.Unmarshal(theirs, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*a, b) {
			t.Errorf("table %q: decodes to\n%+v\nnot\n%+v", table, *a, b)
		}
	}
	if _, err := DecodeGame("bad", []byte("{")); err == nil {
		t.Error("a broken record decoded")
	}
}

// TestSaveLoadAndHeads: a saved game loads whole, EachGameHead gives every
// game in id order without its table, and the game indexes hold what
// IndexOf says (status, organiser, the seats' addresses in lower case).
func TestSaveLoadAndHeads(t *testing.T) {
	db := openStore(t)
	ids := []string{"g10", "g2", "a1"}
	err := db.Update(func(tx *store.Tx) error {
		for i, id := range ids {
			if err := SaveGame(tx, game(id, fmt.Sprintf(`{"n":%d}`, i))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *store.Tx) error {
		for i, id := range ids {
			g, err := LoadGame(tx, id)
			if err != nil {
				return err
			}
			if want := game(id, fmt.Sprintf(`{"n":%d}`, i)); !reflect.DeepEqual(g, want) {
				t.Errorf("%s: loaded\n%+v\nnot\n%+v", id, g, want)
			}
			ix, ok, err := tx.GameIndexOf(id)
			if err != nil || !ok {
				t.Fatalf("%s: no index (%v)", id, err)
			}
			if want := IndexOf(g); !reflect.DeepEqual(ix, want) {
				t.Errorf("%s: index %+v, want %+v", id, ix, want)
			}
			if want := []string{"ann@example.test", "bob@example.test"}; !reflect.DeepEqual(IndexOf(g).Addresses, want) {
				t.Errorf("%s: addresses %v", id, IndexOf(g).Addresses)
			}
		}
		var got []string
		err := EachGameHead(tx, func(g *Game) error {
			if g.Table != nil {
				t.Errorf("%s: a head with a table", g.ID)
			}
			want := game(g.ID, "")
			if !reflect.DeepEqual(g, want) {
				t.Errorf("%s: head\n%+v\nnot\n%+v", g.ID, g, want)
			}
			got = append(got, g.ID)
			return nil
		})
		if fmt.Sprint(got) != "[a1 g10 g2]" {
			t.Errorf("heads in the order %v", got)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPlayersAndLog: a player's record and a game's log entries come back
// as written, each entry with its sequence number.
func TestPlayersAndLog(t *testing.T) {
	db := openStore(t)
	p := &Player{Address: "ann@example.test", Name: "Ann", Lang: "fr", Secret: "tok", Observing: []string{"g1"}}
	g := game("g1", "")
	in := []Entry{
		{Kind: EntryStart, Seat: -1, Vis: engine.Public, Params: map[string]any{"order": []any{"Ann", "Bob"}}},
		{Kind: EntryInput, Seat: 1, Text: "PASS"},
		{Kind: EntryEnd, Seat: -1, Params: map[string]any{"seed": "s"}},
	}
	err := db.Update(func(tx *store.Tx) error {
		if err := SavePlayer(tx, p); err != nil {
			return err
		}
		for _, e := range in {
			if _, err := AppendEntry(tx, g, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *store.Tx) error {
		got, err := LoadPlayer(tx, p.Address)
		if err != nil || !reflect.DeepEqual(got, p) {
			t.Errorf("player %+v (%v), want %+v", got, err, p)
		}
		for from := uint64(0); from <= 4; from++ {
			es, err := Entries(tx, "g1", from)
			if err != nil {
				return err
			}
			skip := max(int(from)-1, 0)
			if want := len(in) - min(skip, len(in)); len(es) != want {
				t.Fatalf("from %d: %d entries, want %d", from, len(es), want)
			}
			for i, e := range es {
				if e.Seq != uint64(skip+i+1) || e.Kind != in[skip+i].Kind || e.Text != in[skip+i].Text {
					t.Errorf("from %d: entry %d is %+v", from, i, e)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSeatFacts: the facts the core asks of a record.
func TestSeatFacts(t *testing.T) {
	g := game("g1", "")
	for addr, want := range map[string]int{"ann@example.test": 0, "BOB@example.TEST": 1, "cid@example.test": -1, "": -1} {
		if got := g.SeatOfAddress(addr); got != want {
			t.Errorf("SeatOfAddress(%q) = %d, want %d", addr, got, want)
		}
	}
	if got := fmt.Sprint(g.Names()); got != "[Ann Bob]" {
		t.Errorf("Names %s", got)
	}
	if g.Seats[0].Greeting() != "Ann" || g.Seats[1].Greeting() != "Bobby" {
		t.Errorf("greetings %q %q", g.Seats[0].Greeting(), g.Seats[1].Greeting())
	}
	for _, st := range []string{SeatInvited, SeatJoined, SeatDeclined, SeatPlaying, SeatResigned, SeatKicked} {
		g.Seats[1].State = st
		want := 1
		if st == SeatJoined || st == SeatPlaying {
			want = 2
		}
		if g.Joined() != want || g.Seats[1].Active() != (st == SeatPlaying) {
			t.Errorf("seat %s: %d joined, active %v", st, g.Joined(), g.Seats[1].Active())
		}
	}
	for name, want := range map[string]string{"ann": "ann2", "Cid": "Cid", "": "player", "  Bob \r\n": "Bob2"} {
		if got := g.UniqueName(name); got != want {
			t.Errorf("UniqueName(%q) = %q, want %q", name, got, want)
		}
	}
	g.Seats = append(g.Seats, Seat{Name: "ann2"})
	if got := g.UniqueName("Ann"); got != "Ann3" {
		t.Errorf("UniqueName(Ann) with ann2 taken = %q", got)
	}
	if !g.Seats[0].HeldDue().IsZero() {
		t.Error("a seat with no held receipt is due")
	}
}

// Rule (issue 22): an organiser's record keeps the language and time of
// their last mail, read back as written for every address (in the case
// given); an address with none, or a record that does not decode, reads
// as none. Generated: addresses x languages.
func TestOrganiserRecord(t *testing.T) {
	db := openStore(t)
	at := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	err := db.Update(func(tx *store.Tx) error {
		for i, addr := range []string{"org@example.test", "Org2@Example.TEST", "x@y"} {
			for j, lang := range []string{"en", "it", "fr", "nl", ""} {
				want := Organiser{Lang: lang, At: at.Add(time.Duration(i*10+j) * time.Minute)}
				if err := SaveOrganiser(tx, addr, want); err != nil {
					return err
				}
				got, ok := LoadOrganiser(tx, addr)
				if !ok || got.Lang != want.Lang || !got.At.Equal(want.At) {
					t.Errorf("%s %q: %+v %v, want %+v", addr, lang, got, ok, want)
				}
			}
		}
		if _, ok := LoadOrganiser(tx, "nobody@example.test"); ok {
			t.Errorf("an address with no record has one")
		}
		if err := tx.PutOrganiser("bad@example.test", []byte("{not json")); err != nil {
			return err
		}
		if _, ok := LoadOrganiser(tx, "bad@example.test"); ok {
			t.Errorf("a record that does not decode was read")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Rule (RESUME): every running deadline and its reminders move by the
// time the game was paused, nothing else; a seat without a deadline, or a
// deadline with no due time, stays so. Generated: shifts x seats with a
// deadline, without, with no due time.
func TestShiftDeadlines(t *testing.T) {
	at := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{0, time.Minute, 49 * time.Hour} {
		g := game("g1", "")
		g.Seats = append(g.Seats, Seat{Name: "Cy", Deadline: &Deadline{Kind: "move", Reminders: []time.Time{at, at.Add(time.Hour)}}})
		want := []time.Time{g.Seats[0].Deadline.Due.Add(d), g.Seats[0].Deadline.Reminders[0].Add(d)}
		g.ShiftDeadlines(d)
		if dl := g.Seats[0].Deadline; !dl.Due.Equal(want[0]) || !dl.Reminders[0].Equal(want[1]) {
			t.Errorf("shift %v: %v %v, want %v", d, dl.Due, dl.Reminders, want)
		}
		if g.Seats[1].Deadline != nil {
			t.Errorf("shift %v: a seat without a deadline got one", d)
		}
		if dl := g.Seats[2].Deadline; !dl.Due.IsZero() || !dl.Reminders[1].Equal(at.Add(time.Hour+d)) {
			t.Errorf("shift %v: a deadline not due: %v %v", d, dl.Due, dl.Reminders)
		}
	}
}
