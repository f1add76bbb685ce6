package fromage

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// FR-3.1, FR-3.5, FR-3.8, FR-3.9, FR-3.13: setup for every player count.
func TestFR3SetupByPlayerCount(t *testing.T) {
	wantPos := map[int][]int{1: {0}, 2: {0, 2}, 3: {0, 1, 2}, 4: {0, 1, 2, 3}}
	wantGroup := map[int]string{1: "1-2", 2: "1-2", 3: "3", 4: "4"}
	wantOpen := map[int][4]int{1: {12, 12, 12, 12}, 2: {12, 12, 12, 12}, 3: {15, 15, 15, 16}, 4: {18, 18, 18, 18}}
	for n := 1; n <= 4; n++ {
		for seed := 0; seed < 5; seed++ {
			cfg := engine.Config{Seats: seatNames[:n], Seed: fmt.Sprint("setup", seed)}
			st, evs, err := Game{}.NewState(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			if fmt.Sprint(s.Pos) != fmt.Sprint(wantPos[n]) || s.lay.group != wantGroup[n] {
				t.Fatalf("%dp: positions %v group %s", n, s.Pos, s.lay.group)
			}
			for v := 0; v < 4; v++ {
				open := 0
				for _, o := range s.lay.open[v] {
					if o {
						open++
					}
				}
				if open != wantOpen[n][v] {
					t.Errorf("%dp: %s has %d open spaces, want %d (D-2)", n, catalog.VenueNames[v], open, wantOpen[n][v])
				}
			}
			boards := map[int]bool{}
			drawn := 0
			for i, p := range s.Players {
				if p.Cheese != 15 || p.Workers != [3]Worker{} || boards[p.Board] {
					t.Fatalf("%dp seat %d: %+v", n, i, p)
				}
				boards[p.Board] = true
				drawn += len(p.Pending)
				// FR-3.9: 2 of the left quadrant, 1 of the opposite one.
				have := [4]int{p.Storage, p.Pasture, p.Basket, len(p.Pending)}
				want := [4]int{}
				want[s.ResAt[mod4(s.Pos[i]+1)]] += 2
				want[s.ResAt[mod4(s.Pos[i]+2)]]++
				if have != want {
					t.Fatalf("%dp seat %d starts with %v, want %v", n, i, have, want)
				}
			}
			if s.Corp != nil {
				drawn += len(s.Corp.Cards) + len(s.Discard)
				if s.Corp.Card >= 0 {
					drawn++
				}
			}
			if len(s.Deck)+drawn != 36 {
				t.Fatalf("%dp: deck %d + drawn %d", n, len(s.Deck), drawn)
			}
			perm := catalog.SortedCopy(s.Customer)
			if fmt.Sprint(perm) != "[0 1 2 3 4 5]" {
				t.Fatalf("customers %v (FR-3.6)", s.Customer)
			}
			if n == 1 {
				if s.Corp == nil || len(s.corpLevel().Track) != 15 || s.r.Boards[s.Players[0].Board].ID == 1 {
					t.Fatalf("solo: corp %+v, player board %d (D-16: level 1 is the back of board 1)", s.Corp, s.Players[0].Board+1)
				}
			} else if s.Corp != nil {
				t.Fatalf("%dp has a Corporation", n)
			}
			if len(evs) == 0 || evs[0].Type != "fr.setup" || !evs[0].Vis.Public {
				t.Fatalf("setup events %+v", evs)
			}
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// D-16: the Corporation boards of every level.
	for lv, want := range map[string]int{"1": 15, "2": 16, "3": 18, "4": 20} {
		s := newA(t, 1, "level", lv)
		if s.Corp.Left != want {
			t.Errorf("level %s: %d tokens, want %d", lv, s.Corp.Left, want)
		}
		if b := s.r.Boards[s.Players[0].Board].ID; fmt.Sprint(b) == lv {
			t.Errorf("level %s played on board %d, its own back", lv, b)
		}
	}
}

// FR-4.1 and the facing table of Arrangement A (§11).
func TestFR41FacingArrangementA(t *testing.T) {
	want := []string{
		"city/structure bistro/order dairy/fruit festival/cattle city/structure",
		"festival/cattle city/structure bistro/order dairy/fruit festival/cattle",
		"dairy/fruit festival/cattle city/structure bistro/order dairy/fruit",
		"bistro/order dairy/fruit festival/cattle city/structure bistro/order",
	}
	s := newA(t, 4)
	for seat := 0; seat < 4; seat++ {
		var got []string
		for turn := 1; turn <= 5; turn++ {
			jumpTurn(s, turn)
			got = append(got, catalog.VenueNames[s.venue(seat)]+"/"+catalog.ResNames[s.resource(seat)])
		}
		if strings.Join(got, " ") != want[seat] {
			t.Errorf("s%d faces %v, want %s", seat, got, want[seat])
		}
	}
}

// FR-3.12: canonical resolution order, with the fallback when the
// Structures quadrant faces nobody.
func TestFR312ResolutionOrder(t *testing.T) {
	for _, c := range []struct {
		n, turn int
		want    string
	}{
		{4, 1, "P0 P1 P2 P3"}, {4, 2, "P1 P2 P3 P0"}, {4, 4, "P3 P0 P1 P2"},
		{3, 4, "P0 P1 P2"}, {3, 3, "P2 P0 P1"},
		{2, 2, "P1 P0"}, {2, 3, "P1 P0"}, {2, 4, "P0 P1"},
	} {
		s := newA(t, c.n)
		jumpTurn(s, c.turn)
		if got := probe(t, s, "order"); got != c.want {
			t.Errorf("%dp turn %d: order %s, want %s", c.n, c.turn, got, c.want)
		}
		for _, d := range s.Pending() {
			if d.Rank != strings.Index(c.want, seatNames[d.Seat])/3 {
				t.Errorf("%dp turn %d: %s has rank %d", c.n, c.turn, seatNames[d.Seat], d.Rank)
			}
		}
	}
}

// A-6 / FR-5.8.6: an empty deck is replaced by the shuffled discard pile;
// with both empty the draw is lost.
func TestA6DeckExhaustion(t *testing.T) {
	s := newA(t, 4)
	s.Discard = append(s.Discard, s.Deck...)
	s.Deck = nil
	n := len(s.Discard)
	evs := do(t, s, 3, "GATHER 2 soft")
	if len(s.Deck) != n-2 || len(s.Discard) != 0 || len(s.Players[3].Pending) != 2 {
		t.Fatalf("deck %d discard %d pending %d", len(s.Deck), len(s.Discard), len(s.Players[3].Pending))
	}
	if !hasEvent(evs, "fr.reshuffle") {
		t.Fatalf("no reshuffle event: %+v", evs)
	}
	// Both piles empty: the draw is lost.
	s.Players[1].Pending = append(s.Players[1].Pending, s.Deck...)
	s.Deck = nil
	jumpTurn(s, 5)
	evs = do(t, s, 3, "GATHER 3 hard")
	if len(s.Players[3].Pending) != 2 {
		t.Fatalf("pending %d after a lost draw", len(s.Players[3].Pending))
	}
	found := false
	for _, e := range evs {
		if e.Type == "fr.gain" && e.Params["lost"] == 3 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no lost draw reported: %+v", evs)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

func hasEvent(evs []engine.Event, typ string) bool {
	for _, e := range evs {
		if e.Type == typ {
			return true
		}
	}
	return false
}

// FR-7.1, A-15: the turn of the trigger is completed by everybody and the
// game ends without a rotation; Result follows FR-7.10.
func TestFR71EndOfGame(t *testing.T) {
	s := newA(t, 3)
	setKey(t, s, "P1.cheese", "1")
	s.Players[1].Cheese = 1
	// Keep 15 tokens accounted for: 14 already on Dairy/Bistro/City spaces.
	n := 0
	for _, v := range []int{catalog.VenCity, catalog.VenDairy, catalog.VenBistro} {
		for i := range s.Board[v] {
			if n < 14 && s.lay.open[v][i] && s.Board[v][i] == empty && s.space(v, i).Icon == catalog.IconNone && s.space(v, i).ID != "C03" {
				s.Board[v][i] = 1
				n++
			}
		}
	}
	do(t, s, 1, "MAKE F13")
	if !s.End || len(s.EndBy) != 1 || s.EndBy[0] != 1 {
		t.Fatalf("end %v by %v", s.End, s.EndBy)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	do(t, s, 0, "MAKE C03") // placed after the trigger: valid and scored
	do(t, s, 0, "DONE")
	do(t, s, 1, "DONE")
	if s.Result() != nil {
		t.Fatal("game over before everybody finished the turn")
	}
	evs := do(t, s, 2, "DONE")
	res := s.Result()
	if res == nil || s.Turn != 1 || s.Phase != phaseOver {
		t.Fatalf("not over: phase %s turn %d", s.Phase, s.Turn)
	}
	if !hasEvent(evs, engine.EvGameOver) || !hasEvent(evs, "fr.report") {
		t.Fatalf("events %+v", evs)
	}
	if len(res.Scores[0].Parts) != 8 || res.Scores[1].Tiebreak[0] != 15 || res.Params["end_by"].([]string)[0] != "P1" {
		t.Fatalf("result %+v", res)
	}
	if len(s.Pending()) != 0 {
		t.Fatal("decisions after the end")
	}
	reject(t, s, 0, engine.CodeGameOver, "DONE")
}

// FR-5.12: the Corporation's step, its choice, its rules R2-R4, its end
// trigger and its score.
func TestFR512Corporation(t *testing.T) {
	t.Run("choice", func(t *testing.T) {
		s := newA(t, 1, "venues", "BCFD")
		clearBoard(s)
		jumpTurn(s, 5) // P0 faces q0: the Bistro
		s.H.Rand.Push("draw", "O05")
		s.corpStart() // Soft-Silver: B1 and B14 on side I; B14 is crossed for 1-2
		if s.Corp.Card >= 0 {
			t.Fatalf("one space qualifies but the player is asked")
		}
		if probe(t, s, "space.B1") != "corp" {
			t.Fatalf("B1 = %s", probe(t, s, "space.B1"))
		}
		s.H.Rand.Push("draw", "O13")    // Hard-Bronze: B9 crossed, B15 open
		setKey(t, s, "space.B15", "P0") // no Hard-Bronze left
		s.corpStart()                   // level 1: the card goes to the card space
		if len(s.Corp.Cards) != 1 || s.Corp.Acts[0].Space != "" {
			t.Fatalf("corp %+v", s.Corp)
		}
		// Level 2 (R2): no exact match -> any type of that aging, player chooses.
		s2 := newA(t, 1, "venues", "BCFD", "level", "2")
		clearBoard(s2)
		jumpTurn(s2, 5)
		setKey(t, s2, "space.B15", "P0")
		s2.H.Rand.Push("draw", "O13")
		s2.corpStart()
		d := s2.Pending()
		if len(d) != 1 || d[0].Kind != kindCorp || d[0].Mode != engine.Sequential {
			t.Fatalf("pending %+v", d)
		}
		opts := s2.Legal(d[0])
		if len(opts) != 3 || opts[0].Cmd != "CORP B7" {
			t.Fatalf("R2 options %+v (B7, B11, B17 are the open Bronze plates)", opts)
		}
		reject(t, s2, 0, "corp_space", "CORP B1")
		reject(t, s2, 0, engine.CodeWrongDecision, "DONE")
		do(t, s2, 0, "CORP B11")
		if probe(t, s2, "space.B11") != "corp" || s2.Corp.Acts[0].Space != "B11" || !s2.Corp.Acts[0].Wide {
			t.Fatalf("acts %+v", s2.Corp.Acts)
		}
		// SET CORP LOWEST answers at once.
		s3 := newA(t, 1, "venues", "BCFD", "level", "2")
		clearBoard(s3)
		jumpTurn(s3, 5)
		setKey(t, s3, "space.B15", "P0")
		do(t, s3, 0, "SET CORP LOWEST")
		s3.H.Rand.Push("draw", "O13")
		s3.corpStart()
		if s3.Corp.Card >= 0 || probe(t, s3, "space.B7") != "corp" {
			t.Fatal("SET CORP LOWEST did not place on the lowest space")
		}
	})
	t.Run("R3", func(t *testing.T) {
		for _, lv := range []string{"2", "3"} {
			s := newA(t, 1, "level", lv)
			clearBoard(s)
			setKey(t, s, "customers", "K1 K2 K3 K4 K5 K6")
			setKey(t, s, "space.C03", "P0")   // Pink
			setKey(t, s, "space.C01", "corp") // Purple, Pink
			city := probe(t, s, "P0.score.city")
			corp := s.corpScore(s.cityRegions()).Customers
			// Level 2: Pink tie (0 each), Purple to the Corporation (3).
			// Level 3 (R3): the Corporation wins the tie: Pink 3 + Purple 3.
			want := map[string][2]string{"2": {"0", "3"}, "3": {"0", "6"}}[lv]
			if city != want[0] || fmt.Sprint(corp) != want[1] {
				t.Errorf("level %s: player city %s, corporation customers %d; want %v", lv, city, corp, want)
			}
		}
	})
	t.Run("R4", func(t *testing.T) {
		for _, lv := range []string{"3", "4"} {
			s := newA(t, 1, "level", lv, "venues", "CFDB")
			clearBoard(s)
			jumpTurn(s, 1) // City
			s.H.Rand.Push("draw", "O13", "O25")
			s.corpStart()
			want := map[string]int{"3": 1, "4": 2}[lv]
			if len(s.Corp.Acts) != want {
				t.Errorf("level %s in the City: %d draws, want %d", lv, len(s.Corp.Acts), want)
			}
			jumpTurn(s, 3) // Dairy: never doubled
			s.corpStart()
			if len(s.Corp.Acts) != 1 {
				t.Errorf("level %s in the Dairy: %d draws", lv, len(s.Corp.Acts))
			}
		}
	})
	t.Run("end-and-score", func(t *testing.T) {
		s := newA(t, 1, "venues", "FCDB")
		clearBoard(s)
		jumpTurn(s, 5)
		// 14 tokens already out (placed on the Bistro), one left.
		n := 0
		for i := range s.Board[catalog.VenBistro] {
			if s.lay.open[catalog.VenBistro][i] && n < 14 && s.Board[catalog.VenBistro][i] == empty {
				s.Board[catalog.VenBistro][i] = corpOwner
				s.Corp.Left--
				n++
			}
		}
		for i := range s.Board[catalog.VenDairy] {
			if s.lay.open[catalog.VenDairy][i] && n < 14 && s.Board[catalog.VenDairy][i] == empty {
				s.Board[catalog.VenDairy][i] = corpOwner
				s.Corp.Left--
				n++
			}
		}
		s.H.Rand.Push("draw", "O01")
		s.corpStart()
		if !s.End || s.Corp.Left != 0 || s.EndBy[0] != corpOwner {
			t.Fatalf("end %v left %d", s.End, s.Corp.Left)
		}
		if got := s.corpTrack(); got != 45 {
			t.Fatalf("track %d, want 45", got)
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		// an equal score is a loss.
		s.Phase = phaseOver
		cs := s.corpScore(s.cityRegions()).Total
		b := s.breakdown(0, s.cityRegions())
		s.Players[0].Storage += 2 * (cs - b.Total)
		res := s.Result()
		if res.Scores[0].Total != cs || res.Params["solo_won"] != false || res.Params["corporation"] != cs {
			t.Fatalf("equal score: %+v (corporation %d)", res, cs)
		}
		s.Players[0].Storage += 2
		if s.Result().Params["solo_won"] != true {
			t.Fatal("a higher score does not win")
		}
	})
	t.Run("A-22", func(t *testing.T) {
		s := newA(t, 1)
		clearBoard(s)
		s.Players[0].Completed = append(s.Players[0].Completed, s.Deck...)
		s.Players[0].Completed = append(s.Players[0].Completed, s.Discard...)
		s.Deck, s.Discard = nil, nil
		evs := s.corpStart()
		if !hasEvent(evs, "fr.corp_idle") || len(s.Corp.Acts) != 0 {
			t.Fatalf("events %+v", evs)
		}
	})
	t.Run("seed-example", func(t *testing.T) {
		// FR-5.12.6: 36 PP for 13 tokens + 15 for 5 cards + a 5-point Customer = 56.
		s := newA(t, 1)
		clearBoard(s)
		setKey(t, s, "customers", "K1 K5 K2 K3 K4 K6")
		setKey(t, s, "space.C03", "corp") // Pink: the K5 token, worth 5 with 1-2 players
		s.Corp.Left = 15 - 13
		s.Corp.Cards = append(s.Corp.Cards, s.Deck[:5]...)
		s.Deck = s.Deck[5:]
		if got := s.corpScore(s.cityRegions()); got.Track != 36 || got.Cards != 15 || got.Customers != 5 || got.Total != 56 {
			t.Fatalf("corporation score %+v", got)
		}
	})
}

// FR-5.11: the advanced draft (4 players: pass left), hidden picks, the
// tile placement, and the solo draft (FR-5.11.4).
func TestFR511AdvancedDraft(t *testing.T) {
	s := newA(t, 4, "mode", "advanced")
	if s.Phase != phaseDraft || len(s.Pending()) != 4 {
		t.Fatalf("phase %s pending %d", s.Phase, len(s.Pending()))
	}
	hands := make([][]int, 4)
	for i := range s.Players {
		if len(s.Players[i].Hand) != 4 {
			t.Fatalf("hand %v", s.Players[i].Hand)
		}
		hands[i] = catalog.SortedCopy(s.Players[i].Hand)
	}
	// Others' hands are hidden (FR-6.3).
	v1 := s.View(1).(View)
	if v1.Draft == nil || len(v1.Draft.Hand) != 4 || v1.Players[0].Kept != nil || v1.You.Kept != nil {
		t.Fatalf("view %+v", v1.Draft)
	}
	js, _ := json.Marshal(s.View(1))
	if strings.Contains(string(js), s.r.TileIDs[hands[0][0]]+`"`) && !slices.Contains(hands[1], hands[0][0]) {
		t.Fatalf("seat 1 sees seat 0's hand")
	}
	evs := do(t, s, 0, "PICK "+s.r.TileIDs[hands[0][0]])
	if evs[0].Vis.Public || evs[0].Redacted["tile"] != nil {
		t.Fatalf("pick event not hidden: %+v", evs[0])
	}
	reject(t, s, 0, engine.CodeNotYourTurn, "PICK "+s.r.TileIDs[hands[0][1]])
	for i := 1; i < 4; i++ {
		do(t, s, i, "PICK "+s.r.TileIDs[hands[i][0]])
	}
	// Hands pass to the left: seat i receives seat i-1's rest.
	for i := range s.Players {
		if got, want := fmt.Sprint(catalog.SortedCopy(s.Players[i].Hand)), fmt.Sprint(hands[(i+3)%4][1:]); got != want {
			t.Fatalf("seat %d hand %s, want %s", i, got, want)
		}
	}
	// PICKS: a preference list picks by itself.
	want := s.Players[2].Hand[1]
	do(t, s, 2, "PICKS "+s.r.TileIDs[s.Players[0].Kept[0]]+" "+s.r.TileIDs[want])
	if !s.Players[2].Picked || !slices.Contains(s.Players[2].Kept, want) {
		t.Fatalf("PICKS did not pick %s", s.r.TileIDs[want])
	}
	for s.Phase == phaseDraft {
		for _, d := range s.Pending() {
			do(t, s, d.Seat, d.Default)
		}
	}
	if s.Phase != phaseTiles || len(s.Players[0].Kept) != 4 {
		t.Fatalf("phase %s kept %v", s.Phase, s.Players[0].Kept)
	}
	// one tile per column, over its own column.
	p := &s.Players[0]
	for k, id := range []string{"ST01", "ST02", "ST21", "ST30"} {
		swapTile(s, s.r.TileIndex(id), &p.Kept[k])
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	do(t, s, 0, "PLACE ST01")
	reject(t, s, 0, "column_covered", "PLACE ST02")
	do(t, s, 0, "PLACE ST21")
	if v := s.View(1).(View); v.Players[0].Abilities[0].Tile != "" {
		t.Fatalf("placement visible before the reveal: %+v", v.Players[0].Abilities[0])
	}
	do(t, s, 0, "READY")
	for i := 1; i < 4; i++ {
		do(t, s, i, "READY")
	}
	if s.Phase != phaseTurn || s.Turn != 1 || s.ability(p, 1).ID != "ST01" || s.ability(p, 3).ID != "ST21" || s.ability(p, 4).Effect != "hq" {
		t.Fatalf("after placement: phase %s tiles %v", s.Phase, p.Tile)
	}
	if v := s.View(1).(View); v.Players[0].Abilities[0].Tile != "ST01" {
		t.Fatal("placement not revealed")
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}

	// Solo: draw 4 keep 1, draw 3 keep 1, draw 2 keep 1, draw 1 keep it.
	solo := newA(t, 1, "mode", "advanced")
	for r, n := range []int{4, 3, 2, 1} {
		if len(solo.Players[0].Hand) != n || solo.Draft.Round != r+1 {
			t.Fatalf("solo round %d: hand %v", solo.Draft.Round, solo.Players[0].Hand)
		}
		solo.H.Rand.Push("tile", "ST08")
		d := solo.Pending()[0]
		do(t, solo, 0, d.Default)
	}
	if solo.Phase != phaseTiles || len(solo.Players[0].Kept) != 4 || len(solo.Draft.Box) != 6 {
		t.Fatalf("solo draft: %s kept %v box %v", solo.Phase, solo.Players[0].Kept, solo.Draft.Box)
	}
	if !slices.Contains(solo.Players[0].Kept, solo.r.TileIndex("ST08")) && !slices.Contains(solo.Draft.Box, solo.r.TileIndex("ST08")) {
		t.Fatal("scripted tile draw not used")
	}
	if err := solo.Check(); err != nil {
		t.Fatal(err)
	}
}

// swapTile exchanges the tile held at slot with tile t, wherever t is
// (test helper; tiles stay conserved).
func swapTile(s *State, t int, slot *int) {
	if *slot == t {
		return
	}
	lists := []*[]int{&s.Draft.Deck, &s.Draft.Box}
	for i := range s.Players {
		lists = append(lists, &s.Players[i].Kept, &s.Players[i].Hand)
	}
	for _, l := range lists {
		for k, x := range *l {
			if x == t {
				(*l)[k], *slot = *slot, t
				return
			}
		}
	}
}

// FR-6.4: other seats' moves of the turn stay hidden until the turn ends;
// turn events are private to their seat, the turn report is public.
func TestFR64SealedViewsAndEvents(t *testing.T) {
	s := newA(t, 4)
	evs := do(t, s, 0, "MAKE C03")
	for _, e := range evs {
		if e.Vis.Public || !e.Vis.Sees(0) || e.Vis.Sees(1) {
			t.Fatalf("turn event visible to others: %+v", e)
		}
	}
	do(t, s, 0, "GATHER 2 hard")
	own := s.View(0).(View)
	other := s.View(1).(View)
	obs := s.View(-1).(View)
	if own.Players[0].Storage != 2 || own.Players[0].Placed != 1 {
		t.Fatalf("own view %+v", own.Players[0])
	}
	for _, v := range []View{other, obs} {
		if v.Players[0].Storage != 0 || v.Players[0].Placed != 0 || v.Venues[0].Spaces[2].Owner != "" || v.Now != nil && v.Seat == -1 {
			t.Fatalf("seat %d sees P0's sealed moves: %+v", v.Seat, v.Players[0])
		}
		if v.Mine != nil {
			t.Fatalf("seat %d sees a turn log", v.Seat)
		}
	}
	if own.Mine == nil || len(own.Mine) != 2 {
		t.Fatalf("own turn log %v", own.Mine)
	}
	endTurn(t, s)
	v := s.View(1).(View)
	if v.Players[0].Storage != 2 || v.Players[0].Placed != 1 || len(v.Report) != 4 || v.Report[0].Cmds[0] != "MAKE C03" {
		t.Fatalf("after the turn: %+v report %+v", v.Players[0], v.Report)
	}
}

// P-5..P-8: routing of queued and standing orders.
func TestP5RouteAndSlots(t *testing.T) {
	s := newA(t, 4)
	orders := engine.ParseScript("PLAN T3 MAKE B14 | PLAN T3 MAKE B7\nNEXT G 2 blue\nSET DAIRY fruit order\nM C03\nCORP C03\nUNDO\nFLY\nPLAN T0 DONE\nPICK ST01\nPICKS ST01\nPLAN T3 SET ORDERS ASK")
	errs := s.Route(0, orders)
	want := []struct {
		slot, line, code string
		now              bool
	}{
		{"T3", "MAKE B14", "", false}, {"T2", "G 2 blue", "", false}, {"", "SET DAIRY fruit order", "", true},
		{"T1", "M C03", "", false}, {"", "", "not_solo", false}, {"", "", "undo_sealed", false},
		{"", "", engine.CodeUnknownCommand, false}, {"", "", engine.CodeSyntax, false},
		{"", "", engine.CodeSlotClosed, false}, {"", "", "", true}, {"", "", "standing_not_planned", false},
	}
	for i, w := range want {
		o := orders[i]
		var code string
		if errs != nil && errs[i] != nil {
			re, _ := engine.AsRuleError(errs[i])
			code = re.Code
		}
		if code != w.code || (w.code == "" && (o.Slot != w.slot || o.Now != w.now || (w.line != "" && o.Alts[0][0] != w.line))) {
			t.Errorf("order %d %q: slot %q now %v alts %v err %q; want %+v", i, o.Text, o.Slot, o.Now, o.Alts, code, w)
		}
	}
	if orders[0].Alts[1][0] != "MAKE B7" {
		t.Errorf("alternative not stripped: %v", orders[0].Alts)
	}
	// A seat that finished its turn plans the next one.
	do(t, s, 1, "DONE")
	o := engine.ParseScript("GATHER 1 soft")
	s.Route(1, o)
	if o[0].Slot != "T2" {
		t.Errorf("after DONE the slot is %s", o[0].Slot)
	}
	for _, c := range []struct {
		seat int
		slot string
		open bool
	}{{0, "T1", true}, {1, "T1", false}, {1, "T2", true}, {0, "T0", false}, {0, "draft1", false}, {0, "tiles", false}, {0, "T1.corp", false}, {0, "T5.corp", true}} {
		if got := s.SlotOpen(c.seat, c.slot); got != c.open {
			t.Errorf("SlotOpen(%d, %s) = %v", c.seat, c.slot, got)
		}
	}
	// Solo: CORP goes to the pending Corporation step, else the next one.
	solo := newA(t, 1)
	o = engine.ParseScript("CORP C03\nPLAN T4 CORP F22")
	solo.Route(0, o)
	if want := map[bool]string{true: "T1.corp", false: "T2.corp"}[solo.Corp.Card >= 0]; o[0].Slot != want || o[1].Slot != "T4.corp" {
		t.Errorf("corp slots %s %s", o[0].Slot, o[1].Slot)
	}
	// Draft slots.
	adv := newA(t, 2, "mode", "advanced")
	o = engine.ParseScript("PICK ST01\nPLACE ST01\nNOTILE\nG 1 soft")
	adv.Route(0, o)
	if o[0].Slot != "draft1" || o[1].Slot != "tiles" || o[2].Slot != "tiles" || o[3].Slot != "T1" {
		t.Errorf("advanced slots %s %s %s %s", o[0].Slot, o[1].Slot, o[2].Slot, o[3].Slot)
	}
}

// The command parser: aliases, City names, short forms, canonical text.
func TestParseCommands(t *testing.T) {
	s := newA(t, 4)
	for in, want := range map[string]string{
		"g 2 BLUE":                "GATHER 2 blue",
		"gather 3 morbido":        "GATHER 3 soft",
		"m b14 keep":              "MAKE B14 KEEP",
		"make paris":              "MAKE C11",
		"MAKE Pont-l'Évêque":      "MAKE C17",
		"make orleans":            "MAKE C07",
		"MAKE c7":                 "MAKE C07",
		"milk 1 f22":              "MILK 1 F22",
		"BUILD iv":                "BUILD 4",
		"barn hard":               "BARN hard",
		"barn h trade ca or":      "BARN hard TRADE cattle order",
		"barn b d3 keep":          "BARN blue D3 KEEP",
		"TAKE order fruit":        "TAKE fruit order",
		"take none":               "TAKE NONE",
		"trade o7 st":             "TRADE O07 structure",
		"trade order cattle":      "TRADE order cattle",
		"choose 2":                "CHOOSE 2",
		"choose o5":               "CHOOSE O05",
		"pass":                    "DONE",
		"d":                       "DONE",
		"notile":                  "READY",
		"pick st8":                "PICK ST08",
		"picks st08, st21 ST25":   "PICKS ST08 ST21 ST25",
		"set dairy fruit ordine":  "SET DAIRY fruit order",
		"set orders ask":          "SET ORDERS ASK",
		"set corp lowest":         "SET CORP LOWEST",
		"corp f22":                "CORP F22",
		"complete":                "COMPLETE",
		"keep":                    "KEEP",
		"notrade":                 "NOTRADE",
		"set autodone on":         "SET AUTODONE ON",
		"place st32":              "PLACE ST32",
		"ready":                   "READY",
		"make D07":                "MAKE D7",
		"gather 1 s":              "GATHER 1 soft",
		"MAKE  C03   KEEP":        "MAKE C03 KEEP",
		"milk 4 lyon":             "MILK 4 C15",
		"barn soft trade O12 fr ": "BARN soft TRADE O12 fruit",
	} {
		m, err := s.Parse(0, in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if m.String() != want {
			t.Errorf("Parse(%q) = %q, want %q", in, m.String(), want)
		}
		m2, err := s.Parse(0, m.String())
		if err != nil || m2.String() != m.String() {
			t.Errorf("canonical %q does not parse back: %v", m.String(), err)
		}
	}
	for in, code := range map[string]string{
		"GATHER 4 soft": engine.CodeSyntax, "GATHER 1 green": "unknown_worker", "MAKE F33": "unknown_space",
		"MAKE X1": "unknown_space", "FLY": engine.CodeUnknownCommand, "BUILD 5": engine.CodeSyntax,
		"TAKE gold": "unknown_resource", "PICK ST99": "unknown_tile", "UNDO": "undo_sealed", "PLAN T3 DONE": "plan_not_routed",
		"SET FOO BAR": engine.CodeSyntax, "MAKE": engine.CodeSyntax, "": engine.CodeSyntax, "CHOOSE O99": "unknown_card",
	} {
		_, err := s.Parse(0, in)
		re, ok := engine.AsRuleError(err)
		if !ok || re.Code != code {
			t.Errorf("Parse(%q) = %v, want %s", in, err, code)
		}
	}
}

// "No real choice": a seat with nothing but DONE left is forced; every
// decision kind's default is legal (P-3).
func TestP3ForcedAndDefaults(t *testing.T) {
	s := newA(t, 4)
	for w := range s.Players[0].Workers {
		s.Players[0].Workers[w] = Worker{At: atBarn, Ret: 2}
	}
	s.Players[0].Built[1] = true
	s.Players[0].Workers[1], s.Players[0].Workers[2] = Worker{At: atRes, Q: 1, Spot: 1, Ret: 2}, Worker{At: atRes, Q: 1, Spot: 2, Ret: 3}
	s.Players[0].Pasture = 0
	d, _ := s.decision(0)
	opts := s.Legal(d)
	if len(opts) != 1 || opts[0].Cmd != "DONE" || d.Default != "DONE" || d.Pass != "DONE" {
		t.Fatalf("options %+v", opts)
	}
	// Sub-decision defaults forfeit or decline.
	s = newA(t, 4)
	do(t, s, 2, "MAKE D7")
	d, _ = s.decisionAny(2)
	if d.Kind != kindTake || d.Default != "TAKE NONE" || d.Pass != "TAKE NONE" || d.Slot != "T1" {
		t.Fatalf("take decision %+v", d)
	}
	do(t, s, 2, d.Default)
	if s.Players[2].Pasture+s.Players[2].Basket != 0 {
		t.Fatal("forfeited bonus was given")
	}
}

// Every data-driven id is unique and every Legal option of many random
// positions is canonical (Parse(String) round trip) - a cheap fuzz of Legal.
func TestLegalOptionsCanonical(t *testing.T) {
	seen := map[string]bool{}
	for _, cfg := range []engine.Config{arrangeA(4, "mode", "advanced"), arrangeA(1, "level", "4"), arrangeA(3, "city_side", "II", "festival_side", "II")} {
		st, _, _ := Game{}.NewState(cfg)
		s := st.(*State)
		for n := 0; s.Phase != phaseOver && n < 3000; n++ {
			pend := s.Pending()
			d := pend[n%len(pend)]
			opts := s.Legal(d)
			for _, o := range opts {
				m, err := s.Parse(d.Seat, o.Cmd)
				if err != nil || m.String() != o.Cmd {
					t.Fatalf("%q: %v", o.Cmd, err)
				}
				seen[strings.Fields(o.Cmd)[0]] = true
			}
			do(t, s, d.Seat, opts[(n*7)%len(opts)].Cmd)
		}
	}
	var kws []string
	for k := range seen {
		kws = append(kws, k)
	}
	sort.Strings(kws)
	for _, k := range []string{"GATHER", "MAKE", "MILK", "BUILD", "BARN", "DONE", "TAKE", "TRADE", "NOTRADE", "PICK", "PLACE", "READY", "CORP"} {
		if !seen[k] {
			t.Errorf("no legal %s met (%v)", k, kws)
		}
	}
}
