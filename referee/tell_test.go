package referee

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
)

// viewGame is a Dice Brewing game built without a store: the record, the
// table and the log (each entry through JSON, as the store gives it back)
// that the mail view reads.
type viewGame struct {
	t   *testing.T
	g   *Game
	eg  engine.Game
	tb  *engine.Table
	log []Entry
	r   *Renderer
	now time.Time
}

func newViewGame(t *testing.T, lang string) (*viewGame, *changes) {
	t.Helper()
	eg, err := engine.Lookup("dicebrewing")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	seat := func(name, lang string) Seat {
		return Seat{Name: name, Address: name + "@example.test", Lang: lang, Secret: "secret" + name, State: SeatPlaying,
			Notify: DefaultNotify, Format: "text"}
	}
	g := &Game{ID: "v1", Game: "dicebrewing", Status: StatusRunning, Seed: "view-seed", Commitment: "c0ffee",
		Players: 2, Seats: []Seat{seat("ann", lang), seat("bob", "en")}, Policy: DefaultPolicy()}
	tb, rep, setup, err := engine.NewTable(eg, engine.Config{Seats: g.names(), Seed: g.Seed})
	if err != nil {
		t.Fatal(err)
	}
	tb.HashSteps = true
	v := &viewGame{t: t, g: g, eg: eg, tb: tb, r: r, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	v.logEntry(Entry{Kind: EntryStart, Seat: -1, Vis: engine.Public, Setup: setup,
		Params: map[string]any{"order": g.names(), "commitment": g.Commitment}})
	v.logSteps(rep)
	ch := newChanges()
	ch.notes = append(ch.notes, note{Name: "start", Data: map[string]any{"order": g.names(), "commitment": g.Commitment,
		"policy": g.Policy.View()}})
	for i := range g.Seats {
		ch.seat(i).force = true
	}
	return v, &ch
}

// logEntry appends an entry as the store would give it back.
func (v *viewGame) logEntry(e Entry) {
	v.t.Helper()
	e.At = v.now
	raw, err := json.Marshal(e)
	if err != nil {
		v.t.Fatal(err)
	}
	var back Entry
	if err := json.Unmarshal(raw, &back); err != nil {
		v.t.Fatal(err)
	}
	back.Seq = uint64(len(v.log) + 1)
	v.log = append(v.log, back)
}

func (v *viewGame) logSteps(rep *engine.Report) {
	for i := range rep.Steps {
		s := rep.Steps[i]
		v.logEntry(Entry{Kind: EntryStep, Seat: s.Seat, Step: &s})
	}
}

// tell runs the mail view, checks that it changed nothing it was given
// and that it says the same the second time, and takes back the seats.
func (v *viewGame) tell(ch *changes) []*Outgoing {
	v.t.Helper()
	from := v.g.Seats[0].Seen
	for _, s := range v.g.Seats {
		from = min(from, s.Seen)
	}
	var log []Entry
	for _, e := range v.log {
		if e.Seq > from {
			log = append(log, e)
		}
	}
	before, err := json.Marshal(v.g)
	if err != nil {
		v.t.Fatal(err)
	}
	view := func() *toldGame {
		mv := &mailView{changes: ch, g: v.g, tb: v.tb, eg: v.eg, render: v.r, now: v.now, domain: "example.test", log: log}
		told, err := mv.mails()
		if err != nil {
			v.t.Fatal(err)
		}
		return told
	}
	told := view()
	if after, _ := json.Marshal(v.g); !bytes.Equal(before, after) {
		v.t.Fatalf("the mail view changed the game:\n%s\n%s", before, after)
	}
	if again := view(); !reflect.DeepEqual(told, again) {
		v.t.Fatalf("the mail view said two things:\n%+v\n%+v", told, again)
	}
	v.g.Seats, v.g.Nonce = told.Seats, told.Nonce
	return told.Mails
}

// TestMailViewGolden drives the tell stage alone (issue 13.3): the start
// of a game, a move answered with the other seat asked, and the seats'
// record of what they saw, in each language, with no store behind it.
func TestMailViewGolden(t *testing.T) {
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			gd := &golden{t: t, lang: lang}
			v, ch := newViewGame(t, lang)
			seats := func() {
				for i, s := range v.g.Seats {
					fmt.Fprintf(&gd.b, "-------- seat %d: seen %d, state %d, thread %s, last %s\n", i, s.Seen, s.StateSeq, s.Thread, s.LastMail)
				}
				fmt.Fprintf(&gd.b, "\n")
			}
			ms := v.tell(ch)
			if len(ms) != 2 {
				t.Fatalf("%d mails at the start, want 2", len(ms))
			}
			for _, m := range ms {
				gd.record("start, to "+m.To, m)
			}
			seats()

			// The first seat asked moves; the view answers it and tells
			// the other seat, now asked.
			d := v.tb.Waiting()[0]
			p := v.tb.Prompts[d.Seat]
			cmd := v.tb.State.Legal(p.Decision)[0].Cmd
			rep, err := v.tb.Submit(d.Seat, engine.ParseScript(cmd), v.tb.Token())
			if err != nil || rep.Rejected {
				t.Fatalf("%s: %v %+v", cmd, err, rep)
			}
			v.logEntry(Entry{Kind: EntryInput, Seat: d.Seat, Vis: engine.Only(d.Seat), Text: cmd,
				Params: map[string]any{"token": p.Token, "message_id": "<m1@players.test>"}})
			v.logSteps(rep)
			mv := newChanges()
			r := &reply{}
			for _, res := range rep.Results {
				r.Lines = append(r.Lines, replyLine{Status: LineStatus(res.Status), Text: res.Order.Text, Cmds: res.Cmds, Errors: res.Errors})
			}
			mv.seat(d.Seat).reply = r
			mv.seat(d.Seat).answering = "<m1@players.test>"
			mv.seat(d.Seat).acted = true
			for _, w := range v.tb.Waiting() {
				if w.Seat != d.Seat {
					mv.seat(w.Seat).asked = true
				}
			}
			ms = v.tell(&mv)
			if len(ms) == 0 {
				t.Fatal("no mail after a move")
			}
			for _, m := range ms {
				gd.record(fmt.Sprintf("after %s (%s), to %s", v.g.Seats[d.Seat].Name, cmd, m.To), m)
			}
			seats()
			gd.compare("view")
		})
	}
}
