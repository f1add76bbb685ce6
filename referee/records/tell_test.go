package records

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tell"
)

// Rule (issue 25, the tell stage takes plain values): every field of a
// game, a seat and a log entry the tell stage reads is copied from the
// record (a field the tell stage gains and nobody fills fails here), and
// Told keeps exactly what the tell stage says a seat was told, the rest
// of the seat untouched. Generated: with and without a deadline x seats.
func TestTellValues(t *testing.T) {
	due := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	for _, withDeadline := range []bool{true, false} {
		for n := 1; n <= 3; n++ {
			g := &Game{ID: "g", Game: "dicebrewing", Status: StatusRunning, Seed: "seed", Commitment: "c", Nonce: 4}
			for i := 0; i < n; i++ {
				s := Seat{Name: "ann", Player: "Ann B", Address: "a@x.test", Lang: "fr", TZ: "Europe/Paris", Secret: "s3cr3t",
					State: SeatPlaying, Bot: "greedy", Notify: "digest", Format: "json", Receipts: "none",
					Seen: uint64(7 + i), StateSeq: 5, Thread: "<t>", LastMail: "<l>", HaltShown: "3 X",
					DigestDue: due, Held: &tell.HeldReceipt{Answering: "<a>"}, MissedTotal: 2,
					Before: []tell.Holder{{Name: "Old", Address: "o@x.test", Through: 3}}}
				if withDeadline {
					s.Deadline = &Deadline{Due: due.Add(time.Duration(i) * time.Hour)}
				}
				g.Seats = append(g.Seats, s)
			}
			tg := g.TellGame()
			for i, ts := range tg.Seats {
				if ts.Seen != g.Seats[i].Seen {
					t.Errorf("seat %d: seen %d, want %d", i, ts.Seen, g.Seats[i].Seen)
				}
				if withDeadline && !ts.Due.Equal(g.Seats[i].Deadline.Due) || !withDeadline && !ts.Due.IsZero() {
					t.Errorf("seat %d: due %v", i, ts.Due)
				}
			}
			vals := []any{*tg}
			if withDeadline {
				vals = append(vals, tg.Seats[0])
			}
			for _, v := range vals {
				rv := reflect.ValueOf(v)
				for i := 0; i < rv.NumField(); i++ {
					if rv.Field(i).IsZero() {
						t.Errorf("TellGame leaves %s.%s empty", rv.Type().Name(), rv.Type().Field(i).Name)
					}
				}
			}
			told := tell.Seat{Seen: 99, StateSeq: 98, Thread: "<t2>", LastMail: "<l2>", HaltShown: "", DigestDue: time.Time{}, Held: nil,
				Name: "not kept", Address: "not@kept", Lang: "nl", Secret: "not kept"}
			back, want := g.Seats[0], g.Seats[0]
			back.Told(told)
			want.Seen, want.StateSeq, want.Thread, want.LastMail, want.HaltShown, want.DigestDue, want.Held = 99, 98, "<t2>", "<l2>", "", time.Time{}, nil
			if !reflect.DeepEqual(back, want) {
				t.Errorf("Told:\n%+v\nwant\n%+v", back, want)
			}
		}
	}
	e := Entry{Seq: 3, At: due, Kind: EntryInput, Seat: 1, Vis: engine.Public, Text: "PASS", Params: map[string]any{"a": 1},
		Step: &engine.Step{Token: 2}}
	te := e.TellEntry()
	rv := reflect.ValueOf(te)
	for i := 0; i < rv.NumField(); i++ {
		if rv.Field(i).IsZero() {
			t.Errorf("TellEntry leaves %s empty", rv.Type().Field(i).Name)
		}
	}
	if te.Seq != 3 || te.Text != "PASS" || te.Step.Token != 2 {
		t.Errorf("TellEntry: %+v", te)
	}
}

// TestReaderSeatLanguageElseEnglish: a seat reads its game in its own
// language, an observer (-1) or a seat the game does not have in
// English; every reader knows the game and the seats' names. Varied over
// seat counts and languages.
func TestReaderSeatLanguageElseEnglish(t *testing.T) {
	langs := []string{"it", "en", "fr", "nl"}
	for n := 0; n <= 5; n++ {
		g := &Game{ID: "g1", Game: "fromage"}
		for i := range n {
			g.Seats = append(g.Seats, Seat{Name: fmt.Sprintf("P%d", i), Lang: langs[(i+n)%len(langs)]})
		}
		for seat := -1; seat <= n; seat++ {
			rd := g.Reader(seat)
			want := "en"
			if seat >= 0 && seat < n {
				want = g.Seats[seat].Lang
			}
			if rd.Lang != want || rd.Seat != seat || rd.Game != "fromage" || !slices.Equal(rd.Seats, g.Names()) {
				t.Errorf("%d seats, seat %d: reader %+v, want language %s", n, seat, rd, want)
			}
		}
	}
}
