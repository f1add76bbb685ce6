package commands

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// fakeSeat is a Seat that records what a handler asked of the core.
type fakeSeat struct {
	seat     int
	seats    []SeatName
	playing  bool
	table    bool
	queued   []string
	offer    bool
	budget   bool // the vacation budget is spent
	now      time.Time
	zone     *time.Location
	cards    map[string]string // topic (upper case) -> card text
	words    map[string]string // HelpWord
	helps    map[string]bool   // HasHelp
	rules    map[string]string
	games    map[string]bool
	notes    []string
	said     []string
	sets     map[Setting]string
	changed  []string // every change asked: "resign", "relay ...", "vacation ...", "join", ...
	statusAs string
}

func newFakeSeat() *fakeSeat {
	return &fakeSeat{seat: 1, playing: true, table: true, queued: []string{"BUY 1"},
		seats: []SeatName{{Name: "Ann"}, {Name: "Bob"}, {Name: "Cy"}, {Name: "Dee", Declined: true}},
		now:   time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC), zone: time.UTC,
		cards: map[string]string{"HEADBREWER": "card Head Brewer", "MH": "card Malt House", "REROLL": "card Reroll"},
		words: map[string]string{"LAVORA": "PROCESS", "AIUTO": "HELP", "MASTRO": "HEADBREWER"},
		helps: map[string]bool{"PROCESS": true, "REROLL": true, "SAY": true, "HELP": true},
		rules: map[string]string{"R1": "R1: the first rule", "R2": "the second rule"},
		games: map[string]bool{"g2": true}, sets: map[Setting]string{}}
}

func (f *fakeSeat) GameID() string                     { return "g1" }
func (f *fakeSeat) Index() int                         { return f.seat }
func (f *fakeSeat) Seats() []SeatName                  { return f.seats }
func (f *fakeSeat) Playing() bool                      { return f.playing }
func (f *fakeSeat) Zone() *time.Location               { return f.zone }
func (f *fakeSeat) Now() time.Time                     { return f.now }
func (f *fakeSeat) Info(name string, _ map[string]any) { f.notes = append(f.notes, name) }
func (f *fakeSeat) Say(text string)                    { f.said = append(f.said, text) }
func (f *fakeSeat) Set(s Setting, v string) {
	f.sets[s] = v
	f.changed = append(f.changed, fmt.Sprint("set ", s, " ", v))
}
func (f *fakeSeat) Clear() (int, bool) {
	if !f.table {
		return 0, false
	}
	n := len(f.queued)
	f.queued = nil
	f.changed = append(f.changed, "clear")
	return n, true
}
func (f *fakeSeat) Undo() (string, bool) {
	if !f.table || len(f.queued) == 0 {
		return "", false
	}
	l := f.queued[len(f.queued)-1]
	f.queued = f.queued[:len(f.queued)-1]
	f.changed = append(f.changed, "undo")
	return l, true
}
func (f *fakeSeat) Resign() error { f.changed = append(f.changed, "resign"); return nil }
func (f *fakeSeat) Relay(to []int, all bool, text string) error {
	f.changed = append(f.changed, fmt.Sprint("relay ", to, " ", all, " ", text))
	return nil
}
func (f *fakeSeat) AddVacation(from, to time.Time) (*engine.RuleError, error) {
	if f.budget {
		return &engine.RuleError{Code: "vacation_budget"}, nil
	}
	f.changed = append(f.changed, "vacation "+from.Format(time.RFC3339)+" "+to.Format(time.RFC3339))
	return nil, nil
}
func (f *fakeSeat) ConfirmAbsence() (bool, *engine.RuleError, error) {
	if !f.offer {
		return false, nil, nil
	}
	f.offer = false
	rerr, err := f.AddVacation(f.now, f.now.Add(48*time.Hour))
	return true, rerr, err
}
func (f *fakeSeat) Join() error      { f.changed = append(f.changed, "join"); return nil }
func (f *fakeSeat) Decline() error   { f.changed = append(f.changed, "decline"); return nil }
func (f *fakeSeat) Status(full bool) { f.statusAs = fmt.Sprint("status ", full) }

// Arg reads the real argument words (templates/*/<lang>/args.txt).
func (f *fakeSeat) Arg(word string) string {
	s, err := templates.Load()
	if err != nil {
		panic(err)
	}
	return s.Arg("referee", "en", word)
}
func (f *fakeSeat) Help(topic string) string  { return "help " + topic }
func (f *fakeSeat) HasHelp(topic string) bool { return f.helps[topic] }
func (f *fakeSeat) HelpWord(topic string) string {
	if w, ok := f.words[topic]; ok {
		return w
	}
	return topic
}
func (f *fakeSeat) CardHelp(topic string) (string, bool) {
	t, ok := f.cards[Letters(topic)]
	return t, ok
}
func (f *fakeSeat) Rule(id string) (string, bool, error) {
	t, ok := f.rules[id]
	return t, ok, nil
}
func (f *fakeSeat) LogText(n int) (string, error) { return fmt.Sprint("log ", n), nil }
func (f *fakeSeat) Observe(game string) error {
	f.changed = append(f.changed, "observe "+game)
	return nil
}
func (f *fakeSeat) ListOpen() (string, error) { return "open games", nil }

// seatRow is the row of a seat keyword.
func seatRow(t *testing.T, kw string) *Row {
	t.Helper()
	rows := SeatRows()
	for i := range rows {
		if rows[i].Keyword == kw {
			return &rows[i]
		}
	}
	t.Fatalf("no seat row %s", kw)
	return nil
}

// runSeat runs a line through its row on a host; every error code the
// handler answers must be one its row lists (a row says what it may
// answer).
func runSeat(t *testing.T, f *fakeSeat, line string) *SeatCall {
	t.Helper()
	r := seatRow(t, strings.ToUpper(strings.Fields(line)[0]))
	c := NewSeatCall(f, r, line)
	if err := c.Run(); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	for _, e := range c.Errors {
		if !slices.Contains(r.Errors, e.Code) {
			t.Errorf("%s: answered %s, which its row does not list (%v)", line, e.Code, r.Errors)
		}
		if e.Code == "usage" && e.Params["usage"] != r.Usage {
			t.Errorf("%s: usage %v, want the row's %q", line, e.Params["usage"], r.Usage)
		}
	}
	return c
}

func codes(c *SeatCall) string {
	var out []string
	for _, e := range c.Errors {
		out = append(out, e.Code)
	}
	return strings.Join(out, ",")
}
