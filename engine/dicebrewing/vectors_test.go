package dicebrewing

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
	"github.com/pbem-referee/referee/engine/enginetest"
)

// The test vectors of the spec (§11) and further rule cases live in
// testdata/*.vectors, in a small text format in the manner of godip's DATC
// files. A case reads:
//
//	CASE TV-03 sped-up malt improvement (DB-5.5.3, DB-5.6.1-3)
//	SETUP luca ann first=1              # players, options (first=, variant=, seed=, k=v)
//	ROUND 2                             # jump to round 2 (placement, no roll)
//	HOLD luca AR=Y3,B3 ST= seeds=0      # set a player's holdings exactly
//	PHASE place luca                    # set the step and the player to act
//	!dice 4 5                           # script the next rolls (or !draw R12)
//	luca: PLACE MH3 Y3, MH3+ B3         # a command that must be accepted
//	REJECT ann: PLACE MH3 Y6 = die_at_max   # a command that must be refused
//	ROUTE ann: PLACE HP1 SEED = already_passed   # a line Route must refuse
//	EXPECT luca.ST = Y4                 # a query of the position
//	HAS legal PLACE SS1 B3 THEN         # an option the current decision lists
//	EVENT db.return luca dice=B3        # an event of the last command
//	END
//
// Position-setting directives (ROUND, HOLD, PHASE, DISPLAY, BOARD, DRAIN,
// BREWED, SEEDS) change the state directly; Check must hold after each.

// TestVectors plays every case of testdata/*.vectors (the spec's test
// vectors TV-01 to TV-19 and the rule cases; engine's
// TestSpecVectorsCarried_Issue25 checks that each is carried and cites
// rule ids of the spec).
func TestVectors(t *testing.T) { enginetest.RunVectorFiles(t, 60, runVector) }

// The frame of the vector files is enginetest's (CASE ... END).
type (
	vcase = enginetest.VectorCase
	vline = enginetest.VectorLine
)

// vrun is a running test case.
type vrun struct {
	t      *testing.T
	s      *state
	c      vcase
	at     vline
	events []engine.Event
}

func (r *vrun) fatalf(format string, args ...any) {
	r.t.Helper()
	r.c.Fatalf(r.t, r.at, format, args...)
}

func runVector(t *testing.T, c vcase) {
	r := &vrun{t: t, c: c}
	for _, l := range c.Lines {
		r.at = l
		r.step(l.Text)
		if r.s != nil {
			if err := r.s.Check(); err != nil {
				r.fatalf("invariant: %v", err)
			}
		}
	}
}

func (r *vrun) seat(name string) int {
	for i, n := range r.s.H.Seats {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	r.fatalf("no player %q", name)
	return -1
}

func (r *vrun) step(line string) {
	r.t.Helper()
	f := strings.Fields(line)
	switch f[0] {
	case "SETUP":
		r.setup(f[1:])
		return
	case "ROUND":
		n, _ := strconv.Atoi(f[1])
		r.round(n)
		return
	case "PHASE":
		r.phase(f[1], f[2:])
		return
	case "HOLD":
		r.hold(r.seat(f[1]), f[2:])
		return
	case "DISPLAY":
		r.display(f[1:])
		return
	case "DECK":
		r.deckTop(f[1:])
		return
	case "BOARD":
		r.board(r.seat(f[1]), f[2], f[3])
		return
	case "DRAIN":
		r.drain(catalog.ColourIndex(f[1]), r.seat(f[2]))
		return
	case "BREWED":
		n, _ := strconv.Atoi(f[1])
		r.brewed(n)
		return
	case "SEEDS":
		r.seedSupply(f[1])
		return
	case "EXPECT":
		rest := strings.Join(f[1:], " ")
		q, want, ok := strings.Cut(rest, " = ")
		if !ok && strings.HasSuffix(rest, " =") {
			q, want = strings.TrimSuffix(rest, " ="), ""
		}
		if got := r.query(strings.TrimSpace(q)); got != strings.TrimSpace(want) {
			r.fatalf("%s = %q, want %q", q, got, strings.TrimSpace(want))
		}
		return
	case "HAS", "HASNOT":
		what := strings.Join(f[2:], " ")
		found := false
		for _, o := range r.s.Legal(r.s.Pending()[0]) {
			if o.Cmd == what {
				found = true
			}
		}
		if found != (f[0] == "HAS") {
			var cmds []string
			for _, o := range r.s.Legal(r.s.Pending()[0]) {
				cmds = append(cmds, o.Cmd)
			}
			r.fatalf("%s legal %q: options are %q", f[0], what, cmds)
		}
		return
	case "EVENT":
		r.event(f[1:])
		return
	case "REJECT", "ROUTE":
		rest := strings.Join(f[1:], " ")
		body, code, ok := strings.Cut(rest, " = ")
		if !ok {
			r.fatalf("want %s <player>: <command> = <code>", f[0])
		}
		name, cmd, _ := strings.Cut(body, ":")
		seat := r.seat(strings.TrimSpace(name))
		var err error
		if f[0] == "ROUTE" {
			orders := engine.ParseScript(cmd)
			errs := r.s.Route(seat, orders)
			if len(errs) > 0 {
				err = errs[0]
			}
		} else {
			before := mustMarshal(r.t, r.s)
			var m engine.Move
			m, err = r.s.Parse(seat, strings.TrimSpace(cmd))
			if err == nil {
				_, err = r.s.Apply(seat, m)
				if after := mustMarshal(r.t, r.s); err != nil && string(after) != string(before) {
					r.fatalf("a refused command changed the state")
				}
			}
		}
		re, isRule := engine.AsRuleError(err)
		if err == nil || !isRule || re.Code != strings.TrimSpace(code) {
			r.fatalf("got %v, want %s", err, code)
		}
		return
	}
	if strings.HasPrefix(line, "!") {
		kind, vals, _ := strings.Cut(line[1:], " ")
		r.s.H.Rand.Push(kind, strings.Fields(vals)...)
		return
	}
	name, cmd, ok := strings.Cut(line, ":")
	if !ok {
		r.fatalf("unknown directive")
	}
	seat := r.seat(strings.TrimSpace(name))
	m, err := r.s.Parse(seat, strings.TrimSpace(cmd))
	if err != nil {
		r.fatalf("parse: %v", err)
	}
	evs, err := r.s.Apply(seat, m)
	if err != nil {
		r.fatalf("refused: %v", err)
	}
	if miss := r.s.H.Rand.TakeMisses(); len(miss) > 0 {
		r.fatalf("scripted outcomes did not fit: %v", miss)
	}
	r.events = evs
}

func (r *vrun) setup(args []string) {
	cfg := engine.Config{Seed: "vectors", Options: map[string]string{}}
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok {
			switch k {
			case "first":
				cfg.Options[position.OptFirst] = v
			case "variant":
				cfg.Variant = v
			case "seed":
				cfg.Seed = v
			default:
				cfg.Options[k] = v
			}
			continue
		}
		cfg.Seats = append(cfg.Seats, a)
	}
	st, evs, err := Game.NewState(cfg)
	if err != nil {
		r.fatalf("setup: %v", err)
	}
	r.s = st.(*state)
	r.events = evs
}

// round jumps to the placement of round n: board items go back to their
// owners (dice to AR, seeds to ST), the round's flags are cleared.
func (r *vrun) round(n int) {
	s := r.s
	for id := range s.Dice {
		if d := &s.Dice[id]; d.L == position.LocBoard || d.L == position.LocMarket {
			d.L, d.S, d.Up = position.LocAR, 0, false
		}
	}
	for i := range s.P {
		for sp := range s.P[i].Board {
			if s.P[i].Board[sp].Seed {
				s.P[i].Seeds++
			}
		}
	}
	s.cleanup()
	s.Round, s.Summer = n, n%2 == 0
	s.Step, s.Sub, s.Cur, s.From = position.StepPlace, position.SubNone, s.Priority, 0
}

func (r *vrun) phase(step string, args []string) {
	s := r.s
	s.Step, s.Sub, s.Picked, s.PickThen, s.Reward = step, position.SubNone, nil, false, nil
	for i := range s.P {
		p := &s.P[i]
		p.WinDone, p.BuyDone, p.BrewPass, p.BrewSkip = false, false, -1, false
		if step == position.StepBuy || step == position.StepW3 || step == position.StepBrew {
			p.Passed = true
		}
	}
	if len(args) > 0 {
		s.Cur = r.seat(args[0])
		s.From = s.Rank(s.Cur)
	}
	// Skip a player who cannot act, as the game would (DB-10.5).
	s.settle()
}

// takeDie moves a supply die of a colour to a player with a face.
func (r *vrun) takeDie(seat int, text string, loc int) int {
	s := r.s
	plus := strings.HasSuffix(text, "+")
	c, f, ok := catalog.SplitColourValue(strings.TrimSuffix(text, "+"))
	if !ok {
		r.fatalf("bad die %q", text)
	}
	id := s.SupplyDie(c)
	if id < 0 {
		r.fatalf("no %s die left in the supply", catalog.ColourLetters[c])
	}
	s.Dice[id] = position.Die{C: c, F: f, O: seat, L: loc, Plus: plus, R: true}
	return id
}

func (r *vrun) hold(seat int, args []string) {
	s := r.s
	p := &s.P[seat]
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		list := []string{}
		if v != "" {
			list = strings.Split(v, ",")
		}
		switch k {
		case "AR", "ST":
			loc := position.LocAR
			if k == "ST" {
				loc = position.LocST
			}
			for id := range s.Dice {
				if s.Dice[id].O == seat && s.Dice[id].L == loc {
					s.toSupply(id)
				}
			}
			for _, d := range list {
				r.takeDie(seat, d, loc)
			}
		case "seeds":
			n, _ := strconv.Atoi(v)
			s.SeedSupply += p.Seeds - n
			p.Seeds = n
		case "coins":
			p.Coins, _ = strconv.Atoi(v)
		case "xp":
			p.XP, _ = strconv.Atoi(v)
		case "tokens":
			for t := range p.Tok {
				s.BM[t] += p.Tok[t]
				p.Tok[t] = 0
			}
			for _, c := range list {
				t := s.Rules.Tok(c)
				s.BM[t]--
				p.Tok[t]++
			}
		case "ingr":
			for i := range p.Ingr {
				s.Market[i] += p.Ingr[i]
				p.Ingr[i] = 0
			}
			for _, c := range list {
				i := s.Rules.Ingr(c)
				s.Market[i]--
				p.Ingr[i]++
			}
		default:
			r.fatalf("HOLD: unknown key %q", k)
		}
	}
}

func (r *vrun) display(ids []string) {
	s := r.s
	for _, c := range s.Display {
		if c != "" {
			s.Deck = append(s.Deck, c)
		}
	}
	s.Display = make([]string, len(s.Display))
	for i, id := range ids {
		k := -1
		for j, c := range s.Deck {
			if c == id {
				k = j
			}
		}
		if k < 0 {
			r.fatalf("card %s is not in the deck", id)
		}
		s.Deck = append(s.Deck[:k], s.Deck[k+1:]...)
		s.Display[i] = id
	}
}

// deckTop puts cards on top of the deck, in order.
func (r *vrun) deckTop(ids []string) {
	s := r.s
	for i := len(ids) - 1; i >= 0; i-- {
		k := -1
		for j, c := range s.Deck {
			if c == ids[i] {
				k = j
			}
		}
		if k < 0 {
			r.fatalf("card %s is not in the deck", ids[i])
		}
		s.Deck = append(s.Deck[:k], s.Deck[k+1:]...)
		s.Deck = append([]string{ids[i]}, s.Deck...)
	}
}

func (r *vrun) board(seat int, space, item string) {
	s := r.s
	sp, up, ok := notation.SpaceToken(space)
	if !ok || up {
		r.fatalf("bad space %q", space)
	}
	bs := &s.P[seat].Board[sp]
	bs.Used = true
	s.Uses[sp]++
	if item == "SEED" {
		s.P[seat].Seeds--
		bs.Seed = true
		return
	}
	id := r.takeDie(seat, item, position.LocBoard)
	s.Dice[id].S = sp
}

func (r *vrun) drain(c, seat int) {
	for id := range r.s.Dice {
		if d := &r.s.Dice[id]; d.L == position.LocSupply && d.C == c {
			*d = position.Die{C: c, F: 1, O: seat, L: position.LocAR}
		}
	}
}

func (r *vrun) brewed(n int) {
	s := r.s
	for i := 0; i < n; i++ {
		last := len(s.Deck) - 1
		s.P[i%s.N].Brewed = append(s.P[i%s.N].Brewed, s.Deck[last])
		s.Deck = s.Deck[:last]
		s.BrewedAll++
	}
}

// seedSupply sets the seed supply to n by moving seeds to or from the
// last player.
func (r *vrun) seedSupply(v string) {
	n, _ := strconv.Atoi(v)
	s := r.s
	last := &s.P[s.N-1]
	diff := s.SeedSupply - n
	if last.Seeds+diff < 0 {
		r.fatalf("cannot set the seed supply to %d", n)
	}
	last.Seeds += diff
	s.SeedSupply = n
}

func (r *vrun) event(args []string) {
	typ := args[0]
	seat := -2
	rest := args[1:]
	if len(rest) > 0 && !strings.Contains(rest[0], "=") {
		seat = r.seat(rest[0])
		rest = rest[1:]
	}
	for _, e := range r.events {
		if e.Type != typ || (seat != -2 && e.Seat != seat) {
			continue
		}
		ok := true
		for _, kv := range rest {
			k, v, _ := strings.Cut(kv, "=")
			if got := paramText(e.Params[k]); got != v {
				ok = false
			}
		}
		if ok {
			return
		}
	}
	var have []string
	for _, e := range r.events {
		have = append(have, fmt.Sprintf("%s(%d)%v", e.Type, e.Seat, e.Params))
	}
	r.fatalf("no such event; events were:\n  %s", strings.Join(have, "\n  "))
}

// paramText renders an event parameter for comparison: lists joined by
// commas.
func paramText(v any) string {
	switch x := v.(type) {
	case []string:
		return strings.Join(x, ",")
	case []int:
		parts := make([]string, len(x))
		for i, n := range x {
			parts[i] = strconv.Itoa(n)
		}
		return strings.Join(parts, ",")
	}
	return fmt.Sprint(v)
}

// query answers an EXPECT query (see the format comment).
func (r *vrun) query(q string) string {
	s := r.s
	switch q {
	case "turn":
		if s.Cur < 0 {
			return "-"
		}
		return s.Name(s.Cur)
	case "kind":
		if s.Cur < 0 {
			return "-"
		}
		return s.decision().Kind
	case "step":
		return s.Step
	case "round":
		return strconv.Itoa(s.Round)
	case "season":
		if s.Summer {
			return "summer"
		}
		return "winter"
	case "priority":
		return s.Name(s.Priority)
	case "order":
		var names []string
		for _, o := range s.Order() {
			names = append(names, s.Name(o))
		}
		return strings.Join(names, " ")
	case "display":
		return strings.Join(s.Display, " ")
	case "display.sorted":
		d := append([]string(nil), s.Display...)
		sort.Strings(d)
		return strings.Join(d, " ")
	case "deck":
		return strconv.Itoa(len(s.Deck))
	case "target":
		return strconv.Itoa(s.Target())
	case "capacity":
		return strconv.Itoa(s.Capacity())
	case "brewed":
		return strconv.Itoa(s.BrewedAll)
	case "over":
		return strconv.FormatBool(s.Step == position.StepOver)
	case "blocked":
		return strings.Join(s.BlockedR, " ")
	case "winner":
		res := s.Result()
		if res == nil {
			return "-"
		}
		var w []string
		for _, x := range res.Winners() {
			w = append(w, s.Name(x))
		}
		return strings.Join(w, " ")
	}
	head, rest, _ := strings.Cut(q, ".")
	switch head {
	case "supply":
		switch rest {
		case "seeds":
			return strconv.Itoa(s.SeedSupply)
		default:
			return strconv.Itoa(s.SupplyCount(catalog.ColourIndex(rest)))
		}
	case "market":
		return strconv.Itoa(s.Market[s.Rules.Ingr(rest)])
	case "bm":
		return strconv.Itoa(s.BM[s.Rules.Tok(rest)])
	case "removed":
		return strconv.Itoa(s.Removed[s.Rules.Tok(rest)])
	case "deck":
		for _, c := range s.Deck {
			if c == rest {
				return "true"
			}
		}
		return "false"
	case "score":
		res := s.Result()
		seat := r.seat(rest)
		return strconv.Itoa(res.Scores[seat].Total)
	}
	seat := r.seat(head)
	p := &s.P[seat]
	field, arg, _ := strings.Cut(rest, ".")
	switch field {
	case "AR", "ST":
		loc := position.LocAR
		if field == "ST" {
			loc = position.LocST
		}
		return strings.Join(s.DiceTexts(s.DiceAt(seat, loc)), " ")
	case "colours":
		var cs []string
		for _, id := range s.DiceAt(seat, position.LocAR) {
			cs = append(cs, catalog.ColourLetters[s.Dice[id].C])
		}
		for _, id := range s.DiceAt(seat, position.LocST) {
			cs = append(cs, catalog.ColourLetters[s.Dice[id].C])
		}
		sort.Strings(cs)
		return strings.Join(cs, " ")
	case "coins":
		return strconv.Itoa(p.Coins)
	case "xp":
		return strconv.Itoa(p.XP)
	case "seeds":
		return strconv.Itoa(p.Seeds)
	case "passed":
		return strconv.FormatBool(p.Passed)
	case "brewed":
		return strings.Join(p.Brewed, " ")
	case "market_die":
		if id := s.MarketDie(seat); id >= 0 {
			return position.DieText(&s.Dice[id])
		}
		return "-"
	case "tokens":
		var out []string
		for t, n := range p.Tok {
			for k := 0; k < n; k++ {
				out = append(out, s.Rules.Tokens[t].Code)
			}
		}
		return strings.Join(out, " ")
	case "ingr":
		var out []string
		for i, n := range p.Ingr {
			for k := 0; k < n; k++ {
				out = append(out, s.Rules.Ingredients[i].Code)
			}
		}
		return strings.Join(out, " ")
	case "board":
		sp, up, _ := notation.SpaceToken(arg)
		if id := s.BoardDie(seat, sp, up); id >= 0 {
			return position.DieText(&s.Dice[id])
		}
		if !up && p.Board[sp].Seed {
			return "SEED"
		}
		return "-"
	case "can":
		sp, _, _ := notation.SpaceToken(arg)
		if err := s.SpaceOpen(seat, sp, false); err != nil {
			return view.WhyCode(err)
		}
		return "free"
	case "canbrew":
		return strconv.FormatBool(s.brewable(seat, arg))
	case "missing":
		_, miss := s.Assign(s.Card(arg), s.BrewDice(seat))
		return strings.Join(miss, " ")
	case "credit":
		return strconv.Itoa(s.Credit(seat))
	}
	r.fatalf("unknown query %q", q)
	return ""
}
