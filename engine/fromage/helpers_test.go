package fromage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage/catalog"
)

// The test harness: builds positions (Arrangement A of the spec, §11),
// reads them through "probes" and changes them through "setters". The text
// vector runner (vectors_test.go) and the rule tests share it.

var seatNames = []string{"P0", "P1", "P2", "P3"}

// arrangeA returns the config of Arrangement A for n players: side I,
// q0..q3 = City, Festival, Dairy, Bistro; Structures at q0; boards in order.
func arrangeA(n int, kv ...string) engine.Config {
	opts := map[string]string{"venues": "CFDB", "tile": "structure", "boards": "fixed"}
	variant := "standard"
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "mode" {
			variant = kv[i+1]
			continue
		}
		opts[kv[i]] = kv[i+1]
	}
	return engine.Config{Variant: variant, Seats: seatNames[:n], Seed: "arrangement-a", Options: opts}
}

func newA(t testing.TB, n int, kv ...string) *State {
	t.Helper()
	st, _, err := Game{}.NewState(arrangeA(n, kv...))
	if err != nil {
		t.Fatalf("NewState: %v", err)
	}
	return st.(*State)
}

// seatOf reads "P2" as seat 2.
func seatOf(t testing.TB, w string) int {
	t.Helper()
	if len(w) == 2 && w[0] == 'P' && w[1] >= '0' && w[1] <= '3' {
		return int(w[1] - '0')
	}
	t.Fatalf("bad seat %q", w)
	return -1
}

// do parses and applies a command, failing the test on any error.
func do(t testing.TB, s *State, seat int, cmd string) []engine.Event {
	t.Helper()
	m, err := s.Parse(seat, cmd)
	if err != nil {
		t.Fatalf("parse %q: %v", cmd, err)
	}
	evs, err := s.Apply(seat, m)
	if err != nil {
		t.Fatalf("P%d %q: %v", seat, cmd, err)
	}
	return evs
}

// reject applies a command that must fail with code, leaving the state unchanged.
func reject(t testing.TB, s *State, seat int, code, cmd string) {
	t.Helper()
	before, _ := json.Marshal(s)
	m, err := s.Parse(seat, cmd)
	if err == nil {
		_, err = s.Apply(seat, m)
	}
	re, ok := engine.AsRuleError(err)
	if !ok || re.Code != code {
		t.Fatalf("P%d %q: got %v, want code %s", seat, cmd, err, code)
	}
	after, _ := json.Marshal(s)
	if !bytes.Equal(before, after) {
		t.Fatalf("P%d %q: rejected command changed the state", seat, cmd)
	}
}

// endTurn finishes the turn for every seat (defaults for open questions).
func endTurn(t testing.TB, s *State) {
	t.Helper()
	turn := s.Turn
	for n := 0; s.Turn == turn && s.Phase == phaseTurn; n++ {
		if n > 100 {
			t.Fatalf("turn %d does not end", turn)
		}
		for seat := range s.Players {
			if s.kindOf(seat) == "" {
				continue
			}
			d, _ := s.decisionAny(seat)
			do(t, s, seat, d.Default)
			break
		}
	}
}

// decisionAny builds the seat's decision ignoring the step gating.
func (s *State) decisionAny(seat int) (engine.Decision, bool) {
	moved := s.Players[seat].Moved
	s.Players[seat].Moved = false
	d, ok := s.decision(seat)
	s.Players[seat].Moved = moved
	return d, ok
}

// jumpTurn moves the game to turn n: rotation, retrieval of the workers
// due, fresh turn flags. The Corporation's step is not run.
func jumpTurn(s *State, n int) {
	s.Turn = n
	s.Rot = (n - 1) % 4
	for i := range s.Players {
		p := &s.Players[i]
		p.Done, p.Moved, p.Gathered, p.Produced, p.Extra = false, false, false, false, false
		for w := range p.Workers {
			if p.Workers[w].At != atHome && p.Workers[w].Ret <= n {
				p.Workers[w] = Worker{}
			}
		}
	}
	s.Step = 1
	s.Log = make([][]string, len(s.Players))
	s.takeSnapshot()
}

// clearBoard empties the board: tokens go back to their owners, workers
// on cheese spaces go home, the Corporation's cards and pending draw go to
// the discard pile.
func clearBoard(s *State) {
	for v := range s.Board {
		for i, o := range s.Board[v] {
			switch {
			case o == corpOwner:
				s.Corp.Left++
			case o >= 0:
				s.Players[o].Cheese++
			}
			s.Board[v][i] = empty
		}
	}
	for i := range s.Players {
		p := &s.Players[i]
		p.FruitCheese, p.Jam = 0, 0
		for w := range p.Workers {
			if p.Workers[w].At == atCheese {
				p.Workers[w] = Worker{}
			}
		}
	}
	if c := s.Corp; c != nil {
		s.Discard = append(s.Discard, c.Cards...)
		if c.Card >= 0 {
			s.Discard = append(s.Discard, c.Card)
		}
		c.Cards, c.Card, c.Options, c.Acts, c.Draws = nil, -1, nil, nil, 0
	}
}

// findSpace returns the venue and index of a space id.
func findSpace(t testing.TB, s *State, id string) (int, int) {
	t.Helper()
	v := strings.IndexByte("CFDB", id[0])
	if v < 0 {
		t.Fatalf("bad space %q", id)
	}
	i, ok := s.side(v).ByKey[catalog.SpaceKey(id)]
	if !ok {
		t.Fatalf("no space %q on side %s", id, s.side(v).Name)
	}
	return v, i
}

// takeCard moves the first card of type-aging found in the deck or the
// discard pile out of them and returns it.
func takeCard(t testing.TB, s *State, ta string) int {
	t.Helper()
	parts := strings.SplitN(ta, "-", 2)
	ty, ag := slices.Index(catalog.TypeNames, parts[0]), slices.Index(catalog.AgingNames, parts[len(parts)-1])
	for _, pile := range []*[]int{&s.Deck, &s.Discard} {
		for k, c := range *pile {
			if s.r.Cards[c].Type == ty && s.r.Cards[c].Aging == ag {
				*pile = append((*pile)[:k:k], (*pile)[k+1:]...)
				return c
			}
		}
	}
	t.Fatalf("no %s card left in deck or discard", ta)
	return -1
}

func cardTA(s *State, c int) string {
	return catalog.TypeNames[s.r.Cards[c].Type] + "-" + catalog.AgingNames[s.r.Cards[c].Aging]
}

// setKey changes the position.
func setKey(t testing.TB, s *State, key, val string) {
	t.Helper()
	k := strings.Split(key, ".")
	atoi := func(x string) int {
		n, err := strconv.Atoi(x)
		if err != nil {
			t.Fatalf("set %s: %q is not a number", key, x)
		}
		return n
	}
	if k[0] == "space" {
		v, i := findSpace(t, s, k[1])
		old := s.Board[v][i]
		switch {
		case old == corpOwner:
			s.Corp.Left++
		case old >= 0:
			s.Players[old].Cheese++
		}
		switch {
		case val == "empty":
			s.Board[v][i] = empty
		case val == "corp":
			s.Board[v][i] = corpOwner
			s.Corp.Left--
		default:
			o := seatOf(t, val)
			s.Board[v][i] = o
			s.Players[o].Cheese--
		}
		return
	}
	if k[0] == "customers" {
		// set customers K1 K4 ...: the token on each region, in region order.
		for x, id := range strings.Fields(val) {
			for c := range s.r.Customers {
				if s.r.Customers[c].ID == id {
					s.Customer[x] = c
				}
			}
		}
		return
	}
	if k[0] == "corp" {
		switch k[1] {
		case "left":
			s.Corp.Left = atoi(val)
		default:
			t.Fatalf("unknown setter %s", key)
		}
		return
	}
	p := &s.Players[seatOf(t, k[0])]
	switch k[1] {
	case "storage":
		p.Storage = atoi(val)
	case "pasture":
		p.Pasture = atoi(val)
	case "basket":
		p.Basket = atoi(val)
	case "cheese":
		p.Cheese = atoi(val)
	case "fruitcheese":
		p.FruitCheese = atoi(val)
	case "jam":
		p.Jam = atoi(val)
	case "board":
		p.Board = atoi(val) - 1
		p.Zones = make([]int, len(s.r.Boards[p.Board].Zones))
	case "pending":
		s.Deck = append(s.Deck, p.Pending...)
		p.Pending = nil
		for _, ta := range strings.Fields(val) {
			p.Pending = append(p.Pending, takeCard(t, s, ta))
		}
	case "completed":
		s.Deck = append(s.Deck, p.Completed...)
		p.Completed = nil
		for i := 0; i < atoi(val); i++ {
			p.Completed = append(p.Completed, s.Deck[0])
			s.Deck = s.Deck[1:]
		}
	case "built":
		p.Built = [5]bool{}
		for _, c := range strings.Fields(val) {
			p.Built[atoi(c)] = true
		}
	case "tile":
		// P0.tile ST08: cover the tile's column.
		ti := s.r.TileIndex(val)
		if ti < 0 {
			t.Fatalf("unknown tile %s", val)
		}
		p.Tile[s.r.Tiles[ti].Column] = ti
	case "zone":
		p.Zones[atoi(k[2])-1] = atoi(val)
	case "worker":
		w := slices.Index(catalog.TypeNames, k[2])
		if val == "home" {
			p.Workers[w] = Worker{}
			return
		}
		// res:<q>:<n>:<ret>
		f := strings.Split(val, ":")
		if len(f) != 4 || f[0] != "res" {
			t.Fatalf("set %s: want home or res:<q>:<n>:<ret>", key)
		}
		p.Workers[w] = Worker{At: atRes, Q: atoi(f[1]), Spot: atoi(f[2]), Ret: atoi(f[3])}
	default:
		t.Fatalf("unknown setter %s", key)
	}
}

// probe reads the position.
func probe(t testing.TB, s *State, key string) string {
	t.Helper()
	k := strings.Split(key, ".")
	switch k[0] {
	case "turn":
		return strconv.Itoa(s.Turn)
	case "phase":
		return s.Phase
	case "end":
		return strconv.FormatBool(s.End)
	case "order":
		var out []string
		for _, seat := range s.order() {
			out = append(out, seatNames[seat])
		}
		return strings.Join(out, " ")
	case "space":
		v, i := findSpace(t, s, k[1])
		switch o := s.Board[v][i]; o {
		case empty:
			return "empty"
		case corpOwner:
			return "corp"
		default:
			return seatNames[o]
		}
	case "corp":
		c := s.Corp
		switch k[1] {
		case "left":
			return strconv.Itoa(c.Left)
		case "cards":
			return strconv.Itoa(len(c.Cards))
		case "track":
			return strconv.Itoa(s.corpTrack())
		case "score":
			return strconv.Itoa(s.corpScore(s.cityRegions()).Total)
		case "acts":
			var out []string
			for _, a := range c.Acts {
				sp := a.Space
				if sp == "" {
					sp = "-"
				}
				out = append(out, s.cardLabel(a.Card)+":"+sp)
			}
			return strings.Join(out, " ")
		}
	}
	seat := seatOf(t, k[0])
	p := &s.Players[seat]
	switch k[1] {
	case "venue":
		return catalog.VenueNames[s.venue(seat)]
	case "resource":
		return catalog.ResNames[s.resource(seat)]
	case "kind":
		return s.kindOf(seat)
	case "storage":
		return strconv.Itoa(p.Storage)
	case "pasture":
		return strconv.Itoa(p.Pasture)
	case "basket":
		return strconv.Itoa(p.Basket)
	case "cheese":
		return strconv.Itoa(p.Cheese)
	case "placed":
		return strconv.Itoa(s.placed(seat))
	case "fruitcheese":
		return strconv.Itoa(p.FruitCheese)
	case "jam":
		return strconv.Itoa(p.Jam)
	case "completed":
		return strconv.Itoa(len(p.Completed))
	case "pending":
		if len(k) == 3 && k[2] == "count" {
			return strconv.Itoa(len(p.Pending))
		}
		var out []string
		for _, c := range p.Pending {
			out = append(out, cardTA(s, c))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	case "built":
		var out []string
		for c := 1; c <= 4; c++ {
			if p.Built[c] {
				out = append(out, strconv.Itoa(c))
			}
		}
		return strings.Join(out, " ")
	case "used":
		return strconv.Itoa(s.used(p, slices.Index(catalog.ResNames, k[2])))
	case "zone":
		z, _ := strconv.Atoi(k[2])
		return strconv.Itoa(p.Zones[z-1])
	case "groups":
		g := s.festivalGroups(seat)
		sort.Ints(g)
		var out []string
		for _, x := range g {
			out = append(out, strconv.Itoa(x))
		}
		return strings.Join(out, " ")
	case "workers":
		n := 0
		for _, w := range p.Workers {
			if w.At == atHome {
				n++
			}
		}
		return strconv.Itoa(n)
	case "worker":
		w := p.Workers[slices.Index(catalog.TypeNames, k[2])]
		switch w.At {
		case atHome:
			return "home"
		case atRes:
			return fmt.Sprintf("res:%s:%d ret=%d points=%s", catalog.ResNames[s.ResAt[w.Q]], w.Spot, w.Ret, catalog.VenueNames[s.VenueAt[w.Points]])
		case atCheese:
			return fmt.Sprintf("cheese:%s ret=%d points=%s", s.space(w.Q, w.Spot).ID, w.Ret, catalog.VenueNames[s.VenueAt[w.Points]])
		case atBarn:
			return fmt.Sprintf("barn ret=%d", w.Ret)
		}
	case "score":
		b := s.breakdown(seat, s.cityRegions())
		m := map[string]int{"festival": b.Festival, "city": b.City, "dairy": b.Dairy, "bistro": b.Bistro,
			"structures": b.Structures, "fruit": b.Fruit, "orders": b.Orders, "unused": b.Unused, "total": b.Total}
		x, ok := m[k[2]]
		if !ok {
			t.Fatalf("unknown score part %s", key)
		}
		return strconv.Itoa(x)
	}
	t.Fatalf("unknown probe %s", key)
	return ""
}

// legalCmds lists the seat's legal commands now (ignoring step gating).
func legalCmds(s *State, seat int) []string {
	d, ok := s.decisionAny(seat)
	if !ok {
		return nil
	}
	var out []string
	for _, o := range s.Legal(d) {
		out = append(out, o.Cmd)
	}
	return out
}
