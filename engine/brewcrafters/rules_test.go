package brewcrafters

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
)

// BC-3.7: two-player games leave out the Collaboration-only worker, and the
// first game uses the nine marked workers.
func TestBC3_7WorkersPerCount(t *testing.T) {
	for i := 0; i < 20; i++ {
		s := newGame(t, 2, "w"+strings.Repeat("x", i), "variant", "standard")
		all := append(append([]string(nil), s.Workers...), s.Unused...)
		if slices.Contains(all, "COLLAB_LIAISON") {
			t.Fatal("COLLAB_LIAISON in a 2-player game")
		}
		if len(s.Workers) != 9 {
			t.Fatalf("%d workers", len(s.Workers))
		}
	}
}

// BC-4.3, BC-5.9.5: at the end of Fall, planted items are harvested
// automatically; meeples and tokens come back.
func TestBC4_3FallHarvest(t *testing.T) {
	s := newGame(t, 2, "harvest")
	s.Season = 2
	s.P[0].Built = []string{"FARM"}
	s.P[0].Plots = []string{"H", "F"}
	s.P[0].Ing = catalog.Bag{}
	toSeason(t, s, 3)
	if len(s.P[0].Plots) != 0 || s.P[0].Ing[catalog.IF] < 2 || s.P[0].Ing[catalog.IH] < 3 {
		t.Fatalf("plots %v ing %s", s.P[0].Plots, s.P[0].Ing)
	}
	for _, sp := range s.Spaces {
		if sp.Occ >= 0 {
			t.Fatal("a meeple stayed on the board")
		}
	}
}

// BC-5.2.6, A-16: a compulsory placement with no legal space is skipped.
func TestBC5_2_6NoLegalSpaceSkipped(t *testing.T) {
	s := newGame(t, 2, "skip")
	for i := range s.Spaces {
		s.Spaces[i].Occ = 1
	}
	s.Spaces[7].Occ = -1 // FUND free
	do(t, s, 0, "M FUND")
	// Bob has no space: skipped; Ann has none either: on to the Brewery.
	if s.Phase != phBrewery {
		t.Fatalf("phase %s, pending %+v", s.Phase, s.Pending())
	}
}

// BC-5.3.2: at most 3 shifts; Shift Supervisor lowers the thresholds.
func TestBC5_3_2Shifts(t *testing.T) {
	s := newGame(t, 3, "shift")
	p := &s.P[0]
	p.Workers = []string{"SHIFT_SUPERVISOR"}
	s.Unused = remove(s.Unused, "SHIFT_SUPERVISOR")
	p.Batches, p.Shipping = 2, []string{"EA", "EA"}
	do(t, s, 0, "M M1 SHIFT")
	if p := &s.P[0]; p.Shifts != 2 || p.Rep != 1 {
		t.Fatalf("shifts %d rep %d", p.Shifts, p.Rep)
	}
	s.P[0].Shifts = 3
	if err := s.canShift(&s.P[0]); err == nil || err.(*engine.RuleError).Code != "max_shifts" {
		t.Fatalf("fourth shift: %v", err)
	}
}

// BC-5.5.1: no Brewpub, no PUB slot; a single system has one tank.
func TestBC5_5_1Slots(t *testing.T) {
	s := newGame(t, 2, "slots")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	s.P[seat].Ing = catalog.Bag{10, 5, 3}
	wantErr(t, s, seat, "B PROCESS BREW EA@PUB", "BC-5.5.1")
	wantErr(t, s, seat, "B PROCESS BREW EA EA", "BC-5.5.1")
}

// BC-5.6.3, BC-5.6.4: the fourth portion completes the batch and rewards
// every contributor, but never from one player alone.
func TestBC5_6Collaboration(t *testing.T) {
	s := newGame(t, 3, "collab")
	toPhase(t, s, phBrewery)
	a := s.Pending()[0].Seat
	s.Collab = []int{a, a, a, -1}
	s.P[a].Collab = []string{"M", "H", "Y"}
	s.P[a].Ing = catalog.Bag{0, 0, 0, 1}
	wantErr(t, s, a, "B COLLAB ADV F", "BC-5.6.4")
	o := (a + 1) % 3
	s.Collab = []int{a, a, o, -1}
	s.P[a].Collab = []string{"M", "H"}
	s.P[o].Collab = []string{"Y"}
	repO, moneyO := s.P[o].Rep, s.P[o].Money
	do(t, s, a, "B COLLAB ADV F")
	if s.P[a].Rep != 2+2+2 || s.P[o].Rep != repO+1 || s.P[o].Money != moneyO+1 || s.Collab[0] != -1 || len(s.P[a].Collab) != 0 {
		t.Fatalf("rewards: a %d, o %d; card %v", s.P[a].Rep, s.P[o].Rep, s.Collab)
	}
	// Two players: no Collaboration at all (BC-3.4).
	s2 := newGame(t, 2, "collab2")
	toPhase(t, s2, phBrewery)
	wantErr(t, s2, s2.Pending()[0].Seat, "B COLLAB M", "BC-3.4")
}

// BC-5.7.1: a track at Game End cannot advance; BC-5.8.2 one of each.
func TestBC5_7_1TrackEndAndBuiltOnce(t *testing.T) {
	s := newGame(t, 2, "track")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	s.P[seat].Research[catalog.TrAdv] = stGameEnd
	wantErr(t, s, seat, "B RESEARCH ADV", "BC-5.7.1")
	s.P[seat].Built = []string{"MASH_TUN"}
	wantErr(t, s, seat, "B INSTALL MASHTUN", "BC-5.8.2")
}

// BC-5.1.6, BC-5.9.2, BC-5.9.3: Loans and exchanges are free actions of the
// decision owner; Loans are never repaid.
func TestBC5_9FreeActions(t *testing.T) {
	s := newGame(t, 2, "free")
	do(t, s, 0, "LOAN 2")
	if s.P[0].Money != 10 || s.P[0].Loans != 2 {
		t.Fatalf("$%d loans %d", s.P[0].Money, s.P[0].Loans)
	}
	if re := try(s, 1, "LOAN"); re == nil || re.Code != engine.CodeNotYourTurn {
		t.Fatalf("out of turn: %v", re)
	}
	wantErr(t, s, 0, "EXCHANGE COFFEE M", "BC-5.9.2")
	s.P[0].Partners = []string{"COFFEE"}
	s.Partners = remove(s.Partners, "COFFEE")
	do(t, s, 0, "EXCHANGE COFFEE M 2")
	if s.P[0].Ing.String() != "1H 2C" {
		t.Fatalf("%s", s.P[0].Ing)
	}
	wantErr(t, s, 0, "REPAY", "BC-5.1.6")
	if parts := s.scoreParts(0); parts[len(parts)-1].Points != -5 {
		t.Fatalf("2 loans: %v", parts)
	}
}

// BC-5.12.1: Interns come at the season start, give an extra Market or
// Brewery action, and go back at the season end.
func TestBC5_12_1InternsFlow(t *testing.T) {
	s := newGame(t, 2, "interns", "complex_interns", "on")
	do(t, s, 0, "M INTERNS")
	toSeason(t, s, 1)
	if s.P[0].Interns != 1 {
		t.Fatalf("interns held %d", s.P[0].Interns)
	}
	// Two regular placements each, then Ann's Intern turn.
	for s.Pending()[0].Kind != kindIntern {
		d := s.Pending()[0]
		do(t, s, d.Seat, d.Default)
	}
	do(t, s, 0, "M FUND")
	toPhase(t, s, phBrewery)
	if s.tokens(&s.P[0]) != 1 {
		t.Fatal("the Market Intern also worked in the Brewery")
	}
	toSeason(t, s, 2)
	if s.P[0].Interns != 1 || s.Interns != 1 {
		t.Fatalf("fall: held %d supply %d", s.P[0].Interns, s.Interns)
	}
	do(t, s, 0, "SET INTERN BREWERY")
	toPhase(t, s, phBrewery)
	if s.tokens(&s.P[0]) != 2 {
		t.Fatalf("tokens %d", s.tokens(&s.P[0]))
	}
	toSeason(t, s, 3)
	if s.Interns != 2 {
		t.Fatalf("winter supply %d", s.Interns)
	}
}

// BC-5.12.3: the Employment Agency draws up to 6 unused workers; hiring one
// costs $1.
func TestBC5_12_3Agency(t *testing.T) {
	s := newGame(t, 2, "agency", "complex_agency", "on")
	unused := len(s.Unused)
	do(t, s, 0, "M AGENCY")
	d := s.Pending()[0]
	if d.Kind != kindHire || len(s.Agency) != 6 || len(s.Unused) != unused-6 {
		t.Fatalf("%+v agency %d", d, len(s.Agency))
	}
	w := s.Agency[2]
	do(t, s, 0, "HIRE "+w)
	if !slices.Contains(s.P[0].Workers, w) || s.P[0].Money != 5 || len(s.Unused) != unused-1 || len(s.Agency) != 0 {
		t.Fatalf("hired %v money %d", s.P[0].Workers, s.P[0].Money)
	}
}

// BC-7.2: the score categories, including unfinished collaborations, the
// Tour & Tasting Room, research Game End, the Beer Judge and Loans.
func TestBC7_2Scoring(t *testing.T) {
	s := newGame(t, 3, "score")
	p := &s.P[0]
	p.Shipping = []string{"EA", "PUMPKIN", "PUMPKIN"}
	p.Tanks[0] = "SS"
	p.Batches = 4
	p.Brewed = []string{"EA", "SS", "PUMPKIN"}
	p.Built = []string{"TOUR_TASTING", "FARM"}
	p.Research = [4]int{stGameEnd, stGameEnd, stGameEnd, stGameEnd}
	p.Rep = 5
	p.Labels = []string{"PUMPKIN"}
	s.Labels = remove(s.Labels, "PUMPKIN")
	s.Collab[0] = 0
	p.Collab = []string{"M"}
	p.Workers = []string{"BEER_JUDGE"}
	s.Unused = remove(s.Unused, "BEER_JUDGE")
	p.Loans = 3
	got := map[string]int{}
	for _, pt := range s.scoreParts(0) {
		got[pt.Name] = pt.Points
	}
	want := map[string]int{spBeer: 2 + 5 + 5 + 2, spResearch: 2*2 + 2 + 4/2 + 1, spTasting: 1, spTokens: 5,
		spLabels: 3, spCollab: 1, spWorkers: 3, spLoans: -8}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d, want %d", k, got[k], v)
		}
	}
}

// BC-10.2: orders for a later phase are queued, not rejected; a free action
// alone out of turn is refused.
func TestRoute(t *testing.T) {
	s := newGame(t, 2, "route")
	orders := engine.ParseScript("B PROCESS BREW EA | B PASS\nQUEUE M HOPS\nSET DISCARD M\nLOAN")
	if errs := s.Route(1, orders); errs != nil {
		for _, e := range errs {
			if e != nil {
				t.Fatal(e)
			}
		}
	}
	if orders[0].Slot != "s0.brewery" || orders[1].Slot != "s0.market" || !orders[2].Now || !orders[3].Now {
		t.Fatalf("%+v", orders)
	}
	if orders[1].Alts[0][0] != "M HOPS" {
		t.Fatalf("QUEUE prefix kept: %q", orders[1].Alts[0][0])
	}
	ranked := engine.ParseScript("MARKET 3 > HOPS > FUND")
	s.Route(1, ranked)
	if len(ranked[0].Alts) != 3 || ranked[0].Alts[0][0] != "M 3" {
		t.Fatalf("%+v", ranked[0].Alts)
	}
	m, err := s.Parse(1, "M 3")
	if err != nil || m.String() != "M M3 MALT" {
		t.Fatalf("%v %v", m, err)
	}
	if _, err := s.Parse(1, "M 1"); err == nil || err.(*engine.RuleError).Code != "dual_space" {
		t.Fatalf("M 1: %v", err)
	}
	if errs := s.Route(0, engine.ParseScript("FLY AWAY")); errs == nil || errs[0] == nil {
		t.Fatal("unknown command routed")
	}
}

// BC-6.2: a Brewing Experimental token on an undeveloped Secret Recipe does
// not reveal it to the others.
func TestBC6_2SecretBrewToken(t *testing.T) {
	s := newGame(t, 2, "secret-token", "complex_secret", "on")
	toPhase(t, s, phBrewery)
	seat := s.Pending()[0].Seat
	do(t, s, seat, "B SECRET MILK")
	s.P[seat].BrewToken = "MILK"
	if v := s.View(1 - seat).(*View); v.Players[seat].BrewToken == "MILK" {
		t.Fatal("the token reveals the secret")
	}
	if v := s.View(seat).(*View); v.Players[seat].BrewToken != "MILK" {
		t.Fatal("the owner does not see the token")
	}
}

// BC-10.2: "HIRE BEST a b c" answers the Employment Agency with the first
// worker of the list that was drawn, else nobody.
func TestHireBest(t *testing.T) {
	s := newGame(t, 2, "agency", "complex_agency", "on")
	do(t, s, 0, "M AGENCY")
	w := s.Agency[4]
	do(t, s, 0, "HIRE BEST "+s.Workers[0]+" "+w)
	if !slices.Contains(s.P[0].Workers, w) {
		t.Fatalf("workers %v", s.P[0].Workers)
	}
}

// Check catches broken positions: a worker twice, a lost Gold Label,
// negative stock, storage over capacity with no discard pending.
func TestCheckCatches(t *testing.T) {
	for name, breakIt := range map[string]func(s *State){
		"worker twice":  func(s *State) { s.P[0].Workers = append(s.P[0].Workers, s.Workers[0]) },
		"label lost":    func(s *State) { s.Labels = s.Labels[1:] },
		"negative malt": func(s *State) { s.P[1].Ing[catalog.IM] = -1 },
		"overflow":      func(s *State) { s.P[0].Ing[catalog.IM] = 20 },
		"batches":       func(s *State) { s.P[0].Batches = 3 },
		"intern lost":   func(s *State) { s.Interns-- },
	} {
		s := newGame(t, 3, "check", "complex_interns", "on")
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		breakIt(s)
		if err := s.Check(); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
}
