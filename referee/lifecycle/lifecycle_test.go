package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/tell"
)

var t0 = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC) // a Monday

func newGame(n int, seed string) *records.Game {
	g := &records.Game{ID: "g1", Seed: seed, Status: records.StatusRunning, Policy: deadline.DefaultPolicy()}
	for i := range n {
		g.Seats = append(g.Seats, records.Seat{Name: fmt.Sprint("p", i), State: records.SeatPlaying})
	}
	return g
}

func TestGameIDs(t *testing.T) {
	for id, want := range map[string]bool{"g1": true, "ab": true, "a": false, "1a": false, "Ab": false, "a-b": false,
		"abcdefghijklmnopqrstuvwx": true, "abcdefghijklmnopqrstuvwxy": false, "": false} {
		if ValidID(id) != want {
			t.Errorf("ValidID(%q) = %v", id, !want)
		}
	}
	taken := map[string]bool{"g3": true, "g4": true, "g6": true}
	for count, want := range map[int]string{0: "g1", 2: "g5", 3: "g5", 5: "g7", 9: "g10"} {
		if got := NewID(count, func(id string) bool { return taken[id] }); got != want || !ValidID(got) {
			t.Errorf("NewID(%d) = %s, want %s", count, got, want)
		}
	}
}

// TestDrawSeatOrder: the order is a permutation drawn from the seed alone
// (the same seed, the same order), perm[new] = old, and an ordered game
// keeps its seats where they are.
func TestDrawSeatOrder(t *testing.T) {
	moved := 0
	for n := 1; n <= 6; n++ {
		for s := range 20 {
			seed := fmt.Sprint("seed", s)
			for _, ordered := range []bool{false, true} {
				g := newGame(n, seed)
				g.Ordered = ordered
				before := slices.Clone(g.Names())
				perm := DrawSeatOrder(g)
				again := newGame(n, seed)
				again.Ordered = ordered
				DrawSeatOrder(again)
				if !slices.Equal(g.Names(), again.Names()) {
					t.Fatalf("n=%d %s: two orders from one seed", n, seed)
				}
				for nw, old := range perm {
					if g.Seats[nw].Name != before[old] {
						t.Fatalf("n=%d %s: perm %v does not say where the seats went (%v)", n, seed, perm, g.Names())
					}
				}
				sorted := slices.Sorted(slices.Values(perm))
				for i := range sorted {
					if sorted[i] != i {
						t.Fatalf("perm %v is not a permutation", perm)
					}
				}
				if ordered && !slices.Equal(g.Names(), before) {
					t.Errorf("n=%d: an ordered game's seats moved", n)
				}
				if !ordered && !slices.Equal(g.Names(), before) {
					moved++
				}
			}
		}
	}
	if moved < 50 {
		t.Errorf("only %d of 120 draws moved a seat", moved)
	}
}

// TestClocks: over every mode, whether the seat acted, and its old clock
// (none, the same decision, another), which seats get a (new) clock, keep
// theirs or lose it.
func TestClocks(t *testing.T) {
	pol, err := deadline.ParsePolicy("24h remind=50% misses=3 vacation=10")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []engine.Mode{engine.Sequential, engine.Simultaneous} {
		for _, acted := range []bool{false, true} {
			for _, old := range []string{"none", "same", "otherkind", "otherslot"} {
				name := fmt.Sprintf("mode=%v acted=%v old=%s", mode, acted, old)
				g := newGame(4, "s")
				g.Policy = pol
				g.Seats[2].Bot = "random"
				g.Seats[3].State = records.SeatResigned
				d := engine.Decision{Seat: 0, Mode: mode, Kind: "move", Slot: "main"}
				earlier := t0.Add(-time.Hour)
				var oldDL *records.Deadline
				switch old {
				case "same":
					oldDL = &records.Deadline{Kind: "move", Slot: "main", Start: earlier}
				case "otherkind":
					oldDL = &records.Deadline{Kind: "bid", Slot: "main", Start: earlier}
				case "otherslot":
					oldDL = &records.Deadline{Kind: "move", Slot: "side", Start: earlier}
				}
				g.Seats[0].Deadline = oldDL
				g.Seats[1].Deadline = &records.Deadline{Kind: "move", Start: earlier} // not waited for
				waiting := []engine.Decision{d, {Seat: 2, Kind: "move"}, {Seat: 3, Kind: "move"}}
				asked := Clocks(g, waiting, func(s int) bool { return acted && s == 0 }, t0)
				keep := old == "same" && !acted || mode == engine.Simultaneous && old != "none" && old != "otherslot"
				if keep {
					if len(asked) != 0 || g.Seats[0].Deadline != oldDL {
						t.Errorf("%s: the clock restarted (asked %v)", name, asked)
					}
				} else {
					dl := g.Seats[0].Deadline
					if !slices.Equal(asked, []int{0}) || dl == nil || !dl.Start.Equal(t0) || !dl.Due.Equal(t0.Add(24*time.Hour)) ||
						len(dl.Reminders) != 1 || !dl.Reminders[0].Equal(t0.Add(12*time.Hour)) {
						t.Errorf("%s: asked %v, clock %+v", name, asked, dl)
					}
				}
				for i := 1; i < 4; i++ {
					if g.Seats[i].Deadline != nil {
						t.Errorf("%s: seat %d (not waited for, a bot, resigned) has a clock", name, i)
					}
				}
			}
		}
	}
	// No deadline for the kind: a clock without a due time; a vacation
	// pushes the due time within the budget.
	g := newGame(2, "s")
	g.Policy, _ = deadline.ParsePolicy("0h vacation=3")
	g.Seats[1].Vacation = []records.Vacation{{From: t0, To: t0.Add(48 * time.Hour)}}
	Clocks(g, []engine.Decision{{Seat: 0, Kind: "move"}}, func(int) bool { return false }, t0)
	if dl := g.Seats[0].Deadline; dl == nil || !dl.Due.IsZero() {
		t.Errorf("no-deadline policy: clock %+v", dl)
	}
	g.Policy, _ = deadline.ParsePolicy("24h vacation=3")
	Clocks(g, []engine.Decision{{Seat: 1, Kind: "move"}}, func(int) bool { return false }, t0)
	if dl := g.Seats[1].Deadline; dl == nil || !dl.Due.After(t0.Add(24*time.Hour)) || g.Seats[1].VacationUsed <= 0 {
		t.Errorf("vacation: clock %+v, used %v", dl, g.Seats[1].VacationUsed)
	}
}

// TestTickAndWake: over a day in steps, what falls due is due once, when
// Wake said the game would need attention.
func TestTickAndWake(t *testing.T) {
	for _, notify := range []string{"turn", "digest"} {
		for _, held := range []bool{false, true} {
			g := newGame(1, "s")
			s := &g.Seats[0]
			s.Notify = notify
			s.Deadline = &records.Deadline{Kind: "move", Start: t0, Due: t0.Add(10 * time.Hour),
				Reminders: []time.Time{t0.Add(2 * time.Hour), t0.Add(6 * time.Hour)}}
			if notify == "digest" {
				s.DigestDue = t0.Add(3 * time.Hour)
			}
			if held {
				s.Held = &tell.HeldReceipt{Due: t0.Add(90 * time.Minute)}
			}
			var events []string
			for now := t0; now.Before(t0.Add(12 * time.Hour)); now = now.Add(30 * time.Minute) {
				wake := Wake(g)
				due := Tick(s, now)
				if due != (Due{}) && (wake.IsZero() || now.Before(wake)) {
					t.Errorf("%s held=%v: %+v due at %s, Wake said %s", notify, held, due, now.Format("15:04"), wake.Format("15:04"))
				}
				if due.Expired && (due.Reminder || due.Digest || s.Deadline != nil) {
					t.Errorf("expired with %+v, clock %+v", due, s.Deadline)
				}
				if due.Digest {
					s.DigestDue = now.Add(24 * time.Hour)
				}
				if due != (Due{}) {
					events = append(events, fmt.Sprintf("%s %+v", now.Sub(t0), due))
				}
			}
			want := []string{"2h0m0s {Expired:false Reminder:true Digest:false}"}
			if notify == "digest" {
				want = append(want, "3h0m0s {Expired:false Reminder:false Digest:true}")
			}
			want = append(want, "6h0m0s {Expired:false Reminder:true Digest:false}", "10h0m0s {Expired:true Reminder:false Digest:false}")
			if !slices.Equal(events, want) {
				t.Errorf("%s held=%v: events\n%v\nwant\n%v", notify, held, events, want)
			}
			if w := Wake(g); notify == "turn" && !held && !w.IsZero() {
				t.Errorf("%s: wakes at %s with nothing due", notify, w)
			}
		}
	}
	g := newGame(1, "s")
	g.Seats[0].Deadline = &records.Deadline{Due: t0}
	for _, st := range []string{records.StatusForming, records.StatusPaused, records.StatusOver, records.StatusAborted} {
		g.Status = st
		if !Wake(g).IsZero() {
			t.Errorf("a %s game wakes", st)
		}
	}
}

// TestMissedAndBot: a human seat goes to the game's second bot (else
// "random") when its consecutive misses reach the limit, never before,
// never twice, never with no limit.
func TestMissedAndBot(t *testing.T) {
	for _, lim := range []int{0, 1, 3} {
		for _, bots := range [][]string{nil, {"random"}, {"random", "greedy"}} {
			s := &records.Seat{}
			pol := deadline.Policy{MissLimit: lim}
			var handed []int
			for miss := 1; miss <= 5; miss++ {
				if Missed(s, pol, bots) {
					handed = append(handed, miss)
				}
			}
			want := []int(nil)
			if lim > 0 {
				want = []int{lim}
			}
			if !slices.Equal(handed, want) || s.Missed != 5 || s.MissedTotal != 5 {
				t.Errorf("limit %d bots %v: to a bot at %v, missed %d/%d", lim, bots, handed, s.Missed, s.MissedTotal)
			}
			if wantBot := map[bool]string{true: BotName(bots), false: ""}[lim > 0]; s.Bot != wantBot {
				t.Errorf("limit %d bots %v: bot %q", lim, bots, s.Bot)
			}
		}
	}
	if BotName([]string{"random", "greedy"}) != "greedy" || BotName([]string{"x"}) != "random" || BotName(nil) != "random" {
		t.Error("BotName")
	}
}

func TestEnd(t *testing.T) {
	g := newGame(3, "s")
	for i := range g.Seats {
		g.Seats[i].Deadline = &records.Deadline{Due: t0}
	}
	if !End(g, t0) || g.Status != records.StatusOver || !g.Ended.Equal(t0) {
		t.Fatalf("End: %s %s", g.Status, g.Ended)
	}
	for _, s := range g.Seats {
		if s.Deadline != nil {
			t.Error("a clock runs after the end")
		}
	}
	if End(g, t0.Add(time.Hour)) || !g.Ended.Equal(t0) {
		t.Error("a game ended twice")
	}
}

// TestResultLineByPlace: the result line names every scored seat once,
// by place (ties keep the seats' order), with its score; Scores puts each
// total at its seat and ignores a seat out of range.
func TestResultLineByPlace(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for shift := range n {
			g := newGame(n, "r")
			res := &engine.Result{Rank: make([]int, n)}
			for i := range n {
				place := (i+shift)%n + 1
				if place == n && n > 2 {
					place = n - 1 // a tie for the last place
				}
				res.Rank[i] = place
				res.Scores = append(res.Scores, engine.Score{Seat: i, Total: 10 * (n - place)})
			}
			res.Scores = append(res.Scores, engine.Score{Seat: n + 3, Total: 99})
			var want []string
			for place := 1; place <= n; place++ {
				for i := range n {
					if res.Rank[i] == place {
						want = append(want, fmt.Sprintf("%d. p%d %d", place, i, 10*(n-place)))
					}
				}
			}
			if got := ResultLine(g, res); got != strings.Join(want, " / ") {
				t.Fatalf("%d seats, shift %d: %q, want %q", n, shift, got, strings.Join(want, " / "))
			}
			sc := Scores(res, n)
			for i := range n {
				if sc[i] != 10*(n-res.Rank[i]) {
					t.Fatalf("%d seats: scores %v", n, sc)
				}
			}
		}
	}
}
