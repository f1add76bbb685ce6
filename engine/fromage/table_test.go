package fromage

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The Table helpers of every game's tests (enginetest).
var (
	submit   = enginetest.Submit
	statuses = enginetest.Statuses
)

// FR-3.12, FR-6.4, P-1: a turn's plans stay sealed in the Table until every
// seat's answer is complete; then they are applied step by step, each step
// in the canonical resolution order, so simultaneous Order draws follow it.
func TestFR312SealedTableResolution(t *testing.T) {
	tb, _, _, err := engine.NewTable(Game{}, arrangeA(4))
	if err != nil {
		t.Fatal(err)
	}
	plans := map[int]string{
		2: "MAKE D7\nTAKE fruit order\nDONE",
		0: "GATHER 2 hard\nMAKE C03\nDONE",
		3: "GATHER 1 soft\nDONE",
		1: "MAKE F13\nDONE",
	}
	tb.Script("draw", "O01", "O02")
	s := tb.State.(*State)
	before, _ := json.Marshal(s)
	for k, seat := range []int{2, 0, 3} {
		rep := submit(t, tb, seat, plans[seat])
		if rep.Rejected || len(rep.Steps) != 0 {
			t.Fatalf("plan %d of seat %d: %s, %d steps applied", k, seat, statuses(rep), len(rep.Steps))
		}
		if !strings.HasPrefix(statuses(rep), "sealed") {
			t.Fatalf("seat %d: statuses %s", seat, statuses(rep))
		}
		if p := tb.Prompts[seat]; p == nil || !p.Complete {
			t.Fatalf("seat %d: prompt %+v", seat, p)
		}
		if after, _ := json.Marshal(tb.State); string(after) != string(before) {
			t.Fatalf("the state changed before every plan was in")
		}
	}
	rep := submit(t, tb, 1, plans[1])
	if len(rep.Revealed) == 0 {
		t.Fatalf("nothing revealed: %+v", rep)
	}
	s = tb.State.(*State)
	if s.Turn != 2 {
		t.Fatalf("turn %d after all plans", s.Turn)
	}
	// Applied step by step, each step in rank order P0, P1, P2, P3.
	var order []string
	for _, st := range rep.Steps {
		if st.How == "sealed" || st.How == "auto" {
			order = append(order, fmt.Sprintf("P%d:%s", st.Seat, strings.Fields(st.Cmd)[0]))
		}
	}
	want := "P0:GATHER P1:MAKE P2:MAKE P3:GATHER P0:MAKE P1:DONE P2:TAKE P3:DONE P0:DONE P2:DONE"
	if strings.Join(order, " ") != want {
		t.Fatalf("applied %v\nwant    %s", order, want)
	}
	// P3's draw (step 1) came before P2's (step 2): the scripted O01 went to P3.
	if s.cardLabel(s.Players[3].Pending[len(s.Players[3].Pending)-1]) != "O01" ||
		s.cardLabel(s.Players[2].Pending[len(s.Players[2].Pending)-1]) != "O02" {
		t.Fatalf("draws: P3 %v P2 %v", s.cardIDs(s.Players[3].Pending), s.cardIDs(s.Players[2].Pending))
	}
	// The public turn report reveals every seat's commands and draws.
	var report map[string]any
	for _, st := range rep.Steps {
		for _, e := range st.Events {
			if e.Type == "fr.report" && e.Vis.Public {
				report = e.Params
			}
		}
	}
	seats, _ := report["seats"].([]map[string]any)
	if len(seats) != 4 || fmt.Sprint(seats[3]["drew"]) != "[O01]" || fmt.Sprint(seats[2]["drew"]) != "[O02]" ||
		fmt.Sprint(seats[0]["cmds"]) != "[GATHER 2 hard MAKE C03 DONE]" {
		t.Fatalf("turn report %v", report)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// P-5, P-6: a plan for a later turn that became illegal because of another
// player's move halts the queue and the player is asked, with the reason;
// alternatives and ELSE PASS are tried in order.
func TestP5PlanHaltAndAlternatives(t *testing.T) {
	tb, _, _, err := engine.NewTable(Game{}, arrangeA(4))
	if err != nil {
		t.Fatal(err)
	}
	// P0 faces the Bistro in turn 2, where P3 plays now.
	submit(t, tb, 0, "DONE\nPLAN T2 MAKE B7\nPLAN T2 MAKE B8 | MAKE B1 ELSE PASS")
	submit(t, tb, 1, "DONE\nNEXT DONE")
	submit(t, tb, 2, "DONE\nNEXT DONE")
	rep := submit(t, tb, 3, "MAKE B7\nDONE\nNEXT DONE")
	s := tb.State.(*State)
	if s.Turn != 2 || probe(t, s, "space.B7") != "P3" {
		t.Fatalf("turn %d, B7 %s", s.Turn, probe(t, s, "space.B7"))
	}
	if len(rep.Halts) != 1 || rep.Halts[0].Seat != 0 || rep.Halts[0].Halt.Errors[0].Code != "space_taken" {
		t.Fatalf("halts %+v", rep.Halts)
	}
	p := tb.Prompts[0]
	if p == nil || p.Halt == nil || p.Decision.Kind != kindTurn {
		t.Fatalf("P0 is not asked again: %+v", p)
	}
	// The alternatives: B8 needs Fruit (P0 has 1: legal).
	rep = submit(t, tb, 0, "MAKE B8 | MAKE B1 ELSE PASS\nDONE")
	s = tb.State.(*State)
	if probe(t, s, "space.B8") != "P0" || s.Turn != 3 {
		t.Fatalf("B8 %s turn %d: %+v", probe(t, s, "space.B8"), s.Turn, rep.Results)
	}
}

// P-7: standing orders apply on receipt while the turn stays sealed.
func TestP7StandingOrdersOnReceipt(t *testing.T) {
	tb, _, _, err := engine.NewTable(Game{}, arrangeA(4))
	if err != nil {
		t.Fatal(err)
	}
	rep := submit(t, tb, 2, "SET DAIRY fruit order\nMAKE D7\nDONE")
	if statuses(rep) != "applied,sealed,sealed" {
		t.Fatalf("statuses %s", statuses(rep))
	}
	if s := tb.State.(*State); len(s.Players[2].Pol.Dairy) != 2 || s.Players[2].Cheese != 15 {
		t.Fatalf("policy %v cheese %d", s.Players[2].Pol.Dairy, s.Players[2].Cheese)
	}
	for seat := 0; seat < 4; seat++ {
		if seat != 2 {
			submit(t, tb, seat, "DONE")
		}
	}
	if s := tb.State.(*State); s.Players[2].Basket != 1 || s.Turn != 2 {
		t.Fatalf("basket %d turn %d", s.Players[2].Basket, s.Turn)
	}
	// An illegal line of a fresh message rejects the whole message.
	rep = submit(t, tb, 0, "MAKE F13")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != "not_current_venue" {
		t.Fatalf("report %+v", rep.Results)
	}
}

// planTurn computes a seat's whole answer for the current decision group
// on a private copy, as a player writing one mail would.
func planTurn(s *State, seat int, bot engine.Bot, rng *rand.Rand) []string {
	c := s.Clone().(*State)
	turn, phase := c.Turn, c.Phase
	var lines []string
	for n := 0; n < 60; n++ {
		if c.Turn != turn || c.Phase != phase || c.kindOf(seat) == "" {
			break
		}
		d, _ := c.decisionAny(seat)
		if d.Mode == engine.Sequential && len(lines) > 0 {
			break
		}
		opts := c.Legal(d)
		i := 0
		if len(opts) > 1 {
			i = bot.Choose(c, d, opts, rng)
		}
		m, _ := c.Parse(seat, opts[i].Cmd)
		if _, err := c.Apply(seat, m); err != nil {
			panic(err)
		}
		lines = append(lines, opts[i].Cmd)
		if d.Kind == kindDraft || d.Kind == kindCorp {
			break
		}
	}
	return lines
}

// Complete games through a Table where every seat mails whole-turn plans
// (the PBEM flow): sealed groups, halts on plans that depend on draws,
// deadlines; the game ends and every invariant holds.
func TestTableGamesWithMailedPlans(t *testing.T) {
	greedy, _ := Game{}.NewBot("greedy")
	for k, cfg := range []engine.Config{
		{Seats: seatNames[:4], Seed: "mail-4"},
		{Variant: "advanced", Seats: seatNames[:3], Seed: "mail-3", Options: map[string]string{"dairy_side": "II"}},
		{Seats: seatNames[:2], Seed: "mail-2", Options: map[string]string{"festival_side": "II"}},
		{Variant: "advanced", Seats: seatNames[:1], Seed: "mail-1", Options: map[string]string{"level": "3"}},
	} {
		tb, _, _, err := engine.NewTable(Game{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		bots := []engine.Bot{greedy, engine.RandomBot{}, greedy, engine.RandomBot{}}
		for n := 0; tb.State.Result() == nil; n++ {
			if n > 5000 {
				t.Fatalf("%d players: no end", len(cfg.Seats))
			}
			w := tb.Waiting()
			if len(w) == 0 {
				t.Fatalf("nobody waits and no result")
			}
			d := w[rng.IntN(len(w))]
			if n%23 == 22 {
				// A deadline passes: defaults complete the seat's part.
				if _, err := tb.Expire(d.Seat); err != nil {
					t.Fatal(err)
				}
				continue
			}
			lines := planTurn(tb.State.(*State), d.Seat, bots[d.Seat], rng)
			rep := submit(t, tb, d.Seat, strings.Join(lines, "\n"))
			if rep.Rejected {
				t.Fatalf("plan %q rejected: %+v", lines, rep.Results)
			}
			if err := tb.State.Check(); err != nil {
				t.Fatal(err)
			}
		}
		res := tb.State.Result()
		t.Logf("%d players %s: turn %d, totals %v", len(cfg.Seats), cfg.Variant, tb.State.(*State).Turn, totals(res))
	}
}

func totals(res *engine.Result) []int {
	var out []int
	for _, s := range res.Scores {
		out = append(out, s.Total)
	}
	return out
}

// P-3 with the Table: a deadline closes a seat's turn with the lines it
// sent. Steps matter: the Table clears the expiry when a step resolves, so
// a seat whose partial plan still had a line for that step is asked again
// at the next step and needs a second expiry (see the package doc).
func TestP3DeadlineWithPartialPlan(t *testing.T) {
	tb, _, _, err := engine.NewTable(Game{}, arrangeA(2))
	if err != nil {
		t.Fatal(err)
	}
	submit(t, tb, 0, "GATHER 1 soft")
	if _, err := tb.Expire(0); err != nil {
		t.Fatal(err)
	}
	submit(t, tb, 1, "MAKE D7\nTAKE fruit order\nDONE")
	s := tb.State.(*State)
	if s.Turn != 1 || s.Players[0].Storage != 1 || s.Players[0].Done {
		t.Fatalf("after step 1: turn %d storage %d done %v", s.Turn, s.Players[0].Storage, s.Players[0].Done)
	}
	if w := tb.Waiting(); len(w) != 1 || w[0].Seat != 0 {
		t.Fatalf("waiting %+v", w)
	}
	rep, err := tb.Expire(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Defaults) != 1 || rep.Defaults[0].Cmd != "DONE" || tb.State.(*State).Turn != 2 {
		t.Fatalf("defaults %+v turn %d", rep.Defaults, tb.State.(*State).Turn)
	}
	// A new message replaces the lines of the turn not played yet.
	submit(t, tb, 0, "GATHER 1 soft\nMAKE B7")
	submit(t, tb, 0, "DONE")
	if q := tb.Queued(0); len(q) != 1 || q[0].Alts[0][0] != "DONE" {
		t.Fatalf("queued %+v", q)
	}
	submit(t, tb, 1, "DONE")
	if s := tb.State.(*State); s.Turn != 3 || s.Last[0][0] != "DONE" {
		t.Fatalf("the second message did not replace the first: turn %d, report %v", s.Turn, s.Last)
	}
}

// Random mail traffic through a Table: plans mixing legal and illegal lines,
// alternatives, ELSE PASS, PLAN/NEXT lines, standing orders and expired
// deadlines. The engine must never fail (Submit's error is for bugs only),
// the invariants must hold, and every game must end.
func TestTableRandomMail(t *testing.T) {
	junk := []string{"MAKE F33", "GATHER 3 soft", "TAKE fruit fruit", "BUILD 4", "CORP C01", "PICK ST01", "UNDO",
		"NEXT DONE", "PLAN T3 GATHER 1 hard | DONE", "SET DAIRY fruit order", "SET ORDERS ASK", "KEEP", "NOTRADE",
		"CHOOSE 1", "READY", "BARN soft", "MILK 4 C02", "FLY AWAY", "DONE ELSE PASS", "MAKE C03 | MAKE B7 ELSE PASS"}
	for k := 0; k < 24; k++ {
		cfg := randomConfig(k)
		cfg.Seed = fmt.Sprint("mail-fuzz-", k)
		tb, _, _, err := engine.NewTable(Game{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(k), 11))
		for n := 0; tb.State.Result() == nil; n++ {
			if n > 20000 {
				t.Fatalf("game %d does not end", k)
			}
			w := tb.Waiting()
			if len(w) == 0 {
				js, _ := json.MarshalIndent(struct {
					P []*engine.Prompt
					Q [][]engine.Order
					H []*engine.Halt
					D []engine.Decision
				}{tb.Prompts, tb.Queues, tb.Halts, tb.State.Pending()}, "", " ")
				t.Fatalf("game %d: nobody waits: %s", k, js)
			}
			d := w[rng.IntN(len(w))]
			if rng.IntN(9) == 0 {
				expire(t, tb, d.Seat)
				continue
			}
			var lines []string
			opts := tb.State.Legal(tb.Prompts[d.Seat].Decision)
			for i := 0; i < 1+rng.IntN(4); i++ {
				switch rng.IntN(5) {
				case 0:
					lines = append(lines, junk[rng.IntN(len(junk))])
				default:
					lines = append(lines, opts[rng.IntN(len(opts))].Cmd)
				}
			}
			if rng.IntN(2) == 0 {
				lines = append(lines, "DONE")
			}
			if _, err := tb.Submit(d.Seat, engine.ParseScript(strings.Join(lines, "\n")), tb.Token()); err != nil {
				t.Fatalf("game %d: Submit %q: %v", k, lines, err)
			}
			if err := tb.State.Check(); err != nil {
				t.Fatalf("game %d after %q: %v", k, lines, err)
			}
		}
	}
}

// expire makes a seat's deadline pass the way a referee must with this
// contract: a halted queue is cleared first. engine.Table.Expire clears the
// halt of a sequential decision but not of a simultaneous one; the group
// then never resolves while the seat's prompt reads as complete (nobody is
// waited for): see TestTableExpireHaltedSeat.
func expire(t *testing.T, tb *engine.Table, seat int) *engine.Report {
	t.Helper()
	if tb.Halts[seat] != nil {
		tb.Clear(seat)
	}
	rep, err := tb.Expire(seat)
	if err != nil {
		t.Fatalf("Expire: %v", err)
	}
	return rep
}

// A seat whose sealed plan halted (a line answering the wrong question)
// and whose deadline passes: with the halt cleared, the defaults close its
// turn (P-3).
func TestTableExpireHaltedSeat(t *testing.T) {
	tb, _, _, err := engine.NewTable(Game{}, arrangeA(2))
	if err != nil {
		t.Fatal(err)
	}
	// P1 faces the Dairy Shop: D7 asks for resources, GATHER answers nothing.
	submit(t, tb, 1, "MAKE D7\nGATHER 1 hard\nDONE")
	rep := submit(t, tb, 0, "DONE")
	if len(rep.Halts) != 1 || rep.Halts[0].Seat != 1 || rep.Halts[0].Halt.Errors[0].Code != engine.CodeWrongDecision {
		t.Fatalf("halts %+v", rep.Halts)
	}
	if w := tb.Waiting(); len(w) != 1 || w[0].Seat != 1 || w[0].Kind != kindTake {
		t.Fatalf("waiting %+v", w)
	}
	// One expiry per step (the Table clears it when the step resolves).
	var defaults []string
	for i := 0; i < 3 && tb.State.(*State).Turn == 1; i++ {
		for _, d := range expire(t, tb, 1).Defaults {
			defaults = append(defaults, d.Cmd)
		}
	}
	if s := tb.State.(*State); strings.Join(defaults, ",") != "TAKE NONE,DONE" || s.Turn != 2 {
		t.Fatalf("defaults %v, turn %d", defaults, s.Turn)
	}
}

// P-6 and the shared block syntax: "NEXT <command>" plans the next turn,
// while a bare "NEXT" line opens multi-line alternatives for this turn.
func TestP6NextLineAndNextBlock(t *testing.T) {
	s := newA(t, 4)
	orders := engine.ParseScript("NEXT MAKE B7\nNEXT\nMAKE C99\nOR\nGATHER 1 soft\nDONE\nEND")
	if errs := s.Route(0, orders); errs != nil {
		t.Fatalf("route: %v", errs)
	}
	if len(orders) != 2 || orders[0].Slot != "T2" || orders[0].Alts[0][0] != "MAKE B7" ||
		orders[1].Slot != "T1" || len(orders[1].Alts) != 2 || len(orders[1].Alts[1]) != 2 {
		t.Fatalf("orders %+v", orders)
	}
}
