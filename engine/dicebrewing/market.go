package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
)

// unluckyDice counts a seat's dice that earn unlucky-roll credit: in AR or
// ST, value 1, rolled this round, not SHIELD-blocked (DB-5.7.9).
func (s *state) unluckyDice(seat int) int {
	if s.H.Options[optUnlucky] != "true" {
		return 0
	}
	n := 0
	for i := range s.Dice {
		d := &s.Dice[i]
		if d.O == seat && (d.L == locAR || d.L == locST) && d.R && d.value() == 1 && !d.blocked() {
			n++
		}
	}
	return n
}

// credit is the unlucky-roll credit a seat may still spend in this round's
// Phase 2 (DB-5.7.9): it is used before coins and what is left is lost.
func (s *state) credit(seat int) int {
	if s.H.Options[optUnlucky] != "true" || s.Step != stepBuy {
		return 0
	}
	return max(0, s.rules.UnluckyCreditFor(s.unluckyDice(seat))-s.P[seat].CreditUsed)
}

// discountOf returns the discount a blue die gives on an ingredient
// (DB-5.7.4): the best one its value reaches, 0 if none.
func (s *state) discountOf(ingr int, blue *die) int {
	best := 0
	for _, d := range s.rules.Ingredients[ingr].Discounts {
		if blue.value() >= d.BlueMin && d.Minus > best {
			best = d.Minus
		}
	}
	return best
}

// bestDiscount returns the best discount a seat could get on an ingredient.
func (s *state) bestDiscount(seat, ingr int) int {
	best := 0
	usable := s.ownUsable(seat)
	for id := range s.Dice {
		if usable(id) && s.Dice[id].C == catalog.ColB {
			best = max(best, s.discountOf(ingr, &s.Dice[id]))
		}
	}
	return best
}

// canBuyAny reports whether a seat could buy anything now (DB-5.7.6).
func (s *state) canBuyAny(seat int) bool { return s.noBuyReason(seat) == "" }

// noBuyReason says why a seat can buy nothing, or "" when it can buy.
func (s *state) noBuyReason(seat int) string {
	p := &s.P[seat]
	money := p.Coins + s.credit(seat)
	if s.Step != stepBuy {
		money = p.Coins
	}
	closed, bought, empty := true, true, true
	if s.marketOpen() {
		closed = false
		if !p.BoughtM {
			bought = false
			for i, in := range s.rules.Ingredients {
				if s.Market[i] == 0 {
					continue
				}
				empty = false
				if max(0, in.Price-s.bestDiscount(seat, i)) <= money {
					return ""
				}
			}
		}
	}
	if s.blackMarketOpen() {
		closed = false
		if !p.BoughtBM {
			bought = false
			for t, at := range s.rules.Tokens {
				if s.BM[t] == 0 {
					continue
				}
				empty = false
				if at.Price <= money {
					return ""
				}
			}
		}
	}
	switch {
	case closed:
		return "closed"
	case bought:
		return "bought"
	case empty:
		return "sold_out"
	}
	return "coins"
}

// buy buys one ingredient or action token (DB-5.7.2 to DB-5.7.5).
func (s *state) buy(seat int, m *notation.Move) error {
	p := &s.P[seat]
	price, minus, blue := 0, 0, -1
	what := "token"
	if i := s.rules.Ingr(m.Code); i >= 0 {
		what = "ingredient"
		if !s.marketOpen() {
			return engine.Reject("DB-4.3", "market_closed", "round", s.Round, "opens", s.rules.OpenMarket)
		}
		if p.BoughtM {
			return engine.Reject("DB-5.7.2", "already_bought", "what", what)
		}
		if s.Market[i] == 0 {
			return engine.Reject("DB-5.7.3", "sold_out", "code", m.Code)
		}
		price = s.rules.Ingredients[i].Price
		if m.With != nil {
			r := *m.With
			if r.Seat >= 0 && r.Seat != seat {
				return engine.Reject("DB-5.7.4", "not_your_die", "die", r.String())
			}
			if r.C != catalog.ColB {
				return engine.Reject("DB-5.7.4", "discount_not_blue", "die", r.String())
			}
			id, err := s.resolve(seat, r, placeLocs, false, s.usableErr("DB-5.7.4"))
			if err != nil {
				return err
			}
			minus = s.discountOf(i, &s.Dice[id])
			if minus == 0 {
				return engine.Reject("DB-5.7.4", "no_discount", "code", m.Code, "die", dieText(&s.Dice[id]))
			}
			blue = id
		}
	} else {
		t := s.rules.Tok(m.Code)
		if !s.blackMarketOpen() {
			return engine.Reject("DB-4.3", "black_market_closed", "round", s.Round, "opens", s.rules.OpenBlackMarket)
		}
		if p.BoughtBM {
			return engine.Reject("DB-5.7.2", "already_bought", "what", what)
		}
		if s.BM[t] == 0 {
			return engine.Reject("DB-5.7.3", "sold_out", "code", m.Code)
		}
		price = s.rules.Tokens[t].Price
	}
	price = max(0, price-minus)
	credit := s.credit(seat)
	if price > p.Coins+credit {
		return engine.Reject("DB-5.7.3", "cannot_afford", "code", m.Code, "price", price, "coins", p.Coins, "credit", credit)
	}
	fromCredit := min(price, credit)
	p.CreditUsed += fromCredit
	p.Coins -= price - fromCredit
	kv := []any{"code", m.Code, "what", what, "price", price, "credit", fromCredit}
	if what == "ingredient" {
		i := s.rules.Ingr(m.Code)
		s.Market[i]--
		p.Ingr[i]++
		p.BoughtM = true
		if blue >= 0 {
			kv = append(kv, "with", dieText(&s.Dice[blue]), "discount", minus)
			s.Dice[blue].L = locMarket
		}
		s.pub("db.buy", seat, kv...)
		return nil
	}
	t := s.rules.Tok(m.Code)
	s.BM[t]--
	p.Tok[t]++
	p.BoughtBM = true
	e := engine.NewEvent("db.buy", seat, engine.Public, kv...)
	if s.hiddenTokens() {
		// DB-6.6: the opponents see that a token was bought, not which.
		e.Vis = engine.Only(seat)
		e.Redacted = map[string]any{"what": what, "price": price, "credit": fromCredit, "hidden": true}
	}
	s.emit(e)
	return nil
}

// buyOptions lists a seat's purchases in canonical form: each ingredient
// at full price, and with each distinct discount the lowest qualifying
// blue die of AR and of ST (a higher die of the same place is never worth
// more to keep); then each action token (DB-5.7).
func (s *state) buyOptions(seat int) []engine.Option {
	var out []engine.Option
	p := &s.P[seat]
	money := p.Coins + s.credit(seat)
	if s.marketOpen() && !p.BoughtM {
		var blues []group
		usable := s.ownUsable(seat)
		blues = s.groups(seat, func(id int) bool { return usable(id) && s.Dice[id].C == catalog.ColB }, placeLocs, false)
		for i, in := range s.rules.Ingredients {
			if s.Market[i] == 0 {
				continue
			}
			if in.Price <= money {
				out = append(out, engine.Option{Cmd: "BUY " + in.Code, Params: map[string]any{"price": in.Price}})
			}
			type pick struct{ loc, minus int }
			seen := map[pick]bool{}
			// groups are ordered by place, then face: the first qualifying
			// group of a place and discount has the lowest value.
			for _, g := range blues {
				d := &s.Dice[g.id]
				minus := s.discountOf(i, d)
				k := pick{d.L, minus}
				if minus == 0 || seen[k] {
					continue
				}
				seen[k] = true
				price := max(0, in.Price-minus)
				if price > money {
					continue
				}
				out = append(out, engine.Option{Cmd: "BUY " + in.Code + " WITH " + g.ref.String(),
					Params: map[string]any{"price": price, "discount": minus}})
			}
		}
	}
	if s.blackMarketOpen() && !p.BoughtBM {
		for t, at := range s.rules.Tokens {
			if s.BM[t] > 0 && at.Price <= money {
				out = append(out, engine.Option{Cmd: "BUY " + at.Code, Params: map[string]any{"price": at.Price}})
			}
		}
	}
	return out
}
