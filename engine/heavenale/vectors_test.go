package heavenale

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
)

// The test vectors of the spec (§11) that play moves live in
// testdata/*.vectors (issue 14.5, the layout of engine/dicebrewing), one
// CASE per vector, with these lines (seats by name: ann, ben, cat, dan):
//
//	CASE <id> <title>        starts a vector; END ends it; # comments
//	SETUP <n> [opt=val...]   a new n-player game, setup done (newGame)
//	BARE                     empties every space of tiles and discs
//	ROUND <n>                sets the round
//	TURN <seat>              makes the seat the one to move
//	TRACK <seat> <space>     puts the seat's figure on a track space
//	SPACE <n> = <tiles...>   the tiles on a track space
//	DISCS <n> = <k>          the discs on a track space
//	PUT <seat> <cell> <tile> [<cell> <tile>...]   garden tiles
//	SPOT <seat> <spot>       a scoring disc already on a spot (X WO.. M4)
//	SET <seat>.ducats|brew|markers = <value>
//	TAKEN large|small <goal> <seat>   a barrel already taken
//	HOME <start space> = <seat>|-     who entered the start area there
//	ENDROUND                 every seat is back: the round ends (HA-4.4)
//	DO <seat> <line> [/ <line>...]    lines that must apply
//	MAIL <seat> <line> [/ <line>...] = <code>|ok   one message, all or
//	                         nothing (§10.1): refused with the code, and
//	                         then the state is unchanged
//	REFUSE <seat> <line> = <code>     one line refused (state unchanged)
//	LEGAL = <cmds, comma-separated>   the legal answers of the decision
//	EXPECT <query> = <value>          see vquery
//
// DO <seat> FIRST-OPTION answers with the decision's first legal option.
func TestVectors(t *testing.T) { enginetest.RunVectorFiles(t, 16, runVectorCase) }

// TV-06 and TV-10 are Go tests below, listed with the reason in
// engine/testdata/vectors-in-go.txt.

// The frame of the vector files is enginetest's (CASE ... END); a case is
// named by its id and the line it starts at (RunVectorFiles).
type (
	vcase = enginetest.VectorCase
	vline = enginetest.VectorLine
)

func runVectorCase(t *testing.T, c vcase) {
	var s *State
	seat := func(l vline, name string) int {
		for i, n := range seatNames {
			if n == name && s != nil && i < len(s.Players) {
				return i
			}
		}
		t.Fatalf("%s:%d: no seat %q", c.File, l.N, name)
		return -1
	}
	atoi := func(l vline, v string) int {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("%s:%d: not a number %q", c.File, l.N, v)
		}
		return n
	}
	for _, l := range c.Lines {
		head, value, hasValue := strings.Cut(l.Text, " = ")
		if !hasValue && strings.HasSuffix(l.Text, " =") {
			head, hasValue = strings.TrimSuffix(l.Text, " ="), true
		}
		f := strings.Fields(head)
		if s == nil && f[0] != "SETUP" {
			t.Fatalf("%s:%d: SETUP first", c.File, l.N)
		}
		switch f[0] {
		case "SETUP":
			s = newGame(t, atoi(l, f[1]))
			for _, kv := range f[2:] {
				k, v, _ := strings.Cut(kv, "=")
				s.H.Options[k] = v
			}
		case "BARE":
			bare(s)
		case "ROUND":
			s.Round = atoi(l, f[1])
		case "TURN":
			s.Cur, s.Sub = seat(l, f[1]), subMove
		case "TRACK":
			i := seat(l, f[1])
			p := &s.Players[i]
			if p.Spot >= 0 && s.Home[p.Spot] == i {
				s.Home[p.Spot] = -1
			}
			p.Spot, p.Pos = -1, atoi(l, f[2])
		case "HOME":
			// HOME <spot> = <seat>|-: who sits on a start space (the seat
			// entered the start area), or nobody.
			k := slices.Index(catalog.HomeNames, f[1])
			if k < 0 {
				c.Fatalf(t, l, "no start space %s", f[1])
			}
			s.Home[k] = -1
			if who := strings.TrimSpace(value); who != "-" {
				i := seat(l, who)
				s.Home[k] = i
				s.Players[i].Spot, s.Players[i].Back, s.Players[i].Pos = k, true, 0
			}
		case "ENDROUND":
			// Every seat is back: the round ends and the next is prepared.
			for i := range s.Players {
				s.Players[i].Back = true
			}
			s.endRound()
		case "SPACE":
			s.Spaces[atoi(l, f[1])] = strings.Fields(value)
		case "DISCS":
			s.Discs[atoi(l, f[1])] = atoi(l, strings.TrimSpace(value))
		case "PUT":
			i := seat(l, f[1])
			for k := 2; k+1 < len(f); k += 2 {
				if _, ok := s.r.CellIdx[f[k]]; !ok {
					t.Fatalf("%s:%d: no cell %s", c.File, l.N, f[k])
				}
			}
			put(s, i, f[2:]...)
		case "SPOT":
			i, k := seat(l, f[1]), slices.Index(catalog.SpotNames, f[2])
			if k < 0 {
				t.Fatalf("%s:%d: no spot %s", c.File, l.N, f[2])
			}
			s.Players[i].Spots[k] = true
		case "SET":
			who, field, _ := strings.Cut(f[1], ".")
			p := &s.Players[seat(l, who)]
			switch field {
			case "ducats":
				p.Ducats = atoi(l, strings.TrimSpace(value))
			case "brew":
				p.Brew = atoi(l, strings.TrimSpace(value))
			case "markers":
				for k, v := range strings.Fields(value) {
					p.Markers[k] = atoi(l, v)
				}
			default:
				t.Fatalf("%s:%d: SET %s?", c.File, l.N, field)
			}
		case "TAKEN":
			g := goalIndex(s, f[2])
			if g < 0 {
				t.Fatalf("%s:%d: no goal %s", c.File, l.N, f[2])
			}
			if f[1] == "large" {
				s.Large[g] = seat(l, f[3])
			} else {
				s.Small[g] = seat(l, f[3])
			}
		case "DO":
			i := seat(l, f[1])
			for _, line := range vlines(head, f[1]) {
				if line == "FIRST-OPTION" {
					line = s.options(i)[0]
				}
				if err := try(s, i, line); err != nil {
					t.Fatalf("%s:%d: %s %q: %v", c.File, l.N, f[1], line, err)
				}
			}
		case "MAIL", "REFUSE":
			i := seat(l, f[1])
			lines := vlines(head, f[1])
			if f[0] == "REFUSE" && len(lines) != 1 {
				t.Fatalf("%s:%d: REFUSE takes one line", c.File, l.N)
			}
			before, _ := jsonOf(s)
			got := code(email(s, i, lines...))
			want := strings.TrimSpace(value)
			if want == "ok" {
				want = ""
			}
			if got != want {
				t.Errorf("%s:%d: %s %q: got %q, want %q", c.File, l.N, f[0], lines, got, want)
			}
			if after, _ := jsonOf(s); got != "" && string(after) != string(before) {
				t.Errorf("%s:%d: a refused message changed the state", c.File, l.N)
			}
		case "LEGAL":
			if got, want := strings.Join(legalCmds(s), ", "), strings.TrimSpace(value); got != want {
				t.Errorf("%s:%d: legal %q, want %q", c.File, l.N, got, want)
			}
		case "EXPECT":
			if !hasValue {
				t.Fatalf("%s:%d: EXPECT without =", c.File, l.N)
			}
			got, err := vquery(s, f[1])
			if err != nil {
				t.Fatalf("%s:%d: %v", c.File, l.N, err)
			}
			if want := strings.Join(strings.Fields(value), " "); got != want {
				t.Errorf("%s:%d: %s = %q, want %q", c.File, l.N, f[1], got, want)
			}
		default:
			t.Fatalf("%s:%d: unknown line %q", c.File, l.N, l.Text)
		}
	}
}

// vlines splits "DO ann GO 8 / BUY HO5 D1" into its command lines.
func vlines(head, who string) []string {
	_, rest, _ := strings.Cut(head, " "+who+" ")
	var out []string
	for _, p := range strings.Split(rest, " / ") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func goalIndex(s *State, id string) int {
	for g, gl := range s.r.Goals {
		if gl.ID == id {
			return g
		}
	}
	return -1
}

// vquery answers an EXPECT: cur, sub, pair, round, phase; space.<n>,
// discs.<n>; tiles (on the resource spaces), stacks (monk stacks left);
// home.<start space>, large.<goal>, small.<goal> (a seat name or -); and per seat
// <seat>.ducats|brew|pos|back|markers|cards|placed|claimable|final,
// <seat>.garden.<cell>, <seat>.spot.<spot>.
func vquery(s *State, q string) (string, error) {
	name := func(i int) string {
		if i < 0 || i >= len(s.Players) {
			return "-"
		}
		return seatNames[i]
	}
	a, b, _ := strings.Cut(q, ".")
	switch a {
	case "cur":
		return name(s.Cur), nil
	case "sub":
		return s.Sub, nil
	case "pair":
		return strconv.Itoa(s.Pair), nil
	case "round":
		return strconv.Itoa(s.Round), nil
	case "phase":
		return s.Phase, nil
	case "space", "discs":
		n, err := strconv.Atoi(b)
		if err != nil || n < 0 || n >= len(s.Spaces) {
			return "", fmt.Errorf("no space %q", b)
		}
		if a == "discs" {
			return strconv.Itoa(s.Discs[n]), nil
		}
		return strings.Join(s.Spaces[n], " "), nil
	case "home":
		k := slices.Index(catalog.HomeNames, b)
		if k < 0 {
			return "", fmt.Errorf("no start space %q", b)
		}
		return name(s.Home[k]), nil
	case "tiles":
		n := 0
		for _, k := range s.r.ResSpaces {
			n += len(s.Spaces[k])
		}
		return strconv.Itoa(n), nil
	case "stacks":
		return strconv.Itoa(len(s.Stacks)), nil
	case "large", "small":
		g := goalIndex(s, b)
		if g < 0 {
			return "", fmt.Errorf("no goal %q", b)
		}
		if a == "large" {
			return name(s.Large[g]), nil
		}
		return name(s.Small[g]), nil
	}
	i := slices.Index(seatNames, a)
	if i < 0 || i >= len(s.Players) {
		return "", fmt.Errorf("unknown query %q", q)
	}
	p := &s.Players[i]
	field, arg, _ := strings.Cut(b, ".")
	switch field {
	case "ducats":
		return strconv.Itoa(p.Ducats), nil
	case "brew":
		return strconv.Itoa(p.Brew), nil
	case "pos":
		return strconv.Itoa(p.Pos), nil
	case "back":
		return strconv.FormatBool(p.Back), nil
	case "markers":
		return strings.Trim(fmt.Sprint(p.Markers), "[]"), nil
	case "cards":
		return strings.Join(p.Cards, " "), nil
	case "placed":
		out := make([]string, len(p.Placed))
		for k, c := range p.Placed {
			out[k] = c
			if c == "" {
				out[k] = "-"
			}
		}
		// "" none yet and "-" passed both show as "-".
		return strings.Join(out, " "), nil
	case "final":
		// The seat's final scoring as it stands (HA-7).
		fp := s.scoreSeat(i)
		return fmt.Sprintf("rate=%d vp=%d lowest=%d production=%d total=%d", fp.Rate, fp.VP, fp.Lowest, fp.Production, fp.Total), nil
	case "claimable":
		var out []string
		for _, g := range s.claimable(i) {
			out = append(out, s.r.Goals[g].ID)
		}
		return strings.Join(out, " "), nil
	case "garden":
		k, ok := s.r.CellIdx[arg]
		if !ok {
			return "", fmt.Errorf("no cell %q", arg)
		}
		return p.Garden[k], nil
	case "spot":
		k := slices.Index(catalog.SpotNames, arg)
		if k < 0 {
			return "", fmt.Errorf("no spot %q", arg)
		}
		return strconv.FormatBool(p.Spots[k]), nil
	}
	return "", fmt.Errorf("unknown query %q", q)
}

// TV-06: setup with 4 players (HA-3.x, AMB-1).
func TestTV06Setup4(t *testing.T) {
	st, _, err := Game{}.NewState(engineConfig(4, map[string]string{"start_player": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if s.Home[catalog.HomeFirst] != 0 || s.Cur != 3 {
		t.Fatalf("Ann on FIRST and Dan picks first: home %v cur %d", s.Home, s.Cur)
	}
	must(t, s, 3, "HOME RES BA")
	must(t, s, 2, "HOME BREW")
	if got := legalCmds(s); !reflect.DeepEqual(got, []string{"HOME CASH"}) {
		t.Fatalf("Ben's options %v", got)
	}
	must(t, s, 1, "HOME CASH")
	ps := s.Players
	if ps[0].Ducats != 25 || ps[3].Markers[4] != -6 || ps[2].Brew != -9 || ps[1].Ducats != 27 {
		t.Fatalf("ann %d, dan barley %d, cat brew %d, ben %d", ps[0].Ducats, ps[3].Markers[4], ps[2].Brew, ps[1].Ducats)
	}
	if s.Phase != phasePlay || s.Round != 1 || s.Cur != 0 {
		t.Fatalf("round 1 should start with Ann: %s %d %d", s.Phase, s.Round, s.Cur)
	}
	tiles := 0
	for _, n := range s.r.ResSpaces {
		tiles += len(s.Spaces[n])
	}
	for _, n := range s.r.MonkSpaces {
		if len(s.Spaces[n]) != 1 {
			t.Fatalf("monk space %d holds %v", n, s.Spaces[n])
		}
	}
	discs := 0
	for _, d := range s.Discs {
		discs += d
	}
	if tiles != 15 || len(s.PileI) != 35 || discs != 6 || len(s.Stacks) != 5 {
		t.Fatalf("tiles %d pile I %d discs %d stacks %d", tiles, len(s.PileI), discs, len(s.Stacks))
	}
	// Turn order: Ann, Ben, Cat, Dan (HA-4.2.1).
	var order []int
	for i := 0; i < 4; i++ {
		order = append(order, s.Cur)
		must(t, s, s.Cur, "GO 27")
		for s.Cur == order[len(order)-1] && s.Sub == subBuy {
			must(t, s, s.Cur, s.options(s.Cur)[0])
		}
		if len(s.Spaces[27]) == 0 {
			s.Spaces[27] = []string{"WO1", "WO1", "WO1"}
		}
	}
	if !reflect.DeepEqual(order, []int{0, 1, 2, 3}) {
		t.Fatalf("order %v", order)
	}
}

// TV-10: shed table boundaries (HA-5.5.3, 5.5.4, §8.6).
func TestTV10ShedTable(t *testing.T) {
	r, _, _ := catalog.DataFile.Load(nil)
	want := map[int][2]int{0: {6, 0}, 7: {6, 0}, 8: {3, 1}, 11: {3, 1}, 12: {1, 2}, 17: {1, 2}, 18: {1, 3}, 23: {1, 3}, 24: {0, 4}, 30: {0, 4}}
	for sum, w := range want {
		row := r.ShedRow(sum)
		if row.Brewmaster != w[0] || row.Type != w[1] {
			t.Errorf("sum %d: %+v, want %v", sum, row, w)
		}
	}
	for k := range r.ShedSites {
		for typ, n := range []int{1, 6, 3, 2, 15} {
			if got := len(r.Patterns[k][typ]); got != n && typ > 0 {
				t.Errorf("site %s type %d: %d options, want %d", r.SiteName[k], typ, got, n)
			}
		}
	}
}

func engineConfig(n int, opts map[string]string) engine.Config {
	return engine.Config{Seats: seatNames[:n], Seed: fmt.Sprintf("cfg%d", n), Options: opts}
}
