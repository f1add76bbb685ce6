package heavenale

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// The agreement rule (engine/doc.go, issue 21, §10.1) for every kind of
// forced choice of Heaven & Ale, through the Table: the player's line
// agreeing with what the engine does itself (agreed, never refused or
// dropped), differing (refused with the true reason, or played when it is
// legal and only a standing order made the choice single), and absent (the
// engine does it itself).

// forcedCase is one whole mail of Ann's (seat 0) at a forced choice.
type forcedCase struct {
	name  string
	setup func(s *State)
	mail  string
	// want is the outcome of each line; rule and code the first error of
	// the refused line (for want holding "rejected").
	want       string
	rule, code string
	check      func(t *testing.T, s *State)
}

// forcedTable is newTable with Ann to move in round 1.
func forcedTable(t *testing.T, setup func(s *State)) (*engine.Table, *State) {
	t.Helper()
	_, s := newTable(t)
	if s.Cur != 0 || s.Sub != subMove {
		t.Fatalf("Ann is not to move: cur %d %s", s.Cur, s.Sub)
	}
	if setup != nil {
		setup(s)
	}
	tb := engine.WrapTable(Game{}, s)
	return tb, tb.State.(*State)
}

// tv03 is TV-03's Charles as Ann: BA is her only usable colour spot on C.
func tv03(s *State) {
	put(s, 0, "S2", "BA2", "D4", "BA4", "S5", "HO1")
	s.Players[0].Spots[catalog.SpotColor+2] = true // HO holds a disc
	s.Players[0].Markers[4] = -8
	s.Players[0].Ducats = 5
}

// homeForced: Ben is home on BREW; Ann, last on the track, must take
// FIRST (HA-5.12.3) when she goes home.
func homeForced(s *State) {
	s.Home = [4]int{-1, 1, -1, -1}
	s.Players[1].Spot, s.Players[1].Back, s.Players[1].Pos = catalog.HomeBrew, true, 0
	s.Players[0].Pos, s.Players[0].Spot = 1, -1
	s.Cur = 0
}

// saleForced: Ann holds 1 ducat and only BREW; space 2 holds HO2 alone:
// the sale of BREW is her only legal answer after GO 2 (HA-5.10.1).
func saleForced(s *State) {
	s.Spaces[2] = []string{"HO2"}
	s.Players[0].Ducats = 1
	s.Players[0].Cards = []string{"BREW"}
}

// privPref: TV-03 with WA used too and PREF PRIV CASH: scoring BA
// completes WA+BA, and the standing order makes the card single.
func privPref(s *State) {
	tv03(s)
	s.Players[0].Spots[catalog.SpotColor+3] = true
	s.Players[0].PrefPriv = []string{"CASH"}
}

func TestForcedChoicesAgreeDifferAbsent(t *testing.T) {
	cases := []forcedCase{
		// HA-5.6.2, TV-03: a disc whose only usable spot is BA.
		{name: "score/agree", setup: tv03, mail: "GO 12\nSCORE BA", want: "applied,agreed",
			check: func(t *testing.T, s *State) {
				if !s.Players[0].Spots[catalog.SpotColor+4] || s.Players[0].Markers[4] != -6 || s.Players[0].Ducats != 9 {
					t.Fatalf("BA not scored: %+v", s.Players[0])
				}
			}},
		{name: "score/differ-occupied", setup: tv03, mail: "GO 12\nSCORE HO", want: "skipped,rejected", rule: "HA-5.6.4", code: "spot_used"},
		{name: "score/differ-unusable", setup: tv03, mail: "GO 12\nSCORE WA", want: "skipped,rejected", rule: "HA-5.6.2", code: "spot_unusable"},
		{name: "score/absent", setup: tv03, mail: "GO 12", want: "applied",
			check: func(t *testing.T, s *State) {
				if !s.Players[0].Spots[catalog.SpotColor+4] || s.Cur != 1 {
					t.Fatalf("forced BA not played: cur %d", s.Cur)
				}
			}},
		// HA-5.12.3: forced FIRST.
		{name: "home/agree", setup: homeForced, mail: "GO HOME\nHOME FIRST", want: "applied,agreed",
			check: func(t *testing.T, s *State) {
				if s.Home[catalog.HomeFirst] != 0 {
					t.Fatalf("Ann not on FIRST: %v", s.Home)
				}
			}},
		{name: "home/differ-taken", setup: homeForced, mail: "GO HOME\nHOME BREW", want: "skipped,rejected", rule: "HA-5.12.1", code: "home_taken"},
		{name: "home/differ-forced", setup: homeForced, mail: "GO HOME\nHOME CASH", want: "skipped,rejected", rule: "HA-5.12.3", code: "first_forced"},
		// Issue 21: GO HOME BREW with another figure on BREW cites
		// HA-5.12.1, not HA-5.12.3 (the last player home).
		{name: "home/go-home-taken", setup: homeForced, mail: "GO HOME BREW", want: "rejected", rule: "HA-5.12.1", code: "home_taken"},
		{name: "home/go-home-forced", setup: homeForced, mail: "GO HOME CASH", want: "rejected", rule: "HA-5.12.3", code: "first_forced"},
		// Issue 21: a line with another command word than the forced
		// option, which ends the turn, is refused at once with why it
		// cannot be played (it waited and was dropped as turn_over).
		{name: "home/differ-word", setup: homeForced, mail: "GO HOME\nSCORE BA", want: "skipped,rejected", rule: "", code: "wrong_decision"},
		{name: "home/absent", setup: homeForced, mail: "GO HOME", want: "applied",
			check: func(t *testing.T, s *State) {
				if s.Home[catalog.HomeFirst] != 0 {
					t.Fatalf("Ann not on FIRST: %v", s.Home)
				}
			}},
		// HA-5.10.1: the only legal answer is a sale.
		{name: "sale/agree", setup: saleForced, mail: "GO 2\nSELL BREW\nBUY HO2 D1", want: "applied,agreed,applied",
			check: func(t *testing.T, s *State) {
				if s.Players[0].Garden[s.r.CellIdx["D1"]] != "HO2" || s.Players[0].Ducats != 2 {
					t.Fatalf("sale and purchase: %+v", s.Players[0])
				}
			}},
		{name: "sale/differ", setup: saleForced, mail: "GO 2\nSELL CASH\nBUY HO2 D1", want: "skipped,rejected,skipped", rule: "HA-5.10.1", code: "no_card"},
		{name: "sale/absent", setup: saleForced, mail: "GO 2\nBUY HO2 D1", want: "applied,applied",
			check: func(t *testing.T, s *State) {
				if s.Players[0].Garden[s.r.CellIdx["D1"]] != "HO2" || len(s.Players[0].Cards) != 0 {
					t.Fatalf("sale and purchase: %+v", s.Players[0])
				}
			}},
		// §10.2: a privilege card made single by PREF PRIV: an explicit
		// PRIV line is the player's choice and wins.
		{name: "priv/agree", setup: privPref, mail: "GO 12\nSCORE BA\nPRIV CASH", want: "applied,agreed,agreed",
			check: func(t *testing.T, s *State) {
				if s.Players[0].Placed[s.r.PairOf[catalog.SpotColor+4]] != "CASH" {
					t.Fatalf("CASH not placed: %v", s.Players[0].Placed)
				}
			}},
		{name: "priv/differ-legal", setup: privPref, mail: "GO 12\nSCORE BA\nPRIV BREW", want: "applied,agreed,applied",
			check: func(t *testing.T, s *State) {
				if s.Players[0].Placed[s.r.PairOf[catalog.SpotColor+4]] != "BREW" {
					t.Fatalf("BREW not placed: %v", s.Players[0].Placed)
				}
			}},
		{name: "priv/absent", setup: privPref, mail: "GO 12", want: "applied",
			check: func(t *testing.T, s *State) {
				if s.Players[0].Placed[s.r.PairOf[catalog.SpotColor+4]] != "CASH" {
					t.Fatalf("CASH not placed: %v", s.Players[0].Placed)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, _ := forcedTable(t, c.setup)
			rep := submit(t, tb, 0, c.mail)
			if got := statuses(rep); got != c.want {
				t.Fatalf("outcomes %s, want %s: %+v", got, c.want, rep.Results)
			}
			for _, r := range rep.Results {
				if r.Status == engine.OutcomeRejected {
					if len(r.Errors) == 0 || r.Errors[0].Rule != c.rule || r.Errors[0].Code != c.code {
						t.Fatalf("refused with %v, want %s %s", r.Errors, c.rule, c.code)
					}
				}
				if r.Status == engine.OutcomeDropped {
					t.Fatalf("a line was dropped: %+v", r)
				}
			}
			if c.check != nil {
				c.check(t, tb.State.(*State))
			}
		})
	}
}

// TV-03 email by email (§10.1): after "GO 12" the engine placed the disc on
// BA itself; a later "SCORE BA" agrees with it (done, nothing changes), a
// later "SCORE HO" is refused with the true reason.
func TestForcedTV03LaterMails(t *testing.T) {
	tb, _ := forcedTable(t, tv03)
	if rep := submit(t, tb, 0, "GO 12"); statuses(rep) != "applied" {
		t.Fatalf("GO 12: %s", statuses(rep))
	}
	if auto := tb.Forced[0]; strings.Join(auto, "|") != "SCORE BA" {
		t.Fatalf("forced moves remembered: %q", auto)
	}
	tok := tb.Token()
	rep := submit(t, tb, 0, "SCORE HO")
	if !rep.Rejected || rep.Results[0].Errors[0].Rule != "HA-5.6.4" {
		t.Fatalf("SCORE HO: %s %v", statuses(rep), rep.Results[0].Errors)
	}
	rep = submit(t, tb, 0, "SCORE BA")
	if rep.Rejected || statuses(rep) != "agreed" || tb.Token() != tok {
		t.Fatalf("SCORE BA: %s %+v (token %d, was %d)", statuses(rep), rep.Results, tb.Token(), tok)
	}
	// Agreed once: the memory is spent, and the same line now is the
	// player's own (refused: BA holds a disc).
	rep = submit(t, tb, 0, "SCORE BA")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != "spot_used" {
		t.Fatalf("SCORE BA again: %s %v", statuses(rep), rep.Results[0].Errors)
	}
}

// The sole legal move (HA-5.1.4: nothing on the track is reachable) is
// played by the engine when the turn comes; the mail that follows may
// write it out: agreed.
func TestForcedGoHomeWrittenAfter(t *testing.T) {
	tb, _ := forcedTable(t, func(s *State) {
		bare(s)
		s.Players[0].Pos, s.Players[0].Spot = 3, -1
		s.Home[catalog.HomeFirst] = -1
	})
	// WrapTable does not advance: let a no-op standing order do it.
	rep := submit(t, tb, 0, "PREF GARDEN WIDE")
	if rep.Rejected {
		t.Fatalf("%s", statuses(rep))
	}
	s := tb.State.(*State)
	if s.Sub != subHome || s.Cur != 0 {
		t.Fatalf("GO HOME not forced: cur %d %s (forced %v)", s.Cur, s.Sub, tb.Forced)
	}
	rep = submit(t, tb, 0, "GO HOME\nHOME BREW")
	if got := statuses(rep); got != "agreed,applied" {
		t.Fatalf("GO HOME / HOME BREW: %s %+v", got, rep.Results)
	}
	if s := tb.State.(*State); s.Home[catalog.HomeBrew] != 0 {
		t.Fatalf("Ann not on BREW: %v", s.Home)
	}
}

// §10.1 after a shed (issue 21): the mail that answers a shed choice goes
// on buying; its BUY lines apply and DONE is implied after the last. A
// line refused at the shed prompt lists that prompt's options.
func TestShedAnswerThenBuy(t *testing.T) {
	tb, _ := newTable(t)
	submit(t, tb, 0, "GO 2\nBUY HO2 S1")
	s := tb.State.(*State)
	put(s, 1, "S9", "HO5", "S8", "BA4", "S6", "WA3", "S3", "YE2", "S4", "WO1")
	s.Spaces[6] = []string{"HO2", "WO1"}
	s.Players[1].Ducats = 30
	rep := submit(t, tb, 1, "GO 6\nBUY HO2 S7")
	if s = tb.State.(*State); rep.Rejected || s.Sub != subShed {
		t.Fatalf("shed pending: %s %s", statuses(rep), s.Sub)
	}
	// A BUY before the SHED answer: refused, with the shed's options.
	rep = submit(t, tb, 1, "BUY WO1 D1")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != engine.CodeWrongDecision {
		t.Fatalf("BUY at the shed prompt: %s %v", statuses(rep), rep.Results[0].Errors)
	}
	if opts, _ := rep.Results[0].Errors[0].Params["options"].([]string); len(opts) < 2 || !strings.HasPrefix(opts[0], "SHED ") {
		t.Fatalf("no shed options in the refusal: %v", rep.Results[0].Errors[0])
	}
	rep = submit(t, tb, 1, "SHED S1 S2")
	if !rep.Rejected || rep.Results[0].Errors[0].Code != "bad_shed_choice" || rep.Results[0].Errors[0].Params["options"] == nil {
		t.Fatalf("bad shed choice: %s %v", statuses(rep), rep.Results[0].Errors)
	}
	rep = submit(t, tb, 1, "SHED S6 S7\nBUY WO1 D1")
	s = tb.State.(*State)
	if got := statuses(rep); got != "applied,applied" {
		t.Fatalf("SHED then BUY: %s %+v", got, rep.Results)
	}
	if len(s.Spaces[6]) != 0 || s.Players[1].Garden[s.r.CellIdx["D1"]] != "WO1" || s.Cur != 0 {
		t.Fatalf("BUY after the shed not applied: space 6 %v, cur %d %s", s.Spaces[6], s.Cur, s.Sub)
	}
}
