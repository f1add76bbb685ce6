package dicebrewing

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// brewable reports whether a seat can brew a card now (DB-5.9.3).
func (s *state) brewable(seat int, id string) bool {
	if id == "" || s.InDisplay(id) < 0 || s.RecipeBlocked(id) {
		return false
	}
	rc := s.Card(id)
	if len(s.MissingTokens(seat, rc, -1)) > 0 {
		return false
	}
	_, missing := s.Assign(rc, s.BrewDice(seat))
	return len(missing) == 0
}

// hasBrewable reports whether a seat can brew any face-up card.
func (s *state) hasBrewable(seat int) bool {
	for _, c := range s.Display {
		if s.brewable(seat, c) {
			return true
		}
	}
	return false
}

// brewPlan is a checked brew.
type brewPlan struct {
	rc        *catalog.Recipe
	dice      []int
	improve   int // index in rc.Improve, -1 none
	blue      int // blue improvement die, -1 none
	ingr      int // improvement ingredient, -1 none
	choices   []string
	needs     []string
	remaining []string // choice kinds left for a reward decision
}

// checkBrew checks a BREW move (DB-5.9.3 to DB-5.9.5, DB-5.9.8).
func (s *state) checkBrew(seat int, m *notation.Move) (*brewPlan, error) {
	rc := s.Card(m.Card)
	if s.InDisplay(m.Card) < 0 {
		return nil, engine.Reject("DB-5.9.3", "not_in_display", "card", m.Card)
	}
	if s.RecipeBlocked(m.Card) {
		return nil, engine.Reject("DB-5.8.6", "recipe_blocked", "card", m.Card)
	}
	pl := &brewPlan{rc: rc, improve: -1, blue: -1, ingr: -1}
	// The improvement (DB-5.9.4, §9 A-19).
	if m.ImproveCode != "" {
		i := s.Rules.Ingr(m.ImproveCode)
		for k, im := range rc.Improve {
			if im.Token == m.ImproveCode {
				pl.improve = k
			}
		}
		if pl.improve < 0 {
			return nil, engine.Reject("DB-5.9.4", "improve_not_accepted", "card", m.Card, "improve", m.ImproveCode)
		}
		pl.ingr = i
	}
	if miss := s.MissingTokens(seat, rc, pl.ingr); len(miss) > 0 {
		return nil, engine.Reject("DB-5.9.3", "missing_ingredients", "card", m.Card, "missing", miss)
	}
	avail := s.BrewDice(seat)
	if m.ImproveDie != nil {
		for k, im := range rc.Improve {
			if im.Token == "" {
				pl.improve = k
			}
		}
		if pl.improve < 0 {
			return nil, engine.Reject("DB-5.9.4", "improve_not_accepted", "card", m.Card, "improve", "B")
		}
		r := *m.ImproveDie
		if r.Seat >= 0 && r.Seat != seat {
			return nil, engine.Reject("DB-5.9.4", "not_your_die", "die", r.String())
		}
		id, err := s.resolve(seat, r, []int{position.LocST}, false, s.brewErr("DB-5.9.4", nil))
		if err != nil {
			return nil, err
		}
		need := rc.Improve[pl.improve].BlueMin
		if s.Dice[id].Value() < need {
			return nil, engine.Reject("DB-5.9.4", "blue_too_low", "space", m.Card, "need", need, "die", position.DieText(&s.Dice[id]))
		}
		pl.blue = id
	}
	// The base dice (DB-5.9.3 b, DB-5.9.5).
	if len(m.Dice) > 0 {
		used := map[int]bool{}
		var ids []int
		for _, r := range m.Dice {
			if r.Seat >= 0 && r.Seat != seat {
				return nil, engine.Reject("DB-5.9.5", "not_your_die", "die", r.String())
			}
			id, err := s.resolve(seat, r, []int{position.LocST}, false, s.brewErr("DB-5.9.5", used))
			if err != nil {
				return nil, err
			}
			used[id] = true
			ids = append(ids, id)
		}
		got, missing := s.Assign(rc, ids)
		if len(missing) > 0 || len(got) != len(ids) {
			return nil, engine.Reject("DB-5.9.5", "use_mismatch", "card", m.Card, "use", notation.RefsText(m.Dice), "missing", missing)
		}
		pl.dice = got
	} else {
		got, missing := s.Assign(rc, avail)
		if len(missing) > 0 {
			return nil, engine.Reject("DB-5.9.3", "missing_dice", "card", m.Card, "missing", missing)
		}
		pl.dice = got
	}
	// Reward choices (DB-5.9.8): colours answer die:ANY, codes the tokens.
	var colours, tokens []string
	for _, g := range m.Get {
		if catalog.ColourIndex(g) >= 0 {
			colours = append(colours, g)
		} else {
			tokens = append(tokens, g)
		}
	}
	pl.needs = s.choiceNeeds(rc, pl.improve)
	nd, nt := 0, 0
	for _, n := range pl.needs {
		if n == "die" {
			nd++
		} else {
			nt++
		}
	}
	if len(colours) > nd || len(tokens) > nt {
		return nil, engine.Reject("DB-5.9.8", "too_many_choices", "card", m.Card, "needs", pl.needs)
	}
	// Walk the gains in the order they are given, with what the supply
	// and the stacks will hold at that moment.
	supply := [catalog.NumColours]int{}
	for c := range supply {
		supply[c] = s.SupplyCount(c)
	}
	bm := cloneInts(s.BM)
	ci, ti := 0, 0
	for _, g := range s.gainsOf(rc, pl.improve) {
		if g.Die != "" && g.Die != "ANY" {
			if c := catalog.ColourIndex(g.Die); supply[c] > 0 {
				supply[c]--
			}
		}
		if g.Die == "ANY" && anyDie(supply) {
			if ci >= len(colours) {
				pl.remaining = append(pl.remaining, "die")
			} else {
				c := catalog.ColourIndex(colours[ci])
				ci++
				if supply[c] == 0 {
					return nil, engine.Reject("DB-5.9.8", "choice_unavailable", "choice", catalog.ColourLetters[c])
				}
				supply[c]--
				pl.choices = append(pl.choices, catalog.ColourLetters[c])
			}
		}
		for k := 0; k < g.Tokens && anyToken(bm); k++ {
			if ti >= len(tokens) {
				pl.remaining = append(pl.remaining, "token")
				continue
			}
			t := s.Rules.Tok(tokens[ti])
			ti++
			if bm[t] == 0 {
				return nil, engine.Reject("DB-5.9.8", "choice_unavailable", "choice", s.Rules.Tokens[t].Code)
			}
			bm[t]--
			pl.choices = append(pl.choices, s.Rules.Tokens[t].Code)
		}
	}
	return pl, nil
}

func anyDie(supply [catalog.NumColours]int) bool {
	for _, n := range supply {
		if n > 0 {
			return true
		}
	}
	return false
}

func anyToken(bm []int) bool {
	for _, n := range bm {
		if n > 0 {
			return true
		}
	}
	return false
}

// brewErr accepts a seat's stored, unblocked dice not yet used.
func (s *state) brewErr(rule string, used map[int]bool) func(id int) error {
	return func(id int) error {
		d := &s.Dice[id]
		if used[id] {
			return engine.Reject(rule, "same_die_twice", "die", position.DieText(d))
		}
		if d.L != position.LocST {
			return engine.Reject("DB-5.9.3", "not_stored", "die", position.DieText(d))
		}
		if d.Blocked() {
			return engine.Reject("DB-5.8.9", "die_blocked", "die", position.DieText(d), "by", d.Sh-1)
		}
		return nil
	}
}

// gainsOf returns the gains of a brew: the reward, then the bonus of the
// improvement used (DB-5.9.6 step 7).
func (s *state) gainsOf(rc *catalog.Recipe, improve int) []catalog.GainSpec {
	gains := []catalog.GainSpec{rc.Reward}
	if improve >= 0 {
		gains = append(gains, rc.BonusFor(improve))
	}
	return gains
}

// choiceNeeds lists the choices a brew asks for: "die" for die:ANY and
// "token" per action token, the reward's first, then the bonus's.
func (s *state) choiceNeeds(rc *catalog.Recipe, improve int) []string {
	var out []string
	for _, g := range s.gainsOf(rc, improve) {
		if g.Die == "ANY" {
			out = append(out, "die")
		}
		for k := 0; k < g.Tokens; k++ {
			out = append(out, "token")
		}
	}
	return out
}

// applyBrew resolves a checked brew (DB-5.9.6).
func (s *state) applyBrew(seat int, m *notation.Move, pl *brewPlan) {
	p := &s.P[seat]
	rc := pl.rc
	// 1-2. The card goes to the brewed pile; a new card is revealed.
	slot := s.InDisplay(rc.ID)
	p.Brewed = append(p.Brewed, rc.ID)
	s.Display[slot] = ""
	usedTexts := s.DiceTexts(pl.dice)
	kv := []any{"card", rc.ID, "dice", usedTexts}
	// 3. Base dice go to the brewer's AR.
	for _, id := range pl.dice {
		s.Dice[id].L = position.LocAR
	}
	// 4. Ingredients go back to their Market stacks.
	for _, t := range rc.Tokens {
		p.Ingr[t]--
		s.Market[t]++
	}
	if pl.ingr >= 0 {
		p.Ingr[pl.ingr]--
		s.Market[pl.ingr]++
		kv = append(kv, "improve", s.Rules.Ingredients[pl.ingr].Code)
	}
	// 5. A blue improvement die goes to AR.
	if pl.blue >= 0 {
		kv = append(kv, "improve", position.DieText(&s.Dice[pl.blue]))
		s.Dice[pl.blue].L = position.LocAR
	}
	// 6. +1 XP for brewing.
	p.XP += s.Rules.BrewXP
	s.BrewedAll++
	kv = append(kv, "brewed", s.BrewedAll, "xp", s.Rules.BrewXP)
	s.pub("db.brew", seat, kv...)
	if id := s.draw(); id != "" {
		s.Display[slot] = id
		s.Reveals++
		for i := range s.P {
			s.P[i].BrewSkip = false
		}
		s.pub("db.reveal", -1, "card", id, "slot", slot+1, "deck", len(s.Deck))
	} else {
		s.pub("db.reveal", -1, "card", "", "slot", slot+1, "deck", 0)
	}
	// 7. Reward and bonus, with the choices made so far.
	choices := append([]string(nil), pl.choices...)
	s.gain(seat, rc.Reward, "reward", &choices)
	if pl.improve >= 0 {
		s.gain(seat, rc.BonusFor(pl.improve), "bonus", &choices)
	}
	// 8. The end trigger (DB-1.3, DB-5.9.9).
	if s.BrewedAll >= s.Target() && !s.Trigger {
		s.Trigger = true
		s.pub("db.trigger", -1, "brewed", s.BrewedAll, "target", s.Target())
	}
	if len(pl.remaining) > 0 {
		s.Sub = position.SubReward
		s.Reward = &position.RewardPending{Card: rc.ID, Needs: append([]string(nil), pl.remaining...)}
		return
	}
	s.endBrewTurn()
}

func (s *state) endBrewTurn() {
	seat := s.Cur
	s.Cur, s.Sub, s.Reward = -1, position.SubNone, nil
	s.From = s.Rank(seat) + 1
}

// gain hands out a reward or bonus (DB-5.9.8). Choices already made are
// taken from choices; a die:ANY or token with no choice left is skipped
// here and asked for in a reward decision.
func (s *state) gain(seat int, g catalog.GainSpec, source string, choices *[]string) {
	p := &s.P[seat]
	if g.XP > 0 {
		p.XP += g.XP
		s.pub("db.gain", seat, "what", "XP", "n", g.XP, "source", source)
	}
	if g.Coins > 0 {
		p.Coins += g.Coins
		s.pub("db.gain", seat, "what", "coins", "n", g.Coins, "source", source)
	}
	take := func(kind string) (string, bool) {
		for i, c := range *choices {
			if (kind == "die") == (catalog.ColourIndex(c) >= 0) {
				*choices = append((*choices)[:i:i], (*choices)[i+1:]...)
				return c, true
			}
		}
		return "", false
	}
	switch {
	case g.Die == "ANY":
		if c, ok := take("die"); ok {
			s.giveDie(seat, catalog.ColourIndex(c), source)
		} else if !s.anySupplyDie() {
			s.pub("db.lost", seat, "what", "die", "source", source)
		}
	case g.Die != "":
		s.giveDie(seat, catalog.ColourIndex(g.Die), source)
	}
	for k := 0; k < g.Tokens; k++ {
		if c, ok := take("token"); ok {
			s.giveToken(seat, s.Rules.Tok(c), source)
		} else if !anyToken(s.BM) {
			s.pub("db.lost", seat, "what", "token", "source", source)
		}
	}
}

func (s *state) anySupplyDie() bool {
	for c := 0; c < catalog.NumColours; c++ {
		if s.SupplyCount(c) > 0 {
			return true
		}
	}
	return false
}

// giveDie gives a reward die, unrolled, into AR (DB-5.9.8, DB-6.1); a die
// the supply lacks is lost (DB-2.2).
func (s *state) giveDie(seat, c int, source string) {
	if !s.give(seat, c, source) {
		s.pub("db.lost", seat, "what", catalog.ColourLetters[c], "source", source)
	}
}

// giveToken gives an action token from the Black Market stacks into ST
// (DB-5.9.8); with hidden tokens only its owner learns which (DB-6.6).
func (s *state) giveToken(seat, t int, source string) {
	if s.BM[t] == 0 {
		s.pub("db.lost", seat, "what", "token", "source", source)
		return
	}
	s.BM[t]--
	s.P[seat].Tok[t]++
	e := engine.NewEvent("db.gain", seat, engine.Public, "what", "token", "token", s.Rules.Tokens[t].Code, "n", 1, "source", source)
	if s.HiddenTokens() {
		e.Vis = engine.Only(seat)
		e.Redacted = map[string]any{"what": "token", "n": 1, "source": source, "hidden": true}
	}
	s.emit(e)
}

// rewardOptions lists the answers to the next reward choice.
func (s *state) rewardOptions() []string {
	if s.Reward == nil || len(s.Reward.Needs) == 0 {
		return nil
	}
	var out []string
	if s.Reward.Needs[0] == "die" {
		for c := 0; c < catalog.NumColours; c++ {
			if s.SupplyCount(c) > 0 {
				out = append(out, catalog.ColourLetters[c])
			}
		}
		return out
	}
	for t, at := range s.Rules.Tokens {
		if s.BM[t] > 0 {
			out = append(out, at.Code)
		}
	}
	return out
}

// defaultChoice is the reward choice applied at a deadline (DB-10.6).
func (s *state) defaultChoice() string {
	opts := s.rewardOptions()
	if len(opts) == 0 {
		return ""
	}
	if s.Reward.Needs[0] == "die" {
		want := catalog.ColourLetters[s.Rules.DefaultDie]
		for _, o := range opts {
			if o == want {
				return o
			}
		}
		return opts[0]
	}
	for _, t := range s.Rules.DefaultTokenOrder {
		for _, o := range opts {
			if o == t {
				return o
			}
		}
	}
	return opts[0]
}

// applyGet answers reward choices (DB-5.9.8).
func (s *state) applyGet(seat int, m *notation.Move) error {
	if len(m.Get) > len(s.Reward.Needs) {
		return engine.Reject("DB-5.9.8", "too_many_choices", "card", s.Reward.Card, "needs", s.Reward.Needs)
	}
	supply := [catalog.NumColours]int{}
	for c := range supply {
		supply[c] = s.SupplyCount(c)
	}
	bm := cloneInts(s.BM)
	for i, g := range m.Get {
		need := s.Reward.Needs[i]
		if c := catalog.ColourIndex(g); c >= 0 {
			if need != "die" {
				return engine.Reject("DB-5.9.8", "bad_choice", "choice", g, "need", need)
			}
			if supply[c] == 0 {
				return engine.Reject("DB-5.9.8", "choice_unavailable", "choice", g)
			}
			supply[c]--
			continue
		}
		t := s.Rules.Tok(g)
		if need != "token" {
			return engine.Reject("DB-5.9.8", "bad_choice", "choice", g, "need", need)
		}
		if bm[t] == 0 {
			return engine.Reject("DB-5.9.8", "choice_unavailable", "choice", g)
		}
		bm[t]--
	}
	for _, g := range m.Get {
		if c := catalog.ColourIndex(g); c >= 0 {
			s.giveDie(seat, c, "reward")
		} else {
			s.giveToken(seat, s.Rules.Tok(g), "reward")
		}
		s.Reward.Needs = s.Reward.Needs[1:]
	}
	// Choices that can no longer be given are lost (DB-5.9.8).
	for len(s.Reward.Needs) > 0 && len(s.rewardOptions()) == 0 {
		s.pub("db.lost", seat, "what", s.Reward.Needs[0], "source", "reward")
		s.Reward.Needs = s.Reward.Needs[1:]
	}
	if len(s.Reward.Needs) == 0 {
		s.endBrewTurn()
	}
	return nil
}

// brewOptions lists a seat's brews in canonical form: for each brewable
// card, no improvement, the blue improvement with the lowest qualifying
// die, and each accepted ingredient the player holds, times every
// combination of reward choices. The dice are left to the default
// selection (DB-5.9.5), which keeps the highest dice stored.
func (s *state) brewOptions(seat int) []engine.Option {
	var out []engine.Option
	type imp struct {
		text string
		k    int
	}
	for _, id := range s.Display {
		if !s.brewable(seat, id) {
			continue
		}
		rc := s.Card(id)
		imps := []imp{{"", -1}}
		for k, im := range rc.Improve {
			if im.Token != "" {
				if len(s.MissingTokens(seat, rc, s.Rules.Ingr(im.Token))) == 0 {
					imps = append(imps, imp{" IMPROVE " + im.Token, k})
				}
				continue
			}
			blues := s.BrewDice(seat)
			s.LowFirst(blues)
			for _, b := range blues {
				d := &s.Dice[b]
				if d.C == catalog.ColB && d.Value() >= im.BlueMin {
					ref := notation.DieRef{Seat: -1, C: catalog.ColB, F: d.F, Plus: d.Plus}
					imps = append(imps, imp{" IMPROVE " + ref.String(), k})
					break
				}
			}
		}
		for _, im := range imps {
			for _, get := range s.getCombos(rc, im.k) {
				cmd := "BREW " + id + im.text
				if get != "" {
					cmd += " GET " + get
				}
				out = append(out, engine.Option{Cmd: cmd, Params: map[string]any{"card": id}})
			}
		}
	}
	return out
}

// getCombos returns every list of reward choices of a brew, as GET
// arguments ("" when nothing is to be chosen), following the gains in the
// order they are given and what the supply and the stacks hold then.
func (s *state) getCombos(rc *catalog.Recipe, improve int) []string {
	type step struct {
		fixed int    // a fixed die colour taken first, -1 none
		need  string // "die", "token" or ""
	}
	var steps []step
	for _, g := range s.gainsOf(rc, improve) {
		if g.Die != "" && g.Die != "ANY" {
			steps = append(steps, step{fixed: catalog.ColourIndex(g.Die)})
		}
		if g.Die == "ANY" {
			steps = append(steps, step{fixed: -1, need: "die"})
		}
		for k := 0; k < g.Tokens; k++ {
			steps = append(steps, step{fixed: -1, need: "token"})
		}
	}
	supply := [catalog.NumColours]int{}
	for c := range supply {
		supply[c] = s.SupplyCount(c)
	}
	bm := cloneInts(s.BM)
	var out []string
	var rec func(i int, acc []string)
	rec = func(i int, acc []string) {
		if i == len(steps) {
			out = append(out, strings.Join(acc, " "))
			return
		}
		st := steps[i]
		switch {
		case st.fixed >= 0:
			if supply[st.fixed] > 0 {
				supply[st.fixed]--
				rec(i+1, acc)
				supply[st.fixed]++
				return
			}
			rec(i+1, acc)
			return
		case st.need == "die":
			if !anyDie(supply) {
				rec(i+1, acc) // nothing to give: the choice is lost
				return
			}
			for c := 0; c < catalog.NumColours; c++ {
				if supply[c] > 0 {
					supply[c]--
					rec(i+1, append(acc, catalog.ColourLetters[c]))
					supply[c]++
				}
			}
		default:
			if !anyToken(bm) {
				rec(i+1, acc)
				return
			}
			for t, at := range s.Rules.Tokens {
				if bm[t] > 0 {
					bm[t]--
					rec(i+1, append(acc, at.Code))
					bm[t]++
				}
			}
		}
	}
	rec(0, nil)
	return out
}
