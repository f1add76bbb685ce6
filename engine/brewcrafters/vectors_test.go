package brewcrafters

// The specification's test vectors (§11) that play moves are cases of
// testdata/spec.vectors, played by TestVectors (vectorfile_test.go); the
// ones below check setup, scoring and parts of a turn through internals
// and stay Go tests, as in engine/heavenale.

import (
	"testing"

	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
)

// toPhase answers decisions with their defaults until the phase is reached.
func toPhase(t *testing.T, s *State, phase string) {
	t.Helper()
	for n := 0; s.Phase != phase; n++ {
		if n > 500 || s.Res != nil {
			t.Fatalf("phase %s not reached", phase)
		}
		d := s.Pending()[0]
		do(t, s, d.Seat, d.Default)
	}
}

// toSeason answers decisions with their defaults until season k starts.
func toSeason(t *testing.T, s *State, k int) {
	t.Helper()
	for n := 0; s.Season != k; n++ {
		if n > 500 || s.Res != nil {
			t.Fatalf("season %d not reached", k)
		}
		d := s.Pending()[0]
		do(t, s, d.Seat, d.Default)
	}
}

func wantErr(t *testing.T, s *State, seat int, cmd, rule string) {
	t.Helper()
	re := try(s, seat, cmd)
	if re == nil {
		t.Fatalf("%q was accepted, want %s", cmd, rule)
	}
	if re.Rule != rule {
		t.Fatalf("%q: %v, want rule %s", cmd, re, rule)
	}
}

// TV-01 Starting resources (BC-3.10, BC-3.2, BC-3.3, BC-3.6, BC-3.7).
func TestTV01StartingResources(t *testing.T) {
	for _, n := range []int{4, 5} {
		s := newGame(t, n, "tv01")
		want := []struct {
			money int
			ing   string
		}{{6, "2M 1H"}, {7, "2M 1H"}, {6, "3M 1H"}, {6, "2M 2H"}, {6, "2M 1H 1Y"}}
		for i := 0; i < n; i++ {
			p := &s.P[i]
			if p.Money != want[i].money || p.Ing.String() != want[i].ing {
				t.Errorf("%dp seat %d: $%d %s", n, i, p.Money, p.Ing)
			}
			if s.capacity(p) != 12 || s.opCost(p) != 5 || p.Shifts != 1 || p.Research != [4]int{} {
				t.Errorf("%dp seat %d: capacity, cost, shifts or research", n, i)
			}
		}
		if s.Start != 0 || len(s.Spaces) != 2*n+4 || len(s.Partners) != 4 || s.Collab == nil {
			t.Errorf("%dp: start %d spaces %d partners %d", n, s.Start, len(s.Spaces), len(s.Partners))
		}
		if got := len(s.Labels); got != 6 || len(s.Recipes) != 9 || s.Recipes[3] != "PUMPKIN" {
			t.Errorf("recipes %v labels %v", s.Recipes, s.Labels)
		}
		for _, w := range s.Workers {
			if !s.r.Workers[w].FirstGame {
				t.Errorf("worker %s not first-game", w)
			}
		}
		if len(s.Workers) != 9 {
			t.Errorf("%d workers", len(s.Workers))
		}
	}
}

// TV-06 Style prerequisite (BC-5.5.6).
func TestTV06StylePrerequisite(t *testing.T) {
	s := newGame(t, 2, "tv06")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	p := &s.P[seat]
	p.Built = append(p.Built, "DOUBLE_BATCH")
	p.Ing = catalog.Bag{12, 4, 4}
	wantErr(t, s, seat, "B PROCESS BREW PP@T1 SMOKED@T2", "BC-5.5.6")
	do(t, s, seat, "B PROCESS BREW PP@T1 PP@T2")
	if s.canBrew(&s.P[seat], "SMOKED") != nil {
		t.Fatal("SMOKED still locked after PP")
	}
}

// TV-09, TV-10 Operating costs and the short-by-one Loan (BC-5.11).
func TestTV09TV10OperatingCosts(t *testing.T) {
	s := newGame(t, 2, "tv09")
	s.P[0].Money, s.P[1].Money = 9, 4
	s.payCosts(0)
	s.payCosts(1)
	if s.P[0].Money != 4 || s.P[0].Loans != 0 || s.P[1].Money != 1 || s.P[1].Loans != 1 {
		t.Fatalf("%+v %+v", s.P[0].Money, s.P[1])
	}
	if parts := s.scoreParts(1); parts[len(parts)-1].Points != -2 {
		t.Fatalf("loan points %v", parts)
	}
}

// TV-20 Tie-break on money (BC-7.3).
func TestTV20TieBreak(t *testing.T) {
	s := newGame(t, 2, "tv20")
	s.P[0].Rep, s.P[1].Rep = 48, 48
	s.P[0].Money, s.P[1].Money = 3, 7
	s.finish()
	if s.Res.Rank[1] != 1 || s.Res.Rank[0] != 2 {
		t.Fatalf("rank %v", s.Res.Rank)
	}
	s2 := newGame(t, 2, "tv20b")
	s2.P[0].Rep, s2.P[1].Rep = 48, 48
	s2.P[0].Money, s2.P[1].Money = 7, 7
	s2.finish()
	if s2.Res.Rank[0] != 1 || s2.Res.Rank[1] != 1 {
		t.Fatalf("shared win: %v", s2.Res.Rank)
	}
}

// TV-21 No firing (BC-5.11.4).
func TestTV21NoFiring(t *testing.T) {
	s := newGame(t, 2, "tv21")
	if _, err := s.Parse(0, "FIRE CHEMIST"); err == nil {
		t.Fatal("FIRE parsed")
	}
	wantErr(t, s, 0, "FIRE CHEMIST", "BC-5.11.4")
}

// TV-24 Brewpub pipeline (BC-5.5.8).
func TestTV24BrewpubPipeline(t *testing.T) {
	s := newGame(t, 2, "tv24")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	p := &s.P[seat]
	p.Built = []string{"BREWPUB"}
	p.Ing = catalog.Bag{7, 3, 2}
	p.Brewed = []string{}
	do(t, s, seat, "B PROCESS BREW EA@T1 PP@PUB")
	p = &s.P[seat]
	if p.Tanks[0] != "EA" || p.Pub != "PP" || p.Batches != 2 || len(p.Shipping) != 0 {
		t.Fatal("spring")
	}
	m := p.Money
	if err := s.process(seat, &notation.Move{Verb: "PROCESS"}); err != nil {
		t.Fatal(err)
	}
	if p.Money != m+2 || p.Bottles[0] != "EA" || p.Pub != "" {
		t.Fatal("summer")
	}
}

// TV-27 Secret Recipe (BC-5.12.5, BC-6.2).
func TestTV27SecretRecipe(t *testing.T) {
	s := newGame(t, 2, "tv27", "complex_secret", "on")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	evs := do(t, s, seat, "B SECRET MILK")
	for _, e := range evs {
		if e.Type == "bc.secret" {
			if red, ok := e.For(1 - seat); !ok || red.Params["recipe"] != nil {
				t.Fatal("secret leaked")
			}
		}
	}
	v := s.View(1 - seat).(*View)
	if pv := v.Players[seat]; pv.Hidden != 1 || len(pv.Secrets) != 0 {
		t.Fatal("view leaks the secret")
	}
	p := &s.P[seat]
	p.Brewed = []string{"SS"}
	p.Ing = catalog.Bag{5, 1, 2}
	if err := s.process(seat, &notation.Move{Verb: "PROCESS", Brews: []notation.Brew{{Recipe: "MILK"}}}); err != nil {
		t.Fatal(err)
	}
	_ = s.process(seat, &notation.Move{Verb: "PROCESS"})
	r := p.Rep
	_ = s.process(seat, &notation.Move{Verb: "PROCESS"})
	if p.Rep != r+5 || len(p.Labels) != 0 {
		t.Fatalf("rep %d labels %v", p.Rep-r, p.Labels)
	}
}

// TV-14 Infusers are not automatic (BC-5.8.3, BC-5.8.2).
func TestTV14Infusers(t *testing.T) {
	s := newGame(t, 2, "tv14")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	s.P[seat].Infusers[catalog.SlT1] = true
	s.P[seat].Ing = catalog.Bag{}
	if err := s.install(seat, &notation.Move{Verb: "INSTALL", Bld: "DOUBLE_BATCH"}); err != nil {
		t.Fatal(err)
	}
	p := &s.P[seat]
	if !p.Infusers[catalog.SlT1] || p.Infusers[catalog.SlT2] {
		t.Fatal("the Double changed the Infusers")
	}
	p.Built = append(p.Built, "BREWPUB")
	if err := s.install(seat, &notation.Move{Verb: "INSTALL", Bld: "HOPS_INFUSER"}); err != nil {
		t.Fatal(err)
	}
	if !p.Infusers[catalog.SlT2] || !p.Infusers[catalog.SlPub] || p.Ing[catalog.IH] != 2 {
		t.Fatalf("infusers %v hops %d", p.Infusers, p.Ing[catalog.IH])
	}
	if re := s.canInstall(p, "HOPS_INFUSER"); re == nil {
		t.Fatal("a fourth Infuser")
	}
}

// TV-15 A free install gives ingredients (BC-5.8.4, BC-5.7.3).
func TestTV15FreeInstall(t *testing.T) {
	s := newGame(t, 2, "tv15")
	s.P[0].Research[catalog.TrOps] = stAnnual
	s.P[0].PrefAnnual = ""
	s.Season = 2
	toSeason(t, s, 3)
	if s.seasonOf() != 3 || s.Pending()[0].Kind != kindStart || s.Pending()[0].Seat != 0 {
		t.Fatalf("no Winter start for seat 0: %+v", s.Pending())
	}
	m := s.P[0].Ing[catalog.IM]
	do(t, s, 0, "ANNUAL OPS INSTALL MASH_TUN")
	if !s.P[0].has("MASH_TUN") || s.P[0].Ing[catalog.IM] != m+2 || s.opCost(&s.P[0]) != 6 {
		t.Fatalf("mash tun: %v, malt %d, cost %d", s.P[0].Built, s.P[0].Ing[catalog.IM]-m, s.opCost(&s.P[0]))
	}
}

// TV-16 Planting twice in Spring, not in Summer (BC-5.9.4).
func TestTV16Planting(t *testing.T) {
	s := newGame(t, 2, "tv16")
	s.P[0].Built = []string{"FARM"}
	s.P[0].Ing = catalog.Bag{2, 2, 0, 1}
	do(t, s, 0, "PLANT H")
	do(t, s, 0, "M FUND")
	toPhase(t, s, phBrewery)
	for s.Pending()[0].Seat != 0 {
		d := s.Pending()[0]
		do(t, s, d.Seat, d.Default)
	}
	do(t, s, 0, "PLANT F")
	if len(s.P[0].Plots) != 2 {
		t.Fatalf("plots %v", s.P[0].Plots)
	}
	wantErr(t, s, 0, "PLANT M", "BC-5.9.4")
	toPhase(t, s, phMarket)
	s.P[0].Plots = []string{}
	if s.Pending()[0].Seat == 0 {
		wantErr(t, s, 0, "PLANT M", "BC-5.9.4")
	}
}

// TV-18 Research benefits add up (BC-5.7.6, BC-5.7.3).
func TestTV18ResearchAddsUp(t *testing.T) {
	s := newGame(t, 2, "tv18")
	s.P[0].Research[catalog.TrBasic] = stBreakthrough
	s.Season = 6
	toSeason(t, s, 7)
	d := s.Pending()[0]
	if d.Seat != 0 || d.Kind != kindStart {
		t.Fatalf("%+v", d)
	}
	before := s.P[0].Ing
	do(t, s, 0, "ANNUAL BASIC M M Y")
	if got := s.P[0].Ing.Sub(before); got.String() != "2M 1Y" {
		t.Fatalf("annual gave %s", got)
	}
	toPhase(t, s, phMarket)
	for s.Pending()[0].Seat != 0 {
		d := s.Pending()[0]
		do(t, s, d.Seat, d.Default)
	}
	before = s.P[0].Ing
	if s.Spaces[3].Occ < 0 {
		do(t, s, 0, "M HOPS +BASIC Y")
		if got := s.P[0].Ing.Sub(before); got[catalog.IY] != 1 {
			t.Fatalf("breakthrough: %s", got)
		}
	}
}

// TV-26 Operations Experimental token and Breakthrough (BC-5.7.2, BC-5.8.5).
func TestTV26OperationsToken(t *testing.T) {
	s := newGame(t, 2, "tv26")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	do(t, s, seat, "B RESEARCH OPS BREWPUB")
	p := &s.P[seat]
	if p.OpsToken != "SPACE_BREWPUB" || p.Research[catalog.TrOps] != 1 {
		t.Fatalf("token %q", p.OpsToken)
	}
	p.Research[catalog.TrOps] = stBreakthrough
	p.Workers = []string{"GENERAL_CONTRACTOR"}
	s.Unused = remove(s.Unused, "GENERAL_CONTRACTOR")
	p.Ing = catalog.Bag{}
	if err := s.install(seat, &notation.Move{Verb: "INSTALL", Bld: "BREWPUB", PlusOps: []string{"M", "M", "Y"}}); err != nil {
		t.Fatal(err)
	}
	if p.Rep != 2 || p.Ing.String() != "3M 1H 2Y" || s.opCost(p) != 8 {
		t.Fatalf("rep %d ing %s cost %d", p.Rep, p.Ing, s.opCost(p))
	}
}

// TV-29 Community Farm harvest, leftovers and overflow (BC-5.12.4).
func TestTV29CommunityFarm(t *testing.T) {
	s := newGame(t, 3, "tv29", "complex_cfarm", "on")
	// Ben (0) Hops, Chris (1) Malt, Darrell (2) Fruit, in that order.
	s.CF = []int{1, 0, 2}
	s.CFTok = []int{1, 0, 2}
	s.P[0].Ing = catalog.Bag{1, 1}
	s.P[1].Ing = catalog.Bag{6, 3, 2}
	s.P[2].Ing = catalog.Bag{1}
	s.Season = 2
	s.cfarmHarvest()
	// Shares: 7M/3 = 2 each + 1 left; 5H/3 = 1 each + 2 left; 3F/3 = 1 each.
	for s.Pending()[0].Kind == kindPick {
		d := s.Pending()[0]
		do(t, s, d.Seat, d.Default)
	}
	if s.CFLeft.Total() != 0 || len(s.CFTok) != 0 {
		t.Fatal("picks not finished")
	}
	d := s.Pending()[0]
	if d.Kind != kindDiscard || d.Seat != 1 {
		t.Fatalf("want Chris to discard, got %+v", d)
	}
	over := s.P[1].Ing.Total() - 12
	if over < 4 {
		t.Fatalf("Chris holds %d", s.P[1].Ing.Total())
	}
}
