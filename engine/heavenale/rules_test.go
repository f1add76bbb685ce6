package heavenale

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// HA-7.6: the lenient evening-out equals the closed form, and the literal
// reading never beats it.
func TestHA76EvenOutClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 600; k++ {
		var p [5]int
		for i := range p {
			p[i] = rng.IntN(31) - 10
		}
		rate, d := 1+rng.IntN(5), rng.IntN(4)
		lenient, _, _, _ := evenOut(p, rate, d, 20, true)
		literal, ex, _, ducat := evenOut(p, rate, d, 20, false)
		if cf := closedForm(p, rate, d, 20); cf != lenient {
			t.Fatalf("%v rate %d d %d: search %d, closed form %d", p, rate, d, lenient, cf)
		}
		if literal > lenient {
			t.Fatalf("%v: literal %d beats lenient %d", p, literal, lenient)
		}
		// The reported exchanges end where no exchange is possible, and
		// the ducat steps give the lowest reported.
		after := ex
		for _, c := range ducat {
			after[c]++
		}
		if minOf(after) != literal {
			t.Fatalf("%v: reported markers %v do not give %d", p, after, literal)
		}
		sum0, sum1 := 0, 0
		for i := range p {
			sum0 += p[i]
			sum1 += ex[i]
		}
		if rate >= 2 && sum1 > sum0 {
			t.Fatalf("exchanges raised the sum")
		}
	}
}

// HA-3.4, §8.11: monk stacks and rounds per player count.
func TestHA34Stacks(t *testing.T) {
	for n, want := range map[int][2]int{2: {3, 3}, 3: {4, 4}, 4: {6, 6}} {
		st, _, err := Game{}.NewState(engineConfig(n, nil))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		if s.Rounds != want[0] || len(s.Stacks)+1 != want[1] {
			t.Errorf("%d players: %d rounds, %d stacks", n, s.Rounds, len(s.Stacks)+1)
		}
		if len(s.Picks) != n-1 {
			t.Errorf("%d players: %d setup picks", n, len(s.Picks))
		}
	}
}

// HA-5.5: enclosing a shed site scores the sum, moves the brewmaster and
// asks for the activation; one tile enclosing two sites resolves both in
// ascending order (HA-5.5.5).
func TestHA55Sheds(t *testing.T) {
	s := newGame(t, 2)
	bare(s)
	p := &s.Players[0]
	// SH2: S7 S9 S8 S6 S3 S4; SH3: D6 D8 S10 S7 S5 D3. S7 touches both.
	put(s, 0, "S9", "HO5", "S8", "BA4", "S6", "WA3", "S3", "YE2", "S4", "WO1",
		"D6", "M1", "D8", "HO1", "S10", "HO1", "S5", "BA1", "D3", "WA1")
	p.Brew, p.Ducats = -10, 30
	s.Spaces[1] = []string{"HO2", "WO1"}
	must(t, s, 0, "GO 1", "BUY HO2 S7")
	// SH2 sum 5+4+3+2+1+2 = 17 -> 1 step, type 2; SH3 sum 0+1+1+2+1+1 = 6 -> 6 steps, type 0.
	if p.Brew != -3 || p.Garden[s.r.CellIdx["SH2"]] != "T2" || p.Garden[s.r.CellIdx["SH3"]] != "T0" {
		t.Fatalf("brew %d, SH2 %q, SH3 %q", p.Brew, p.Garden[s.r.CellIdx["SH2"]], p.Garden[s.r.CellIdx["SH3"]])
	}
	if s.Sub != subShed || len(legalCmds(s)) != 3 {
		t.Fatalf("shed prompt: %s %v", s.Sub, legalCmds(s))
	}
	if c := code(try(s, 0, "SHED S7 S9")); c != "bad_shed_choice" {
		t.Fatalf("non-opposite pair: %s", c)
	}
	if c := code(try(s, 0, "DONE")); c != engine.CodeWrongDecision {
		t.Fatalf("DONE during a shed choice: %s", c)
	}
	must(t, s, 0, "SHED S6 S7")
	// S6 WA3 sunny: water -6+3; S7 HO2 sunny: hops -4+2.
	if p.Markers[3] != -3 || p.Markers[2] != -2 {
		t.Fatalf("markers %v", p.Markers)
	}
	if s.Sub != subBuy || !reflect.DeepEqual(legalCmds(s)[len(legalCmds(s))-1], "DONE") {
		t.Fatalf("purchase should continue: %s", s.Sub)
	}
}

// HA-5.9.3 LOW: ties let the player choose; the steps are the discs placed.
func TestHA593Low(t *testing.T) {
	s := newGame(t, 2)
	bare(s)
	put(s, 0, "S1", "BA1")
	p := &s.Players[0]
	p.Markers = [5]int{2, 1, 1, 3, 0}
	p.Spots[catalog.SpotColor+3] = true // WA
	p.Spots[catalog.SpotX] = true
	s.Discs[12] = 1
	must(t, s, 0, "GO 12", "SCORE BA")
	// BA 0 + 1 = 1: YE, HO and BA tie at 1.
	got := legalCmds(s)
	want := []string{"PRIV CASH", "PRIV BREW", "PRIV COLOR WO", "PRIV COLOR YE", "PRIV COLOR HO", "PRIV COLOR WA",
		"PRIV COLOR BA", "PRIV LOW YE", "PRIV LOW HO", "PRIV LOW BA", "PRIV BARREL", "PRIV PASS"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("options %v", got)
	}
	if c := code(try(s, 0, "PRIV LOW WO")); c != "not_lowest" {
		t.Fatalf("LOW WO: %s", c)
	}
	must(t, s, 0, "PRIV LOW HO")
	if p.Markers[2] != 4 { // 3 discs: X, WA, BA
		t.Fatalf("hops %d", p.Markers[2])
	}
}

// AMB-7, AMB-8: a start player going straight back finds only FIRST free.
func TestAMB7StraightHome(t *testing.T) {
	s := newGame(t, 4)
	must(t, s, 0, "GO HOME")
	if got := legalCmds(s); !reflect.DeepEqual(got, []string{"HOME FIRST"}) {
		t.Fatalf("options %v", got)
	}
	must(t, s, 0, "HOME FIRST")
	if s.Cur != 1 || !s.Players[0].Back {
		t.Fatalf("turn should pass to Ben")
	}
}

// §10.2: PREF HOME narrows the start-space choice to one option; PREF PRIV
// PASS answers the privilege prompt.
func TestPrefs(t *testing.T) {
	s := newGame(t, 2)
	must(t, s, 1, "PREF HOME RES WA CASH")
	must(t, s, 0, "PREF PRIV PASS")
	if got := legalCmds(s); got[len(got)-1] != "GO HOME" {
		t.Fatalf("move options %v", got)
	}
	must(t, s, 0, "GO HOME")
	must(t, s, 0, s.options(0)[0])
	s.Cur = 1
	must(t, s, 1, "GO HOME")
	if got := s.options(1); !reflect.DeepEqual(got, []string{"HOME FIRST"}) && !reflect.DeepEqual(got, []string{"HOME RES WA"}) {
		t.Fatalf("options %v", got)
	}
}

// §10.3 UNDO restores the start of the turn.
func TestUndo(t *testing.T) {
	s := newGame(t, 2)
	bare(s)
	s.Spaces[1] = []string{"HO1", "WO1"}
	before := s.Clone().(*State)
	must(t, s, 0, "GO 1", "BUY HO1 D1")
	must(t, s, 0, "UNDO")
	if !reflect.DeepEqual(before.Core, s.Core) {
		t.Fatalf("UNDO did not restore the turn")
	}
	if c := code(try(s, 0, "UNDO")); c != "nothing_to_undo" {
		t.Fatalf("second UNDO: %s", c)
	}
}

// Hostile and malformed lines get a RuleError, never a panic.
func TestParseErrors(t *testing.T) {
	s := newGame(t, 2)
	for _, l := range []string{"", "GO", "GO 0", "GO 29", "GO X", "GO HOME RES", "GO HOME RES PURPLE", "BUY", "BUY HO5",
		"BUY HO6 D1", "BUY HO5 SH1", "BUY HO5 Z9", "SHED", "SHED S1 S1", "SCORE", "SCORE X", "SCORE X 9", "SCORE Q",
		"PRIV", "PRIV GOLD", "PRIV COLOR", "SELL", "SELL GOLD", "HOME", "HOME MOON", "PREF", "PREF HOME MOON",
		"PREF PRIV LOW", "AUTO ENDSELL MAYBE", "DONE NOW", "FOO", "\x00\x01", "GO 12 13", "BUY M5 D1"} {
		_, err := s.Parse(0, l)
		if _, ok := engine.AsRuleError(err); !ok {
			t.Errorf("%q: %v", l, err)
		}
	}
}

// §10.4: PREF GARDEN COMPACT draws the seat's own garden narrow (at most
// 40 columns); other seats' standing orders stay private.
func TestPrefGardenCompact(t *testing.T) {
	s := newGame(t, 2)
	must(t, s, 1, "PREF GARDEN COMPACT")
	v := s.View(1).(View)
	for _, l := range v.Players[1].Garden {
		if len(l) > 40 {
			t.Fatalf("line %q", l)
		}
	}
	if w := s.View(0).(View); w.Players[1].Narrow || len(w.Players[0].Garden[0]) <= 30 {
		t.Fatalf("ben's preference leaked or ann's garden narrow")
	}
	must(t, s, 1, "PREF GARDEN WIDE")
	if s.Players[1].Narrow {
		t.Fatalf("PREF GARDEN WIDE ignored")
	}
}
