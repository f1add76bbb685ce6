package enginetest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

func init() {
	RegisterToy()
	RegisterClaim()
}

var (
	submit   = Submit
	statuses = Statuses
)

func newToy(t *testing.T, seats ...string) *engine.Table {
	t.Helper()
	tb, _, _, err := engine.NewTable(Toy, engine.Config{Seats: seats, Seed: "toy-test"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func newClaim(t *testing.T, seats ...string) *engine.Table {
	t.Helper()
	g, _ := engine.Lookup("claim")
	tb, _, _, err := engine.NewTable(g, engine.Config{Seats: seats, Seed: "claim"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestToyConformance(t *testing.T) {
	var cfgs []engine.Config
	for _, v := range []string{"standard", "secret"} {
		for n := 2; n <= 4; n++ {
			cfgs = append(cfgs, engine.Config{Variant: v, Seats: []string{"ann", "bob", "cat", "dan"}[:n], Seed: "c"})
		}
	}
	Conformance(t, Toy, cfgs, 5)
}

func TestClaimConformance(t *testing.T) {
	g, _ := engine.Lookup("claim")
	Conformance(t, g, []engine.Config{{Seats: []string{"ann", "bob", "cat"}, Seed: "c"}}, 5)
}

// Sealed simultaneous decisions stay hidden until every seat has answered,
// then apply in rank order (TOY-1).
func TestTableSealedBidsResolvedInRankOrder(t *testing.T) {
	tb := newToy(t, "ann", "bob", "cat")
	if w := tb.Waiting(); len(w) != 3 || w[0].Kind != "bid" {
		t.Fatalf("waiting = %+v", w)
	}
	rep := submit(t, tb, 0, "BID 3")
	if statuses(rep) != "sealed" || len(rep.Steps) != 0 {
		t.Fatalf("ann's bid: %s, %d steps", statuses(rep), len(rep.Steps))
	}
	// The answer is sealed in the table, not applied: the state (and so
	// every view) does not know it yet; the table knows ann has answered.
	v := tb.State.View(1).(ToyView)
	if v.HasBid[0] || v.Chips[0] != 10 {
		t.Fatalf("bob sees %+v", v)
	}
	if p := tb.Prompts[0]; p == nil || !p.Complete || len(p.Sealed) != 1 {
		t.Fatalf("ann's prompt = %+v", p)
	}
	if len(tb.Waiting()) != 2 {
		t.Fatalf("ann still waited on: %+v", tb.Waiting())
	}
	submit(t, tb, 1, "BID 5")
	rep = submit(t, tb, 2, "bid 1")
	if len(rep.Revealed) != 1 || rep.Revealed[0] != "r1.bid" {
		t.Fatalf("revealed = %v", rep.Revealed)
	}
	v = tb.State.View(-1).(ToyView)
	if got := v.Order; len(got) != 3 || got[0] != 1 || got[1] != 0 || got[2] != 2 {
		t.Fatalf("order = %v", got)
	}
	if v.Chips[0] != 7 || v.Chips[1] != 5 || v.Chips[2] != 9 {
		t.Fatalf("chips = %v", v.Chips)
	}
	// The bids were applied in rank order: seat 0, 1, 2 (ranks = seats).
	var order []int
	for _, s := range rep.Steps {
		if s.How == "sealed" {
			order = append(order, s.Seat)
		}
	}
	if len(order) != 3 || order[0] != 0 || order[1] != 1 || order[2] != 2 {
		t.Fatalf("sealed steps by seat: %v", order)
	}
}

func TestTableSealedRevisionLastWins(t *testing.T) {
	tb := newToy(t, "ann", "bob")
	submit(t, tb, 0, "BID 3")
	submit(t, tb, 0, "BID 2")
	if q := tb.Queued(0); len(q) != 1 || q[0].Alts[0][0] != "BID 2" {
		t.Fatalf("queue = %+v", q)
	}
	submit(t, tb, 1, "BID 0")
	if c := tb.State.View(0).(ToyView).Chips[0]; c != 8 {
		t.Fatalf("ann has %d chips, want 8", c)
	}
}

func TestTableNumberedReply(t *testing.T) {
	tb := newToy(t, "ann", "bob")
	p := tb.Prompts[0]
	if !p.Numbered || len(p.Options) != 11 || p.Options[4].Cmd != "BID 4" {
		t.Fatalf("prompt = %+v", p)
	}
	rep := submit(t, tb, 0, "5")
	if statuses(rep) != "sealed" || tb.Queued(0)[0].Alts[0][0] != "BID 4" {
		t.Fatalf("numbered reply: %s %+v", statuses(rep), tb.Queued(0))
	}
	rep = submit(t, tb, 1, "12")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != engine.CodeNoOption {
		t.Fatalf("out of range number: %+v", rep.Results)
	}
}

// A decision with one legal option is applied, never asked (TOY-2: after
// the last roll only HOLD is left).
func TestTableForcedNeverAsked(t *testing.T) {
	tb := newToy(t, "ann", "bob")
	submit(t, tb, 0, "BID 1")
	submit(t, tb, 1, "BID 0")
	tb.Script("dice", "4", "5", "6")
	rep := submit(t, tb, 0, "ROLL\nROLL\nROLL")
	var hows []string
	for _, s := range rep.Steps {
		hows = append(hows, s.How+":"+s.Cmd)
	}
	if got := strings.Join(hows, " "); got != "queued:ROLL queued:ROLL queued:ROLL auto:HOLD" {
		t.Fatalf("steps = %s", got)
	}
	if sc := tb.State.View(0).(ToyView).Score[0]; sc != 15 {
		t.Fatalf("score = %d", sc)
	}
	if w := tb.Waiting(); len(w) != 1 || w[0].Seat != 1 {
		t.Fatalf("waiting = %+v", w)
	}
}

// A queued order that became illegal because of an opponent's move halts the
// seat's queue and asks it why (CL-2).
func TestTableQueueHaltedByOpponent(t *testing.T) {
	tb := newClaim(t, "ann", "bob")
	rep := submit(t, tb, 0, "CLAIM 1\nCLAIM 5\nCLAIM 4")
	if statuses(rep) != "applied,queued,queued" {
		t.Fatalf("ann: %s", statuses(rep))
	}
	rep = submit(t, tb, 1, "CLAIM 5")
	if len(rep.Halts) != 1 || rep.Halts[0].Seat != 0 || rep.Halts[0].Halt.Errors[0].Code != "space_taken" {
		t.Fatalf("halts = %+v", rep.Halts)
	}
	if aside := rep.Halts[0].Halt.SetAside; len(aside) != 1 || aside[0].Text != "CLAIM 4" {
		t.Fatalf("set aside = %+v", aside)
	}
	p := tb.Prompts[0]
	if p == nil || p.Halt == nil || p.Complete {
		t.Fatalf("ann's prompt = %+v", p)
	}
	rep = submit(t, tb, 0, "CLAIM 4")
	if statuses(rep) != "applied" || tb.Halts[0] != nil {
		t.Fatalf("after answer: %s halt=%v", statuses(rep), tb.Halts[0])
	}
}

func TestTableAlternativesAndElsePass(t *testing.T) {
	tb := newClaim(t, "ann", "bob")
	submit(t, tb, 0, "CLAIM 5")
	// Bob's first choice is taken; the second is used.
	rep := submit(t, tb, 1, "CLAIM 5 | CLAIM 4\nCLAIM 5 ELSE PASS")
	if statuses(rep) != "applied,queued" || rep.Results[0].Cmds[0] != "CLAIM 4" {
		t.Fatalf("bob: %s %+v", statuses(rep), rep.Results)
	}
	rep = submit(t, tb, 0, "CLAIM 3")
	if len(rep.Steps) != 2 || rep.Steps[1].How != "else_pass" || rep.Steps[1].Cmd != "PASS" {
		t.Fatalf("steps = %+v", rep.Steps)
	}
}

// A fresh message is atomic: an illegal answer to the current decision
// rejects the whole message, free actions included.
func TestTableFreshMessageRejectedAtomically(t *testing.T) {
	tb := newClaim(t, "ann", "bob")
	submit(t, tb, 0, "CLAIM 2")
	before, _ := json.Marshal(tb)
	rep := submit(t, tb, 1, "NOTE hello\nCLAIM 2\nCLAIM 3")
	if !rep.Rejected || rep.Results[1].Status != "rejected" || rep.Results[1].Errors[0].Code != "space_taken" {
		t.Fatalf("report = %+v", rep)
	}
	after, _ := json.Marshal(tb)
	if string(before) != string(after) {
		t.Fatal("a rejected message changed the table")
	}
	rep = submit(t, tb, 1, "CLAIM 9\nFLY away")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != engine.CodeSyntax || rep.Results[1].Errors[0].Code != engine.CodeUnknownCommand {
		t.Fatalf("parse errors: %+v", rep.Results)
	}
}

// A reply to an older prompt is re-validated: what is still legal applies,
// the rest is dropped and reported.
func TestTableStaleReplyRevalidated(t *testing.T) {
	tb := newClaim(t, "ann", "bob", "cat")
	old := tb.Token()
	submit(t, tb, 0, "CLAIM 2")
	submit(t, tb, 1, "CLAIM 3")
	rep, err := tb.Submit(2, engine.ParseScript("NOTE x\nCLAIM 2\nCLAIM 4"), old)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Stale || rep.Rejected {
		t.Fatalf("stale=%v rejected=%v", rep.Stale, rep.Rejected)
	}
	if statuses(rep) != "applied,halted,halted" {
		t.Fatalf("stale statuses: %s", statuses(rep))
	}
	if tb.Prompts[2] == nil || tb.Prompts[2].Halt == nil {
		t.Fatal("cat is not asked again")
	}
}

func TestTableExpireDefaults(t *testing.T) {
	tb := newClaim(t, "ann", "bob")
	rep, err := tb.Expire(0)
	if err != nil || len(rep.Defaults) != 1 || rep.Defaults[0].Cmd != "PASS" {
		t.Fatalf("sequential default: %+v %v", rep, err)
	}
	toy := newToy(t, "ann", "bob")
	submit(t, toy, 1, "BID 4\nHOLD")
	rep, err = toy.Expire(0)
	if err != nil || len(rep.Defaults) != 1 || rep.Defaults[0].Cmd != "BID 0" || len(rep.Revealed) != 1 {
		t.Fatalf("sealed default: %+v %v", rep, err)
	}
	// Bob bid more, so he rolls first: his queued HOLD was used.
	if v := toy.State.View(-1).(ToyView); v.Turn != 1 {
		t.Fatalf("turn = %d (bob's HOLD not used)", v.Turn)
	}
}

// Orders whose slot has closed are dropped and reported (TOY-2: a round's
// rolling turns end).
func TestTableClosedSlotDropped(t *testing.T) {
	tb := newToy(t, "ann", "bob")
	submit(t, tb, 0, "BID 1")
	submit(t, tb, 1, "BID 0\nROLL\nHOLD")
	tb.Script("dice", "1", "3") // ann busts at once, bob rolls 3
	rep := submit(t, tb, 0, "ROLL\nROLL")
	var dropped []string
	for _, d := range rep.Dropped {
		for _, o := range d.Orders {
			dropped = append(dropped, o.Text)
		}
	}
	// Bob rolls and holds, the round ends; ann's second ROLL was dropped
	// with it.
	if len(dropped) != 1 || dropped[0] != "ROLL" || rep.Dropped[0].Seat != 0 {
		t.Fatalf("nothing dropped: %+v", rep)
	}
}

func TestTableReplayLog(t *testing.T) {
	cfg := engine.Config{Seats: []string{"ann", "bob", "cat"}, Seed: "replay-me"}
	tb, rep0, setup, err := engine.NewTable(Toy, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tb.HashSteps = true
	log := engine.Log{Game: "toy", Config: cfg, RulesetSHA: tb.State.Head().RulesetSHA, Setup: setup, Steps: rep0.Steps}
	for tb.State.Result() == nil {
		w := tb.Waiting()
		p := tb.Prompts[w[0].Seat]
		rep := submit(t, tb, w[0].Seat, p.Options[(len(p.Options)-1)/2].Cmd)
		log.Steps = append(log.Steps, rep.Steps...)
	}
	log.Final, _ = engine.StateHash(tb.State)
	js, _ := json.Marshal(log)
	var back engine.Log
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.Replay(Toy, back); err != nil {
		t.Fatalf("replay: %v", err)
	}
	// Tampering with a die is detected.
	for i, s := range back.Steps {
		if s.Cmd == "ROLL" {
			back.Steps[i].Events[0].Params["value"] = 99.0
			break
		}
	}
	var re *engine.ReplayError
	if _, err := engine.Replay(Toy, back); !errors.As(err, &re) {
		t.Fatalf("tampered replay: %v", err)
	}
}

func TestTableUndoDropsLastSealedLine(t *testing.T) {
	tb := newToy(t, "ann", "bob")
	submit(t, tb, 0, "BID 3")
	submit(t, tb, 0, "AUTOHOLD 5\nROLL")
	o, ok := tb.Undo(0)
	if !ok || o.Text != "ROLL" {
		t.Fatalf("undo = %+v %v", o, ok)
	}
	if q := tb.Queued(0); len(q) != 1 || q[0].Text != "BID 3" {
		t.Fatalf("queue after undo = %+v", q)
	}
	if _, ok := tb.Undo(1); ok {
		t.Fatal("undo of an empty queue")
	}
}

// A seat whose sealed answer halted still gets its defaults when its
// deadline passes: the game never stalls.
func TestTableExpireHaltedSealedSeat(t *testing.T) {
	tb := newToy(t, "ann", "bob")
	submit(t, tb, 0, "BID 9")
	submit(t, tb, 1, "BID 0")
	// Round 1 resolved; ann queues an impossible bid for round 2.
	submit(t, tb, 0, "HOLD\nBID 5")
	submit(t, tb, 1, "HOLD")
	if tb.Halts[0] == nil {
		t.Fatalf("no halt: queue %+v", tb.Queued(0))
	}
	if _, err := tb.Expire(0); err != nil {
		t.Fatal(err)
	}
	if tb.Halts[0] != nil {
		t.Fatal("the halt survived the deadline")
	}
	submit(t, tb, 1, "BID 0")
	if v := tb.State.View(-1).(ToyView); v.Phase != "roll" || v.Round != 2 {
		t.Fatalf("stalled: %+v", v)
	}
}

// Config.Script scripts the setup's own random draws.
func TestConfigScriptReachesSetup(t *testing.T) {
	st, _, err := Toy.NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "s", Script: []engine.Forced{{Kind: "dice", Value: "6"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Head().Rand.Script(); len(got) != 1 || got[0].Value != "6" {
		t.Fatalf("script = %+v", got)
	}
}

// A numbered reply binds to the prompt it answers (issue 11, item 3): an
// old "1" whose option has changed since is refused, showing what the
// number meant then and what it means now; an old "1" whose option is
// unchanged still plays.
func TestTableStaleNumberBindsToItsPrompt(t *testing.T) {
	tb := newClaim(t, "ann", "bob", "cat")
	seat := tb.Waiting()[0].Seat
	old := tb.Token()
	p := tb.Prompts[seat]
	if p == nil || !p.Numbered {
		t.Fatalf("seat %d has no numbered prompt: %+v", seat, p)
	}
	then := p.Options[0].Cmd
	// Play on (always the first option) until the seat is asked again with
	// a different first option.
	for n := 0; ; n++ {
		if n > 200 || tb.State.Result() != nil {
			t.Fatal("the seat was never asked a different question")
		}
		w := tb.Waiting()[0].Seat
		q := tb.Prompts[w]
		if w == seat && tb.Token() != old && q.Numbered && q.Options[0].Cmd != then {
			break
		}
		submit(t, tb, w, q.Options[0].Cmd)
	}
	now := tb.Prompts[seat].Options[0].Cmd
	before := tb.Token()
	rep, err := tb.Submit(seat, engine.ParseScript("1"), old)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rejected || len(rep.Results) != 1 || rep.Results[0].Errors[0].Code != engine.CodeStaleOption {
		t.Fatalf("stale number: %+v", rep.Results)
	}
	e := rep.Results[0].Errors[0]
	if e.Params["old"] != then || e.Params["new"] != now {
		t.Fatalf("stale number shows %v, want old %q new %q", e.Params, then, now)
	}
	if tb.Token() != before {
		t.Fatal("a refused stale number changed the state")
	}
	// The current token: the number means the current option.
	rep = submit(t, tb, seat, "1")
	if rep.Rejected {
		t.Fatalf("fresh number refused: %+v", rep.Results)
	}
	// A token from the future is never trusted.
	w := tb.Waiting()[0].Seat
	rep, _ = tb.Submit(w, engine.ParseScript("1"), tb.Token()+5)
	if !rep.Rejected || rep.Results[0].Errors[0].Code != engine.CodeStaleOption {
		t.Fatalf("future token: %+v", rep.Results)
	}
	// The history survives a save and load.
	raw, err := json.Marshal(tb)
	if err != nil {
		t.Fatal(err)
	}
	tb2, err := engine.LoadTable(raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tb2.Asked) != len(tb.Asked) || len(tb2.Asked[seat]) == 0 {
		t.Fatalf("asked history lost: %+v", tb2.Asked)
	}
}

// A stale numbered reply whose option is still the same plays: the seat
// was asked again the same question since.
func TestTableStaleNumberUnchangedPlays(t *testing.T) {
	tb := newClaim(t, "ann", "bob", "cat")
	seat := tb.Waiting()[0].Seat
	old := tb.Token()
	want := tb.Prompts[seat].Options[0].Cmd
	// Three passes would end the game: the others claim the last spaces,
	// which leaves the seat's option 1 as it was.
	submit(t, tb, seat, "PASS")
	for i := 0; i < 2; i++ {
		w := tb.Waiting()[0].Seat
		q := tb.Prompts[w].Options
		submit(t, tb, w, q[len(q)-2].Cmd)
	}
	if tb.State.Result() != nil || tb.Waiting()[0].Seat != seat || tb.Token() == old {
		t.Fatal("the claim game did not come back to the seat")
	}
	rep, err := tb.Submit(seat, engine.ParseScript("1"), old)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Stale || rep.Rejected || rep.Results[0].Cmds[0] != want {
		t.Fatalf("unchanged option: stale=%v %+v", rep.Stale, rep.Results)
	}
}

// The agreement rule (engine/doc.go, issue 21) as rule vectors on the toy
// game, whose HOLD is forced after max_rolls ROLLs (TOY-2): the forced move
// written out is agreed; left out, the game plays it itself; written in a
// later mail, after the game played it, it is agreed and changes nothing.
func TestTableAgreementRule(t *testing.T) {
	for _, c := range []struct {
		name, mail, want, hows string
	}{
		{"agree", "ROLL\nROLL\nROLL\nHOLD", "applied,applied,applied,agreed", "queued:ROLL queued:ROLL queued:ROLL agreed:HOLD"},
		{"absent", "ROLL\nROLL\nROLL", "applied,applied,applied", "queued:ROLL queued:ROLL queued:ROLL auto:HOLD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newToy(t, "ann", "bob")
			submit(t, tb, 0, "BID 1")
			submit(t, tb, 1, "BID 0")
			tb.Script("dice", "4", "5", "6")
			rep := submit(t, tb, 0, c.mail)
			var hows []string
			for _, s := range rep.Steps {
				hows = append(hows, s.How+":"+s.Cmd)
			}
			if got := statuses(rep); got != c.want || strings.Join(hows, " ") != c.hows {
				t.Fatalf("outcomes %s, steps %s; want %s, %s", got, strings.Join(hows, " "), c.want, c.hows)
			}
			if sc := tb.State.View(0).(ToyView).Score[0]; sc != 15 {
				t.Fatalf("score = %d", sc)
			}
		})
	}
	// After the fact: the HOLD the game played is agreed once, and only
	// as a leading line; the next line is the mail proper.
	tb := newToy(t, "ann", "bob")
	submit(t, tb, 0, "BID 1")
	submit(t, tb, 1, "BID 0")
	tb.Script("dice", "4", "5", "6")
	submit(t, tb, 0, "ROLL\nROLL\nROLL")
	tok := tb.Token()
	rep := submit(t, tb, 0, "HOLD\nBID 2")
	if got := statuses(rep); got != "agreed,queued" || rep.Rejected {
		t.Fatalf("HOLD after the fact: %s %+v", got, rep.Results)
	}
	if tb.Token() != tok {
		t.Fatalf("an agreed line changed the game: token %d, was %d", tb.Token(), tok)
	}
	if rep := submit(t, tb, 0, "HOLD"); statuses(rep) == "agreed" {
		t.Fatalf("a forced move agreed twice")
	}
}
