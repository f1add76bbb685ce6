package brewcrafters

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/brewcrafters/catalog"
	"github.com/pbem-referee/referee/engine/brewcrafters/notation"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The test vectors of the spec (§11) that play moves live in
// testdata/*.vectors (issue 25, "rule-vector tests in one shape": the
// layout of engine/dicebrewing and engine/heavenale), one CASE per
// vector, with these lines (seats by name: ann, bob, cat, dan, eve; A and
// B are the seat ACTOR named and the next one):
//
//	CASE <id> <title>          starts a vector; END ends it; # comments
//	SETUP <n> <seed> [opt=val...]   a new n-player first game, ann starting (newGame)
//	SEASON <k>                 sets the season (0..11)
//	TO <phase>|season <k>|<seat>   answers every decision with its default
//	                           until the phase (market, brewery), season k,
//	                           or the seat owes the next decision
//	ACTOR                      A is the seat owing the next decision, B the next seat
//	SET <seat>.<field> = <v>   a field of the player's record (its JSON
//	                           name: ing is a bag, "5M 2H 1Y" or "-"; any
//	                           other a JSON value)
//	HIRE <seat> <worker>       the worker leaves the display for the seat
//	PLAY <line> [/ <line>...]  each line answers the next decision, whoever owes it
//	DO <seat> <line>           a line that must apply (and pass Check)
//	REFUSE <seat> <line> = <rule>   a line refused under the rule id, the state unchanged
//	EXPECT <query> = <value>   see vquery
//	PAYCOSTS <seat>            the seat pays its operating costs (BC-5.11)
//	FINISH                     the game ends and is scored now (BC-7)
//	MARK                       remembers the state for DELTA
//	DELTA <query> = <value>    the change of a number, or of a bag (ing,
//	                           goods), since MARK
func TestVectors(t *testing.T) { enginetest.RunVectorFiles(t, 25, runVectorCase) }

var vectorSeats = []string{"ann", "bob", "cat", "dan", "eve"}

func runVectorCase(t *testing.T, c enginetest.VectorCase) {
	var s, mark *State
	actor := -1
	for _, l := range c.Lines {
		at := fmt.Sprintf("%s:%d", c.File, l.N)
		seat := func(name string) int {
			switch {
			case name == "A" && actor >= 0:
				return actor
			case name == "B" && actor >= 0:
				return (actor + 1) % len(s.P)
			}
			for i, n := range vectorSeats {
				if n == name && i < len(s.P) {
					return i
				}
			}
			t.Fatalf("%s: no seat %q", at, name)
			return -1
		}
		atoi := func(v string) int {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("%s: not a number %q", at, v)
			}
			return n
		}
		head, value, hasValue := strings.Cut(l.Text, " = ")
		if !hasValue && strings.HasSuffix(l.Text, " =") {
			head, hasValue = strings.TrimSuffix(l.Text, " ="), true
		}
		value = strings.TrimSpace(value)
		f := strings.Fields(head)
		if s == nil && f[0] != "SETUP" {
			t.Fatalf("%s: SETUP first", at)
		}
		// rest is the head after its first n words (a command line).
		rest := func(n int) string {
			r := head
			for range n {
				r = strings.TrimSpace(r)
				_, r, _ = strings.Cut(r, " ")
			}
			return strings.TrimSpace(r)
		}
		switch f[0] {
		case "SETUP":
			var kv []string
			for _, o := range f[3:] {
				k, v, _ := strings.Cut(o, "=")
				kv = append(kv, k, v)
			}
			s, actor = newGame(t, atoi(f[1]), f[2], kv...), -1
		case "SEASON":
			s.Season = atoi(f[1])
		case "TO":
			switch {
			case f[1] == "season":
				toSeason(t, s, atoi(f[2]))
			case f[1] == "A" || f[1] == "B" || isSeatName(f[1]):
				toSeat(t, s, seat(f[1]))
			default:
				toPhase(t, s, f[1])
			}
		case "ACTOR":
			actor = s.Pending()[0].Seat
		case "SET":
			if !hasValue {
				t.Fatalf("%s: SET without =", at)
			}
			who, field, _ := strings.Cut(f[1], ".")
			setPlayerField(t, at, &s.P[seat(who)], field, value)
		case "HIRE":
			p := &s.P[seat(f[1])]
			p.Workers = append(p.Workers, f[2])
			s.Workers = remove(s.Workers, f[2])
		case "PLAY":
			for _, line := range strings.Split(rest(1), " / ") {
				d := s.Pending()[0]
				if re := try(s, d.Seat, line); re != nil {
					t.Fatalf("%s: %s %q: %v", at, vectorSeats[d.Seat], line, re)
				}
				if err := s.Check(); err != nil {
					t.Fatalf("%s: after %q: %v", at, line, err)
				}
			}
		case "DO":
			do(t, s, seat(f[1]), rest(2))
		case "REFUSE":
			before, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			re := try(s, seat(f[1]), rest(2))
			if re == nil || re.Rule != value {
				t.Fatalf("%s: %s %q: %v, want rule %s", at, f[1], rest(2), re, value)
			}
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Errorf("%s: a refused line changed the state", at)
			}
		case "EXPECT":
			if !hasValue {
				t.Fatalf("%s: EXPECT without =", at)
			}
			got := vquery(t, at, s, seat, f[1])
			want := value
			switch w := strings.Fields(want); {
			case len(w) == 1 && (w[0] == "A" || w[0] == "B" || isSeatName(w[0])):
				want = strconv.Itoa(seat(w[0]))
			case f[1] == "pending" && len(w) == 2:
				want = vectorSeats[seat(w[0])] + " " + w[1]
			}
			if got != want {
				t.Errorf("%s: %s = %s, want %s", at, f[1], got, want)
			}
		case "PAYCOSTS":
			s.payCosts(seat(f[1]))
		case "FINISH":
			s.finish()
		case "MARK":
			mark = s.Clone().(*State)
		case "DELTA":
			if mark == nil || !hasValue {
				t.Fatalf("%s: DELTA without MARK or =", at)
			}
			was, now := vquery(t, at, mark, seat, f[1]), vquery(t, at, s, seat, f[1])
			var got string
			if a, err := strconv.Atoi(was); err == nil {
				b := atoi(now)
				got = strconv.Itoa(b - a)
			} else {
				got = bagText(parseBag(t, at, now).Sub(parseBag(t, at, was)))
			}
			if got != value {
				t.Errorf("%s: %s changed by %s (%s -> %s), want %s", at, f[1], got, was, now, value)
			}
		default:
			t.Fatalf("%s: unknown line %q", at, l.Text)
		}
	}
	if s == nil {
		t.Fatalf("%s:%d: an empty case", c.File, c.Line)
	}
}

func isSeatName(w string) bool {
	for _, n := range vectorSeats {
		if n == w {
			return true
		}
	}
	return false
}

// parseBag reads "5M 2H 1Y" ("-" or "" empty).
func parseBag(t *testing.T, at, v string) catalog.Bag {
	var b catalog.Bag
	if v == "-" {
		return b
	}
	for _, f := range strings.Fields(v) {
		i := catalog.IngIndex(f[len(f)-1:])
		n, err := strconv.Atoi(f[:len(f)-1])
		if i < 0 || err != nil {
			t.Fatalf("%s: not a bag %q", at, v)
		}
		b[i] += n
	}
	return b
}

func bagText(b catalog.Bag) string {
	if s := b.String(); s != "" {
		return s
	}
	return "-"
}

// setPlayerField sets one field of a player's record by its JSON name.
func setPlayerField(t *testing.T, at string, p *Player, field, value string) {
	if field == "ing" {
		p.Ing = parseBag(t, at, value)
		return
	}
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m[field]; !ok {
		t.Fatalf("%s: a player has no field %q", at, field)
	}
	m[field] = json.RawMessage(value)
	if raw, err = json.Marshal(m); err != nil {
		t.Fatalf("%s: %s = %s: %v", at, field, value, err)
	}
	var np Player
	if err := json.Unmarshal(raw, &np); err != nil {
		t.Fatalf("%s: %s = %s: %v", at, field, value, err)
	}
	*p = np
}

// vquery answers an EXPECT query:
//
//	<seat>.<field>        a field of the player's record by its JSON name (ing a bag)
//	<seat>.ing.total      the ingredients held
//	<seat>.capacity|cost|tokens   storage capacity, operating cost, brewery tokens
//	<seat>.canbrew.<recipe>       yes, or why the seat may not brew it
//	<seat>.points.<part>          a part of the seat's score (loans, ...)
//	rank                  the final ranks, seat by seat (none before FINISH)
//	space.<i>.<field>     a Market space's field (goods a bag)
//	pending               "<seat> <kind>" of the next decision
//	pending.kind          its kind
//	pending.<param>       a parameter of the next decision
//	<field>[.<i>]         a field of the state by its JSON name (start, collab.1, ...)
func vquery(t *testing.T, at string, s *State, seat func(string) int, q string) string {
	parts := strings.Split(q, ".")
	jsonOf := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	field := func(v any, name string) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(jsonOf(v)), &m); err != nil {
			t.Fatal(err)
		}
		raw, ok := m[name]
		if !ok {
			t.Fatalf("%s: no field %q in %s", at, name, q)
		}
		return string(raw)
	}
	index := func(raw, i string) string {
		var xs []json.RawMessage
		if err := json.Unmarshal([]byte(raw), &xs); err != nil {
			t.Fatalf("%s: %s: not a list", at, q)
		}
		k, err := strconv.Atoi(i)
		if err != nil || k < 0 || k >= len(xs) {
			t.Fatalf("%s: %s: no item %s", at, q, i)
		}
		return string(xs[k])
	}
	switch {
	case parts[0] == "A" || parts[0] == "B" || isSeatName(parts[0]):
		p := &s.P[seat(parts[0])]
		switch {
		case len(parts) == 3 && parts[1] == "ing" && parts[2] == "total":
			return strconv.Itoa(p.Ing.Total())
		case len(parts) == 2 && parts[1] == "ing":
			return bagText(p.Ing)
		case len(parts) == 3 && parts[1] == "ing" && catalog.IngIndex(parts[2]) >= 0:
			return strconv.Itoa(p.Ing[catalog.IngIndex(parts[2])])
		case len(parts) == 2 && parts[1] == "capacity":
			return strconv.Itoa(s.capacity(p))
		case len(parts) == 2 && parts[1] == "cost":
			return strconv.Itoa(s.opCost(p))
		case len(parts) == 2 && parts[1] == "tokens":
			return strconv.Itoa(s.tokens(p))
		case len(parts) == 3 && parts[1] == "canbrew":
			if err := s.canBrew(p, parts[2]); err != nil {
				return err.Error()
			}
			return "yes"
		case len(parts) == 3 && parts[1] == "points":
			for _, pt := range s.scoreParts(seat(parts[0])) {
				if pt.Name == parts[2] {
					return strconv.Itoa(pt.Points)
				}
			}
			return "0"
		case len(parts) == 2:
			return field(p, parts[1])
		case len(parts) == 3:
			return index(field(p, parts[1]), parts[2])
		}
	case parts[0] == "space" && len(parts) == 3:
		sp := s.Spaces[atoiOr(t, at, parts[1])]
		if parts[2] == "goods" {
			return bagText(sp.Goods)
		}
		return field(sp, parts[2])
	case q == "rank":
		if s.Res == nil {
			return "none"
		}
		return strings.Trim(fmt.Sprint(s.Res.Rank), "[]")
	case parts[0] == "pending":
		ds := s.Pending()
		if len(ds) == 0 {
			return "none"
		}
		switch {
		case len(parts) == 1:
			return vectorSeats[ds[0].Seat] + " " + ds[0].Kind
		case parts[1] == "kind":
			return ds[0].Kind
		}
		return fmt.Sprint(ds[0].Params[parts[1]])
	case len(parts) == 1:
		return field(s, parts[0])
	case len(parts) == 2:
		return index(field(s, parts[0]), parts[1])
	}
	t.Fatalf("%s: no query %q", at, q)
	return ""
}

func atoiOr(t *testing.T, at, v string) int {
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: not a number %q", at, v)
	}
	return n
}

// The specification's test vectors (§11) that set up no position of
// their own through internals are cases of testdata/spec.vectors, played
// by TestVectors; the ones below stay Go tests, each listed with its
// reason in engine/testdata/vectors-in-go.txt.

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

// toSeat answers decisions with their defaults until the seat owes the
// next one.
func toSeat(t *testing.T, s *State, seat int) {
	t.Helper()
	for n := 0; s.Pending()[0].Seat != seat; n++ {
		if n > 500 || s.Res != nil {
			t.Fatalf("seat %d never to act", seat)
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
