package dicebrewing

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// vectorState builds a state from test-vector directives (see vectors_test.go).
func vectorState(t *testing.T, lines ...string) *state {
	t.Helper()
	r := &vrun{t: t, c: vcase{ID: t.Name(), File: "inline"}}
	for i, l := range lines {
		r.at = vline{N: i + 1, Text: l}
		r.step(l)
		if err := r.s.Check(); err != nil {
			t.Fatalf("line %d %q: invariant: %v", i+1, l, err)
		}
	}
	return r.s
}

func tableAt(t *testing.T, lines ...string) *engine.Table {
	t.Helper()
	return engine.WrapTable(Game, vectorState(t, lines...))
}

func submit(t *testing.T, tb *engine.Table, seat int, text string) *engine.Report {
	t.Helper()
	rep := enginetest.Submit(t, tb, seat, text)
	if err := tb.State.Check(); err != nil {
		t.Fatalf("after %q: invariant: %v", text, err)
	}
	return rep
}

var statuses = enginetest.Statuses

func steps(rep *engine.Report) string {
	var out []string
	for _, s := range rep.Steps {
		out = append(out, s.How+":"+s.Cmd)
	}
	return strings.Join(out, " | ")
}

func viewOf(tb *engine.Table, seat int) view.View { return tb.State.View(seat).(view.View) }

func dice(dv []view.DieView) string {
	var out []string
	for _, d := range dv {
		out = append(out, d.Text)
	}
	return strings.Join(out, " ")
}

// DB-10.1, DB-10.1a, DB-10.2: the whole Phase 1 plan of §10.3 in one mail.
// STORE runs on receipt; one PLACE line is used per placement turn; ELSE
// PASS passes when its line is illegal; queued BREW lines wait for Phase 3.
func TestDB10_1WholePlanInOneMail(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "ROUND 2",
		"DISPLAY R01 R06 R09",
		"HOLD ann AR=K5,G4,B3,Y3 ST=Y2 seeds=2 coins=0",
		"HOLD bob AR=G2,Y2,K2 ST= seeds=1 coins=0",
		"PHASE place ann")
	rep := submit(t, tb, 0, `STORE K5 G4
PLACE MH1 SEED, MH1+ B3     # get a yellow now
PLACE MH3 Y3                # deferred +1
PLACE HP1 SEED ELSE PASS
PASS
BREW R01 | PASS`)
	if got := statuses(rep); got != "applied,applied,queued,queued,queued,queued" {
		t.Fatalf("statuses %s (%s)", got, steps(rep))
	}
	v := viewOf(tb, 0)
	if dice(v.Me.ST) != "Y2 K5 G4" || v.Me.Board[catalog.SpMH1].Speed != "B3" {
		t.Fatalf("after the first turn: ST %s, MH1+ %q", dice(v.Me.ST), v.Me.Board[catalog.SpMH1].Speed)
	}
	// Bob takes HP1: Ann's third line then passes instead of halting.
	rep = submit(t, tb, 1, "PLACE HP1 SEED")
	if got := steps(rep); !strings.Contains(got, "queued:PLACE MH3 Y3") {
		t.Fatalf("second turn not played: %s", got)
	}
	rep = submit(t, tb, 1, "PLACE MH2 Y2")
	if got := steps(rep); !strings.Contains(got, "else_pass:PASS") {
		t.Fatalf("ELSE PASS not used: %s", got)
	}
	// Ann's PASS line was dropped (she has passed); bob passes, the round
	// goes on to brewing, where Ann's BREW line waits (R01 needs Y2 G2).
	if q := tb.Queued(0); len(q) != 1 || q[0].Slot != "r2.brew" {
		t.Fatalf("ann's queue: %+v", q)
	}
	rep = submit(t, tb, 1, "PASS")
	if len(rep.Dropped) != 0 {
		t.Fatalf("dropped %+v", rep.Dropped)
	}
	found := false
	for _, s := range rep.Steps {
		if s.Seat == 0 && s.How == "queued" && strings.HasPrefix(s.Cmd, "BREW R01") {
			found = true
		}
	}
	if !found {
		t.Fatalf("the queued BREW was not used: %s", steps(rep))
	}
}

// DB-10.2: a queued order made illegal by an opponent halts the queue and
// the seat is asked, with the reason (DB-5.4.3 here).
func TestDB10_2QueueHaltsWhenASpaceFills(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1",
		"HOLD ann AR=Y3,K4 ST= seeds=1",
		"HOLD bob AR=Y2,K2 ST= seeds=1")
	rep := submit(t, tb, 1, "PLACE MH3 K2\nPLACE MH2 Y2")
	if got := statuses(rep); got != "queued,queued" {
		t.Fatalf("bob's lines: %s", got)
	}
	rep = submit(t, tb, 0, "PLACE MH2 Y3")
	if got := steps(rep); got != "queued:PLACE MH2 Y3 | queued:PLACE MH3 K2" {
		t.Fatalf("steps %s", got)
	}
	rep = submit(t, tb, 0, "PASS")
	if len(rep.Halts) != 1 || rep.Halts[0].Seat != 1 || rep.Halts[0].Halt.Errors[0].Code != "space_full" {
		t.Fatalf("halts %+v (%s)", rep.Halts, steps(rep))
	}
	p := tb.Prompts[1]
	if p == nil || p.Halt == nil || p.Decision.Kind != position.KindPlace {
		t.Fatalf("bob's prompt %+v", p)
	}
}

// DB-10.1: a PLAY line before the first PLACE goes to window W0; one
// before a later PLACE to that turn's W1; one before the first BREW to W3.
// A PASS joins the phase of the line before it; BUY lines go to Phase 2,
// and the last one ends the purchase turn (DB-10.1a).
func TestDB10_1Routing(t *testing.T) {
	s := vectorState(t, "SETUP ann bob first=1", "ROUND 3",
		"HOLD ann tokens=PLUS,REROLL,BLOCKR AR=Y2 coins=9",
		"PHASE w0 ann")
	orders := engine.ParseScript(`PLAY PLUS Y2@A
PLACE MH3 Y2
PLAY REROLL bob:K3@A
PLACE MH1 SEED
PASS
STORE ALL
BUY SMALT WITH B4 | BUY FRUIT
BUY REROLL
PLAY BLOCKR R01
DONE
BREW R01 | PASS
PASS
AUTOSTORE 4 B
TOKENS NONE GAME`)
	errs := s.Route(0, orders)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("order %d: %v", i, err)
		}
	}
	want := []string{"r3.w0", "r3.place", "r3.place", "r3.place", "r3.place", "now", "r3.buy", "r3.buy",
		"r3.w3", "r3.w3", "r3.brew", "r3.brew", "now", "now"}
	for i, o := range orders {
		got := o.Slot
		if o.Now {
			got = "now"
		}
		if got != want[i] {
			t.Errorf("line %d %q: slot %q, want %q", i+1, o.Text, got, want[i])
		}
	}
	if alts := orders[7].Alts; len(alts[0]) != 2 || alts[0][1] != "NOBUY" {
		t.Errorf("the last purchase line does not end the turn: %v", alts)
	}
	if alts := orders[6].Alts; len(alts[0]) != 1 {
		t.Errorf("a middle purchase line ends the turn: %v", alts)
	}
	// Lines for a step that is over are refused.
	s = vectorState(t, "SETUP ann bob first=1", "ROUND 3", "HOLD ann coins=9", "PHASE buy ann")
	errs = s.Route(0, engine.ParseScript("PLACE MH1 SEED\nBUY FRUIT\nPLAY PLUS Y2@A\nPLAY BLOCKR R01\nBREW R01"))
	if re, _ := engine.AsRuleError(errs[0]); re == nil || re.Code != engine.CodeSlotClosed {
		t.Errorf("PLACE in Phase 2: %v", errs[0])
	}
	if errs[1] != nil || errs[2] != nil || errs[3] != nil || errs[4] != nil {
		t.Errorf("Phase 2 and 3 lines refused: %v", errs)
	}
	// Tokens cannot be played during brewing turns (DB-5.8.3).
	s = vectorState(t, "SETUP ann bob first=1", "ROUND 3", "HOLD ann ST=Y2,G2 tokens=PLUS", "PHASE brew ann")
	errs = s.Route(0, engine.ParseScript("BREW R01\nPLAY PLUS Y2@S"))
	if re, _ := engine.AsRuleError(errs[1]); re == nil || re.Code != "token_window" {
		t.Errorf("PLAY after BREW: %v", errs)
	}
}

// DB-10.1a: the purchase turn uses every Phase 2 line of the message, then
// ends; a second market BUY line is refused (DB-5.7.2).
func TestDB10_1aPurchaseTurnUsesAllLines(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "ROUND 3",
		"HOLD ann AR=B4,Y2 coins=9 tokens=",
		"HOLD bob coins=9",
		"PHASE buy ann")
	rep := submit(t, tb, 0, "BUY SMALT WITH B4 | BUY FRUIT\nBUY REROLL")
	if got := steps(rep); got != "queued:BUY SMALT WITH B4 | queued:BUY REROLL | queued:NOBUY" {
		t.Fatalf("steps %s", got)
	}
	v := viewOf(tb, 0)
	if v.Me.Coins != 9-2-2 || v.Turn != 1 {
		t.Fatalf("coins %d, turn %d", v.Me.Coins, v.Turn)
	}
	// Bob buys one thing only: his turn ends after his line.
	rep = submit(t, tb, 1, "BUY PLUS")
	if got := steps(rep); !strings.HasPrefix(got, "queued:BUY PLUS | queued:NOBUY") {
		t.Fatalf("bob: %s", got)
	}
	if v := viewOf(tb, 1); v.Step == position.StepBuy {
		t.Fatalf("Phase 2 did not end")
	}
}

// DB-10.5: a decision with a single option is never asked: the School
// reroll with one die is picked and rolled by the Table.
func TestDB10_5ForcedRerollIsApplied(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "ROUND 2",
		"HOLD ann AR=B3,Y1 ST= seeds=0",
		"PHASE place ann")
	tb.Script("dice", "6")
	rep := submit(t, tb, 0, "PLACE SS1 B3")
	if got := steps(rep); got != "queued:PLACE SS1 B3 | auto:PICK Y1 | auto:REROLL" {
		t.Fatalf("steps %s", got)
	}
	if got := dice(viewOf(tb, 0).Me.AR); got != "Y6" {
		t.Fatalf("AR %s", got)
	}
}

// DB-10.6: the default move of each decision kind when a deadline passes.
func TestDB10_6Defaults(t *testing.T) {
	cases := []struct {
		lines []string
		kind  string
		want  string
	}{
		{[]string{"SETUP ann bob first=1"}, position.KindPlace, "PASS"},
		{[]string{"SETUP ann bob first=1", "ROUND 3", "HOLD ann tokens=PLUS AR=Y2", "PHASE w0 ann"}, position.KindWindow, "DONE"},
		{[]string{"SETUP ann bob first=1", "ROUND 3", "HOLD ann coins=9", "PHASE buy ann"}, position.KindBuy, "NOBUY"},
		{[]string{"SETUP ann bob first=1", "ROUND 3", "HOLD ann ST=Y2,G2", "PHASE brew ann"}, position.KindBrew, "PASS"},
		{[]string{"SETUP ann bob first=1", "ROUND 3", "DISPLAY R23 R01 R02", "HOLD ann ST=K4,K4,Y3,G2", "PHASE brew ann", "ann: BREW R23"}, position.KindReward, "GET K"},
		{[]string{"SETUP ann bob first=1", "ROUND 3", "DISPLAY R11 R01 R02", "HOLD ann ST=Y4,K2,G4", "PHASE brew ann", "ann: BREW R11"}, position.KindReward, "GET TAKE"},
		{[]string{"SETUP ann bob first=1", "ROUND 2", "HOLD ann AR=B3,Y1,G5", "PHASE place ann", "ann: PLACE SS1 B3"}, position.KindReroll, "REROLL Y1"},
		{[]string{"SETUP ann bob first=1", "HOLD ann AR=K2,Y3", "ann: PLACE MH3 K2 THEN"}, position.KindSecond, "END"},
	}
	for _, c := range cases {
		tb := tableAt(t, c.lines...)
		d := tb.State.Pending()[0]
		if d.Kind != c.kind || d.Default != c.want {
			t.Errorf("%v: decision %s default %q, want %s %q", c.lines, d.Kind, d.Default, c.kind, c.want)
			continue
		}
		rep, err := tb.Expire(d.Seat)
		if err != nil || len(rep.Defaults) == 0 || rep.Defaults[0].Cmd != c.want {
			t.Errorf("%s: expire: %+v %v", c.kind, rep, err)
		}
	}
}

// DB-5.1.1, DB-10.1: AUTOSTORE is a standing order: it stores at once and
// after every roll that affects the AR, until AUTOSTORE OFF.
func TestDB5_1AutostoreStandingOrder(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1",
		"HOLD ann AR=Y4,Y2,B5,B6 ST= seeds=1",
		"HOLD bob AR=K2")
	submit(t, tb, 0, "AUTOSTORE 4")
	if v := viewOf(tb, 0); dice(v.Me.ST) != "Y4" || v.Me.AutoStore != "4" {
		t.Fatalf("ST %s, standing %q", dice(v.Me.ST), v.Me.AutoStore)
	}
	submit(t, tb, 0, "AUTOSTORE 5 B")
	if v := viewOf(tb, 0); dice(v.Me.ST) != "Y4 B6 B5" {
		t.Fatalf("with blue: ST %s", dice(v.Me.ST))
	}
	// A die gained by a speed-up is rolled and stored at once.
	submit(t, tb, 0, "STORE Y2")
	tb.Script("dice", "6")
	rep := submit(t, tb, 0, "PLACE MH1 SEED, MH1+ B5")
	found := false
	for _, s := range rep.Steps {
		for _, e := range s.Events {
			if e.Type == "db.store" && e.Params["auto"] == true {
				found = true
			}
		}
	}
	if !found || !strings.Contains(dice(viewOf(tb, 0).Me.ST), "Y6") {
		t.Fatalf("the new Y6 was not stored: %s", steps(rep))
	}
	// Other players do not see the standing order.
	if v := viewOf(tb, 1); v.Players[0].AutoStore != "" {
		t.Fatalf("bob sees ann's AUTOSTORE")
	}
}

// DB-10.7 / DB-5.3.7: lines still queued for a phase that ended are dropped
// and reported.
func TestDB10_1QueuedLinesDroppedWhenPassed(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1",
		"HOLD ann AR=Y3,K4 ST= seeds=1",
		"HOLD bob AR=Y2,K2,G3 ST= seeds=0")
	submit(t, tb, 0, "PLACE MH2 Y3\nPASS\nPLACE MH3 K4")
	rep := submit(t, tb, 1, "PLACE MH3 K2")
	if len(rep.Dropped) != 1 || rep.Dropped[0].Seat != 0 || rep.Dropped[0].Orders[0].Text != "PLACE MH3 K4" {
		t.Fatalf("dropped %+v (%s)", rep.Dropped, steps(rep))
	}
}

// The offline sample scripts play through NewTable, Table.Script and
// Table.Submit, as "referee play" does.
func TestTableRejectsIllegalFirstOrderAtomically(t *testing.T) {
	tb := tableAt(t, "SETUP ann bob first=1", "HOLD ann AR=Y6 ST=")
	before := mustMarshal(t, tb)
	rep := submit(t, tb, 0, "STORE Y6\nPLACE MH3 Y6")
	if !rep.Rejected || rep.Results[1].Errors[0].Code != "die_at_max" {
		t.Fatalf("report %+v", rep.Results)
	}
	if string(mustMarshal(t, tb)) != string(before) {
		t.Fatal("a rejected message changed the table")
	}
}

// §10.3: the forms of the commands and their canonical texts.
func TestParseCanonical(t *testing.T) {
	s := vectorState(t, "SETUP ann bob first=1")
	cases := map[string]string{
		"store all >= 4":                    "STORE ALL>=4",
		"STORE ALL>=3":                      "STORE ALL>=3",
		"store yel5 grn4":                   "STORE Y5 G4",
		"place mh1 seed,mh1+ blu4":          "PLACE MH1 SEED, MH1+ B4",
		"PLACE SS1 S3 REROLL L2 H1, MH3 D4": "PLACE SS1 B3 REROLL Y2 G1, MH3 K4",
		"PLACE SS2 B4 SWAP K2@S":            "PLACE SS2 B4 SWAP K2@S",
		"PLACE MH3 Y3 THEN":                 "PLACE MH3 Y3 THEN",
		"play take Bob:K5@S":                "PLAY TAKE bob:K5@S",
		"PLAY TAKE P2:K5@S":                 "PLAY TAKE bob:K5@S",
		"PLAY SHIELD ann:Y5@S":              "PLAY SHIELD Y5@S",
		"PLAY BLOCKB bob:MH":                "PLAY BLOCKB bob:MH",
		"PLAY REROLL bob:G6@HP2":            "PLAY REROLL bob:G6@HP2",
		"PLAY PLUS K4+@MH3+":                "PLAY PLUS K4+@MH3+",
		"tokens none":                       "TOKENS NONE ROUND",
		"TOKENS NONE GAME":                  "TOKENS NONE GAME",
		"AUTOSTORE 4 b":                     "AUTOSTORE 4 B",
		"autostore off":                     "AUTOSTORE OFF",
		"BUY honey with b6":                 "BUY HONEY WITH B6",
		"BREW R24 GET K USE Y3 Y2 K5 K3 G4": "BREW R24 USE Y3 Y2 K5 K3 G4 GET K",
		"brew r23 improve smalt get blu":    "BREW R23 IMPROVE SMALT GET B",
		"REROLL":                            "REROLL",
		"GET TAKE SHIELD":                   "GET TAKE SHIELD",
	}
	for in, want := range cases {
		m, err := s.Parse(0, in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := m.String(); got != want {
			t.Errorf("%q: canonical %q, want %q", in, got, want)
		}
	}
	bad := map[string]string{
		"PLACE":                         engine.CodeSyntax,
		"PLACE XX1 Y3":                  "unknown_space",
		"PLACE MH1 SEED, HP1 SEED THEN": engine.CodeSyntax,
		"PLACE SS2 B4":                  "swap_needed",
		"PLACE SS1 B4, MH3 Y2":          "reroll_list_needed",
		"PLAY TAKE zed:K5@S":            "unknown_player",
		"PLAY FLY Y2":                   "unknown_token",
		"BUY FRUIT WITH B6 B5":          engine.CodeSyntax,
		"BUY REROLL WITH B6":            "no_discount",
		"BREW R99":                      "unknown_card",
		"BREW R24 IMPROVE SMALT B5":     "one_improvement",
		"STORE Q5":                      "bad_die",
		"STORE Y7":                      "bad_die",
		"HOP":                           engine.CodeUnknownCommand,
	}
	for in, code := range bad {
		_, err := s.Parse(0, in)
		re, ok := engine.AsRuleError(err)
		if !ok || re.Code != code {
			t.Errorf("%q: got %v, want %s", in, err, code)
		}
	}
}
