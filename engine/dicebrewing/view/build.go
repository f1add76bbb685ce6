package view

import (
	"strconv"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// Moves is what a view asks of the game beyond the position: the options
// of a decision (Legal) and the reading of a line (Parse); the game's State
// answers both. It is not the Position's Rules (the data file's rules,
// catalog.Rules), which the view reads as s.Rules.
type Moves interface {
	Legal(d engine.Decision) []engine.Option
	Parse(seat int, line string) (engine.Move, error)
}

// Now is what the view reads of the game beside its position.
type Now struct {
	Kind        string          // the kind of the decision owed now, "" when none
	Mine        engine.Decision // that decision, when the reader owes it
	Result      *engine.Result  // the final result, once over
	Adjudicated *engine.Result  // the scores if the game ended now (Adjudicate)
}

// builder reads a position for one View.
type builder struct {
	*position.Position
	g Moves
}

// Build returns what seat may see of the game at position p (View; seat
// -1 is an observer): g answers the options of a decision and reads a
// line, now says what the position itself does not (the decision owed,
// the result).
func Build(p *position.Position, g Moves, seat int, now Now) View {
	s := builder{p, g}
	r := s.Rules
	v := View{Seat: seat, Seats: s.H.Seats, Variant: s.H.Variant, Options: s.H.Options, Ruleset: r.Version,
		Provisional: r.Provisional, Round: s.Round, Summer: s.Summer, Step: s.Step, Sub: s.Sub, Priority: s.Priority,
		Order: s.Order(), Turn: s.Cur, Target: s.Target(), Brewed: s.BrewedAll, DeckSize: len(s.Deck), Capacity: s.Capacity(),
		MarketOpen: s.MarketOpen(), MarketOpens: r.OpenMarket, BMOpen: s.BlackMarketOpen(), BMOpens: r.OpenBlackMarket,
		Over: s.Step == position.StepOver}
	if s.Step == position.StepW0 || s.Step == position.StepW3 {
		v.Window = s.WindowName()
	}
	if s.Cur >= 0 {
		v.TurnName = s.Name(s.Cur)
		v.Kind = now.Kind
		v.MyTurn = s.Cur == seat
		if v.MyTurn {
			v.Example = s.example(now.Mine)
			v.Toward, v.Costs = s.toward(seat, now.Kind)
		}
	}
	v.Supply = SupplyView{Y: s.SupplyCount(catalog.ColY), K: s.SupplyCount(catalog.ColK), G: s.SupplyCount(catalog.ColG), B: s.SupplyCount(catalog.ColB), Seeds: s.SeedSupply}
	for i, in := range r.Ingredients {
		it := MarketItem{Code: in.Code, Stock: s.Market[i], Price: in.Price, MyPrice: in.Price, Provisional: in.Provisional}
		for _, d := range in.Discounts {
			it.Discounts = append(it.Discounts, "B>="+strconv.Itoa(d.BlueMin)+" -"+strconv.Itoa(d.Minus))
		}
		if seat >= 0 {
			best, with := 0, ""
			usable := s.OwnUsable(seat)
			for id := range s.Dice {
				if usable(id) && s.Dice[id].C == catalog.ColB {
					if m := s.DiscountOf(i, &s.Dice[id]); m > best {
						best, with = m, position.DieText(&s.Dice[id])
					}
				}
			}
			it.MyPrice, it.MyWith = max(0, in.Price-best), with
		}
		v.Market = append(v.Market, it)
	}
	for t, at := range r.Tokens {
		it := BMItem{Code: at.Code, Stock: s.stockFor(seat, t), Price: at.Price, Windows: s.TokenWindows(t), Provisional: at.Provisional}
		if seat >= 0 && seat == s.Cur && (s.Step == position.StepBuy || s.Sub == position.SubReward) {
			it.Gone = it.Stock > 0 && s.BM[t] == 0
		}
		v.BlackMarket = append(v.BlackMarket, it)
	}
	v.BMFaceDown = s.faceDownOthers(seat)
	for i, c := range s.Display {
		v.Display = append(v.Display, s.cardView(seat, i, c))
	}
	for p := range s.P {
		pv := s.playerView(seat, p)
		v.Players = append(v.Players, pv)
		if p == seat {
			me := pv
			v.Me = &me
		}
	}
	if s.Sub == position.SubReroll {
		v.Picked = s.DiceTexts(s.Picked)
	}
	if s.Reward != nil {
		v.Reward, v.Needs = s.Reward.Card, s.Reward.Needs
	}
	if seat >= 0 {
		v.Heads = s.heads(&v)
	}
	if now.Result != nil {
		v.Scores = s.scoreViews(now.Result)
	} else if now.Adjudicated != nil {
		v.Projected = s.scoreViews(now.Adjudicated)
	}
	return v
}

// heads are the entries of v.Heads, from v's own fields: each group a
// key of Toward or Costs starts with (followed by a space) is Listed,
// each speed-up slot has its space's threshold, each card on display its
// BREW group.
func (s builder) heads(v *View) map[string]HeadView {
	h := make(map[string]HeadView, catalog.NumSpaces+len(v.Display)+4)
	for _, m := range [...]map[string][]string{v.Toward, v.Costs} {
		for k := range m {
			for i := 0; i < len(k); i++ {
				if k[i] == ' ' {
					e := h[k[:i]]
					e.Listed = true
					h[k[:i]] = e
				}
			}
		}
	}
	for sp := 0; sp < catalog.NumSpaces; sp++ {
		if n := s.Rules.Speedup[sp]; n != 0 {
			e := h[speedupGroups[sp]]
			e.Speedup = n
			h[speedupGroups[sp]] = e
		}
	}
	for _, c := range v.Display {
		if c.ID != "" {
			g := "BREW " + c.ID
			e := h[g]
			e.Card = c
			h[g] = e
		}
	}
	return h
}

// speedupGroups are the groups of the speed-up slots, by space.
var speedupGroups = func() (g [catalog.NumSpaces]string) {
	for sp := range g {
		g[sp] = "PLACE " + catalog.SpaceNames[sp] + "+"
	}
	return g
}()

// scoreViews are a result's scores as the summary shows them.
func (s builder) scoreViews(res *engine.Result) []ScoreView {
	var out []ScoreView
	for _, sc := range res.Scores {
		parts := map[string]int{}
		for _, pt := range sc.Parts {
			parts[pt.Name] = pt.Points
		}
		out = append(out, ScoreView{Seat: sc.Seat, Name: s.Name(sc.Seat), Rank: res.Rank[sc.Seat], Total: sc.Total, Parts: parts})
	}
	return out
}

// stockFor is the Black Market stock of token type t as the reader may know
// it. DB-6.2 makes the stocks public, DB-6.6 the type of a face-down token
// hidden: a stack that shrinks when a player takes a face-down token would
// name it. So with hidden tokens every reader sees each stack less the
// tokens played (revealed, DB-5.8.3) and less their own face-down tokens,
// with the others' face-down tokens still counted in (faceDownOthers says
// how many); the holder alone knows which stacks they came from.
func (s builder) stockFor(reader, t int) int {
	if !s.HiddenTokens() {
		return s.BM[t]
	}
	n := s.BM[t]
	for p := range s.P {
		if p != reader {
			n += s.P[p].Tok[t]
		}
	}
	return n
}

// faceDownOthers counts the face-down tokens the players other than the
// reader hold (DB-6.6), 0 without hidden tokens.
func (s builder) faceDownOthers(reader int) int {
	if !s.HiddenTokens() {
		return 0
	}
	n := 0
	for p := range s.P {
		if p != reader {
			n += s.TokensHeld(p)
		}
	}
	return n
}

func gainView(g catalog.GainSpec) GainView {
	return GainView(g)
}

// cardView describes a display slot for a reader.
func (s builder) cardView(seat, slot int, id string) CardView {
	cv := CardView{Slot: slot + 1, ID: id, BlockedBy: -1}
	if id == "" {
		return cv
	}
	rc := s.Card(id)
	cv.Name, cv.Style, cv.Level, cv.Provisional = rc.Name, rc.Style, rc.Level, rc.Provisional
	cv.Base = rc.DiceText
	for _, t := range rc.Tokens {
		cv.Tokens = append(cv.Tokens, s.Rules.Ingredients[t].Code)
	}
	cv.Reward, cv.Bonus = gainView(rc.Reward), gainView(rc.Bonus)
	for _, im := range rc.Improve {
		if im.Token != "" {
			cv.Improve = append(cv.Improve, im.Token)
		} else {
			cv.Improve = append(cv.Improve, "B>="+strconv.Itoa(im.BlueMin))
		}
	}
	for i, c := range s.BlockedR {
		if c == id {
			cv.Blocked, cv.BlockedBy = true, s.BlockRBy[i]
		}
	}
	if seat < 0 {
		return cv
	}
	use, missing := s.Assign(rc, s.BrewDice(seat))
	missing = append(missing, s.MissingTokens(seat, rc, -1)...)
	cv.Missing = missing
	if len(missing) == 0 {
		cv.Use = s.DiceTexts(use)
		cv.CanBrew = !cv.Blocked
	}
	for _, im := range rc.Improve {
		if im.Token != "" {
			if len(s.MissingTokens(seat, rc, s.Rules.Ingr(im.Token))) == 0 {
				cv.ImproveWith = append(cv.ImproveWith, im.Token)
			}
			continue
		}
		blues := s.BrewDice(seat)
		s.LowFirst(blues)
		for _, b := range blues {
			if s.Dice[b].C == catalog.ColB && s.Dice[b].Value() >= im.BlueMin {
				cv.ImproveWith = append(cv.ImproveWith, position.DieText(&s.Dice[b]))
				break
			}
		}
	}
	return cv
}

func (s builder) dieViews(ids []int) []DieView {
	s.SortDice(ids)
	out := make([]DieView, 0, len(ids))
	for _, id := range ids {
		d := &s.Dice[id]
		dv := DieView{Text: position.DieText(d), Colour: catalog.ColourLetters[d.C], Face: d.F, Value: d.Value(), Plus: d.Plus, Rolled: d.R, By: -1}
		if d.Sh != 0 {
			dv.By = d.Sh - 1
			if d.Blocked() {
				dv.Shield = "blocked"
			} else {
				dv.Shield = "protected"
			}
		}
		out = append(out, dv)
	}
	return out
}

// playerView describes seat p for the reader.
func (s builder) playerView(reader, p int) PlayerView {
	pl := &s.P[p]
	pv := PlayerView{Seat: p, Name: s.Name(p), Rank: s.Rank(p), Priority: p == s.Priority, Coins: pl.Coins, XP: pl.XP,
		Seeds: pl.Seeds, AR: s.dieViews(s.DiceAt(p, position.LocAR)), ST: s.dieViews(s.DiceAt(p, position.LocST)),
		TokenCount: s.TokensHeld(p), Brewed: pl.Brewed, Passed: pl.Passed, BoughtM: pl.BoughtM, BoughtBM: pl.BoughtBM,
		BuyDone: pl.BuyDone, BrewPassed: pl.BrewPass >= 0 && pl.BrewPass == s.Reveals && s.Step == position.StepBrew, Swapped: pl.Swapped,
		Unlucky: s.UnluckyDice(p), Credit: s.Credit(p)}
	if id := s.MarketDie(p); id >= 0 {
		pv.MarketDie = position.DieText(&s.Dice[id])
	}
	for i, in := range s.Rules.Ingredients {
		if n := pl.Ingr[i]; n > 0 {
			pv.Ingredients = append(pv.Ingredients, CodeCount{Code: in.Code, N: n})
		}
	}
	if reader == p || !s.HiddenTokens() {
		for t, at := range s.Rules.Tokens {
			if n := pl.Tok[t]; n > 0 {
				pv.Tokens = append(pv.Tokens, CodeCount{Code: at.Code, N: n})
			}
		}
	}
	for b := 0; b < catalog.NumBuildings; b++ {
		if by := pl.BlockB[b]; by != 0 {
			pv.BlockedB = append(pv.BlockedB, catalog.BuildingNames[b]+":"+s.Name(by-1))
			pv.Blocks = append(pv.Blocks, BlockView{Building: catalog.BuildingNames[b], Seat: by - 1})
		}
	}
	for sp := 0; sp < catalog.NumSpaces; sp++ {
		bs := pl.Board[sp]
		sv := SpaceView{Space: catalog.SpaceNames[sp], Building: catalog.BuildingNames[catalog.SpaceBuilding[sp]], Used: bs.Used, Done: bs.Done,
			Users: s.SpaceUsers(sp), Speedup: s.Rules.Speedup[sp]}
		if bs.Seed {
			sv.Item = "SEED"
		}
		if id := s.BoardDie(p, sp, false); id >= 0 {
			sv.Item = position.DieText(&s.Dice[id])
		}
		if id := s.BoardDie(p, sp, true); id >= 0 {
			sv.Speed = position.DieText(&s.Dice[id])
		}
		if err := s.SpaceOpen(p, sp, false); err == nil {
			sv.Free = true
		} else {
			sv.Why = WhyCode(err)
		}
		pv.Board = append(pv.Board, sv)
	}
	if reader == p {
		if pl.AutoStore > 0 {
			pv.AutoStore = strconv.Itoa(pl.AutoStore)
			if pl.AutoStoreB {
				pv.AutoStore += " B"
			}
		}
		switch pl.TokensNone {
		case position.TNRound:
			pv.TokensNone = "ROUND"
		case position.TNGame:
			pv.TokensNone = "GAME"
		}
	}
	return pv
}

// WhyCode shortens a space error to a reason: closed, blockb, used, full.
func WhyCode(err error) string {
	re, ok := engine.AsRuleError(err)
	if !ok {
		return "other"
	}
	switch re.Code {
	case "building_closed":
		return "closed"
	case "building_blocked":
		return "blockb"
	case "space_used":
		return "used"
	case "space_full":
		return "full"
	}
	return "other"
}

// example picks a legal command to show in a prompt: the first one that
// does something (not a store, a pass or an end).
func (s builder) example(mine engine.Decision) string {
	opts := s.g.Legal(mine)
	for _, o := range opts {
		switch engine.FirstWord(o.Cmd) {
		case "STORE", "PASS", "DONE", "END", "NOBUY":
			continue
		}
		return o.Cmd
	}
	if len(opts) > 0 {
		return opts[0].Cmd
	}
	return ""
}
