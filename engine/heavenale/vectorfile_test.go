package heavenale

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

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
//	DO <seat> <line> [/ <line>...]    lines that must apply
//	MAIL <seat> <line> [/ <line>...] = <code>|ok   one message, all or
//	                         nothing (§10.1): refused with the code, and
//	                         then the state is unchanged
//	REFUSE <seat> <line> = <code>     one line refused (state unchanged)
//	LEGAL = <cmds, comma-separated>   the legal answers of the decision
//	EXPECT <query> = <value>          see vquery
//
// DO <seat> FIRST-OPTION answers with the decision's first legal option.
func TestVectors(t *testing.T) { enginetest.RunVectorFiles(t, 10, runVectorCase) }

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
			i, k := seat(l, f[1]), vindex(catalog.SpotNames, f[2])
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

func vindex(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
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
// discs.<n>; large.<goal>, small.<goal> (a seat name or -); and per seat
// <seat>.ducats|brew|pos|back|markers|cards|placed|claimable,
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
	i := vindex(seatNames, a)
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
		k := vindex(catalog.SpotNames, arg)
		if k < 0 {
			return "", fmt.Errorf("no spot %q", arg)
		}
		return strconv.FormatBool(p.Spots[k]), nil
	}
	return "", fmt.Errorf("unknown query %q", q)
}
