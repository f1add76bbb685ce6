package settle

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/lifecycle"
	"github.com/pbem-referee/referee/referee/records"
)

// fakeGame is one game of a unit of work in memory, on a real table.
type fakeGame struct {
	g       *records.Game
	eg      engine.Game
	tb      *engine.Table
	entries []records.Entry
	notes   []string
	org     []string
	marks   map[Mark][]int
	acted   map[int]bool
	ended   bool
}

func (f *fakeGame) Record() *records.Game { return f.g }
func (f *fakeGame) Engine() engine.Game   { return f.eg }
func (f *fakeGame) Table() *engine.Table  { return f.tb }
func (f *fakeGame) Log(e records.Entry) error {
	f.entries = append(f.entries, e)
	return nil
}
func (f *fakeGame) LogReport(rep *engine.Report) error {
	for i := range rep.Steps {
		s := rep.Steps[i]
		f.entries = append(f.entries, records.Entry{Kind: records.EntryStep, Seat: s.Seat, Step: &s})
		if s.How != "auto" && s.How != "default" {
			f.acted[s.Seat] = true
		}
	}
	return nil
}
func (f *fakeGame) Announce(seats []int, name string, kv ...any) { f.notes = append(f.notes, name) }
func (f *fakeGame) ToOrganiser(name string, kv ...any)           { f.org = append(f.org, name) }
func (f *fakeGame) Submit(seat int, orders []engine.Order, token int) (*engine.Report, error) {
	rep, err := f.tb.Submit(seat, orders, token)
	if err != nil {
		return nil, err
	}
	return rep, f.LogReport(rep)
}
func (f *fakeGame) Dropped(rep *engine.Report) {}
func (f *fakeGame) Acted(seat int) bool        { return f.acted[seat] }
func (f *fakeGame) Mark(seat int, m Mark)      { f.marks[m] = append(f.marks[m], seat) }
func (f *fakeGame) Ended() bool                { return f.ended }
func (f *fakeGame) End()                       { f.ended = true }

func (f *fakeGame) count(k string) int {
	n := 0
	for _, e := range f.entries {
		if e.Kind == k {
			n++
		}
	}
	return n
}

var t0 = time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)

// started is a running game of eg with n seats, bots on the seats bots
// says.
func started(t *testing.T, eg engine.Game, n int, seed string, bot func(seat int) bool) *fakeGame {
	t.Helper()
	g := &records.Game{ID: "g1", Game: eg.Info().Name, Status: records.StatusRunning, Seed: seed, Players: n,
		Policy: deadline.DefaultPolicy(), Started: t0, Organiser: "org@example.org"}
	for i := range n {
		s := records.Seat{Name: fmt.Sprintf("P%d", i), Address: fmt.Sprintf("p%d@example.org", i), State: records.SeatPlaying, Notify: records.DefaultNotify}
		if bot(i) {
			s.Bot = lifecycle.BotName(eg.Info().Bots)
		}
		g.Seats = append(g.Seats, s)
	}
	tb, _, _, err := engine.NewTable(eg, engine.Config{Seats: g.Names(), Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return &fakeGame{g: g, eg: eg, tb: tb, marks: map[Mark][]int{}, acted: map[int]bool{}}
}

type layout struct {
	eg engine.Game
	n  int
}

func layouts(t *testing.T) (out []layout) {
	for _, eg := range engine.Games() {
		for n := eg.Info().MinPlayers; n <= eg.Info().MaxPlayers; n++ {
			out = append(out, layout{eg, n})
		}
	}
	if len(out) < 4 {
		t.Fatalf("%d layouts: the check reads nothing", len(out))
	}
	return out
}

func steps(f *fakeGame) (out []string) {
	for _, e := range f.entries {
		if e.Step != nil {
			out = append(out, fmt.Sprintf("%d:%s", e.Step.Seat, e.Step.Cmd))
		}
	}
	return out
}

// TestSettleBotsFinishTheGame: with a bot on every seat, settling plays
// the game to its end, the same moves from the same seed, and ends it
// once: one end entry, every seat told, the organiser's note.
func TestSettleBotsFinishTheGame(t *testing.T) {
	for _, l := range layouts(t) {
		name := fmt.Sprintf("%s/%d", l.eg.Info().Name, l.n)
		var first []string
		runs := 1
		if l.n == l.eg.Info().MinPlayers {
			runs = 2 // the same moves again, at one seat count a game (the runs are long)
		}
		for run := range runs {
			f := started(t, l.eg, l.n, "seed-"+name, func(int) bool { return true })
			if err := Settle(f, t0); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if f.tb.State.Result() == nil || !f.ended || f.g.Status != records.StatusOver || f.count(records.EntryEnd) != 1 ||
				len(f.marks[Force]) != l.n || !slices.Equal(f.org, []string{"org_end"}) {
				t.Fatalf("%s: not ended once: %s, %d end entries, forced %v, org %v", name, f.g.Status, f.count(records.EntryEnd), f.marks[Force], f.org)
			}
			if err := Settle(f, t0); err != nil || f.count(records.EntryEnd) != 1 || len(f.org) != 1 {
				t.Fatalf("%s: settling again ended it again", name)
			}
			if run == 0 {
				first = steps(f)
			} else if !slices.Equal(first, steps(f)) {
				t.Fatalf("%s: the bots played differently from the same seed", name)
			}
		}
	}
}

// TestSettleWaitsForHumans: without bots, settling plays nothing and
// starts the clock of every seat the game waits for (asked).
func TestSettleWaitsForHumans(t *testing.T) {
	for _, l := range layouts(t) {
		f := started(t, l.eg, l.n, "humans", func(int) bool { return false })
		if err := Settle(f, t0); err != nil {
			t.Fatal(err)
		}
		var waiting []int
		for _, d := range f.tb.Waiting() {
			waiting = append(waiting, d.Seat)
		}
		asked := slices.Clone(f.marks[Asked])
		slices.Sort(asked)
		waiting = slices.Compact(slices.Sorted(slices.Values(waiting)))
		if len(f.entries) != 0 || f.ended || len(asked) == 0 || !slices.Equal(asked, waiting) {
			t.Fatalf("%s/%d: %d entries, asked %v, waiting %v", l.eg.Info().Name, l.n, len(f.entries), asked, waiting)
		}
		for _, i := range asked {
			if f.g.Seats[i].Deadline == nil {
				t.Fatalf("%s/%d: seat %d asked without a clock", l.eg.Info().Name, l.n, i)
			}
		}
	}
}

// TestTickMissedDeadlinesGoToABot: a deadline that passed is the default
// move, counted and told to the seat; at the policy's limit the seat is
// a bot's, logged, announced and told to the organiser.
func TestTickMissedDeadlinesGoToABot(t *testing.T) {
	for _, l := range layouts(t) {
		name := fmt.Sprintf("%s/%d", l.eg.Info().Name, l.n)
		f := started(t, l.eg, l.n, "late", func(int) bool { return false })
		f.g.Policy.MissLimit = 2
		now := t0
		for round := 0; round < 50 && f.count(records.EntryBot) == 0 && f.tb.State.Result() == nil; round++ {
			if err := Settle(f, now); err != nil {
				t.Fatal(err)
			}
			if round == 0 {
				if err := Tick(f, now); err != nil || f.count(records.EntryMissed) != 0 {
					t.Fatalf("%s: a tick before the deadline expired a seat", name)
				}
			}
			now = lifecycle.Wake(f.g)
			if now.IsZero() {
				t.Fatalf("%s: no clock to wait for", name)
			}
			clear(f.acted)
			if err := Tick(f, now); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		missed := f.count(records.EntryMissed)
		if missed < 2 || f.count(records.EntryBot) != 1 || !slices.Contains(f.notes, "missed") || !slices.Contains(f.notes, "bot") || !slices.Contains(f.org, "org_bot") {
			t.Fatalf("%s: %d missed, %d bot entries, notes %v, org %v", name, missed, f.count(records.EntryBot), f.notes, f.org)
		}
		bots := 0
		for _, s := range f.g.Seats {
			if s.Bot != "" {
				bots++
				if s.Missed < 2 {
					t.Fatalf("%s: %s is a bot's after %d missed moves", name, s.Name, s.Missed)
				}
			}
		}
		if bots != 1 {
			t.Fatalf("%s: %d seats went to a bot", name, bots)
		}
	}
}

// TestCloseTellsByWhy: a decided game is stopped, its clocks cleared and
// the decision logged; it is announced (with the seed) unless REPAIR
// stopped it (issue 24).
func TestCloseTellsByWhy(t *testing.T) {
	for why, note := range map[string]string{"repaired": "", "adjudicated": "adjudicated", "forfeit": "forfeited", "aborted": "aborted"} {
		for _, l := range layouts(t) {
			f := started(t, l.eg, l.n, "close", func(int) bool { return false })
			if err := Settle(f, t0); err != nil {
				t.Fatal(err)
			}
			if err := Close(f, t0.Add(time.Hour), why, "result", "1. P0 3"); err != nil {
				t.Fatal(err)
			}
			if f.g.Status != records.StatusAborted || !f.g.Ended.Equal(t0.Add(time.Hour)) || f.count(records.EntryOrg) != 1 {
				t.Fatalf("%s: %s, ended %v", why, f.g.Status, f.g.Ended)
			}
			for _, s := range f.g.Seats {
				if s.Deadline != nil {
					t.Fatalf("%s: a clock still runs", why)
				}
			}
			if (note == "" && len(f.notes) != 0) || (note != "" && !slices.Equal(f.notes, []string{note})) {
				t.Fatalf("%s: notes %v, want %q", why, f.notes, note)
			}
		}
	}
}

// TestAdjudicateScoresOrLetsBotsFinish: a game whose position scores is
// closed with that result, announced with the seed; one whose position
// does not is every seat a bot's (a paused game running again), and
// settling then plays it to its end.
func TestAdjudicateScoresOrLetsBotsFinish(t *testing.T) {
	scored, byBots := 0, 0
	for _, l := range layouts(t) {
		for _, paused := range []bool{false, true} {
			name := fmt.Sprintf("%s/%d", l.eg.Info().Name, l.n)
			f := started(t, l.eg, l.n, "adjudicate", func(int) bool { return false })
			if err := Settle(f, t0); err != nil {
				t.Fatal(err)
			}
			if paused {
				f.g.Status, f.g.PausedAt = records.StatusPaused, t0
			}
			res, line, err := Adjudicate(f, t0.Add(time.Hour))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if res != nil {
				scored++
				if f.g.Status != records.StatusAborted || line != lifecycle.ResultLine(f.g, res) || line == "" || !slices.Equal(f.notes, []string{"adjudicated"}) {
					t.Fatalf("%s: scored %q but %s, notes %v", name, line, f.g.Status, f.notes)
				}
				continue
			}
			byBots++
			if f.g.Status != records.StatusRunning || !f.g.PausedAt.IsZero() || len(f.entries) != 0 {
				t.Fatalf("%s: left to the bots but %s", name, f.g.Status)
			}
			for _, s := range f.g.Seats {
				if s.Bot != lifecycle.BotName(l.eg.Info().Bots) {
					t.Fatalf("%s: seat %s has no bot", name, s.Name)
				}
			}
			if err := Settle(f, t0.Add(time.Hour)); err != nil || !f.ended || f.g.Status != records.StatusOver {
				t.Fatalf("%s: the bots did not finish it (%v)", name, err)
			}
		}
	}
	t.Logf("%d adjudications scored, %d left to the bots", scored, byBots)
	if scored == 0 {
		t.Fatal("no game's position scored: the check reads nothing")
	}
}
