package dicebrewing

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/catalog"
	"github.com/pbem-referee/referee/engine/dicebrewing/notation"
	"github.com/pbem-referee/referee/engine/dicebrewing/position"
)

// bestDiscount returns the best discount a seat could get on an ingredient.
func (s *state) bestDiscount(seat, ingr int) int {
	best := 0
	usable := s.OwnUsable(seat)
	for id := range s.Dice {
		if usable(id) && s.Dice[id].C == catalog.ColB {
			best = max(best, s.DiscountOf(ingr, &s.Dice[id]))
		}
	}
	return best
}

// canBuyAny reports whether a seat could buy anything now (DB-5.7.6).
func (s *state) canBuyAny(seat int) bool { return s.noBuyReason(seat) == "" }

// noBuyReason says why a seat can buy nothing, or "" when it can buy.
func (s *state) noBuyReason(seat int) string {
	p := &s.P[seat]
	money := p.Coins + s.Credit(seat)
	if s.Step != position.StepBuy {
		money = p.Coins
	}
	closed, bought, empty := true, true, true
	if s.MarketOpen() {
		closed = false
		if !p.BoughtM {
			bought = false
			for i, in := range s.Rules.Ingredients {
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
	if s.BlackMarketOpen() {
		closed = false
		if !p.BoughtBM {
			bought = false
			for t, at := range s.Rules.Tokens {
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
	if i := s.Rules.Ingr(m.Code); i >= 0 {
		what = "ingredient"
		if !s.MarketOpen() {
			return engine.Reject("DB-4.3", "market_closed", "round", s.Round, "opens", s.Rules.OpenMarket)
		}
		if p.BoughtM {
			return engine.Reject("DB-5.7.2", "already_bought", "what", what)
		}
		if s.Market[i] == 0 {
			return engine.Reject("DB-5.7.3", "sold_out", "code", m.Code)
		}
		price = s.Rules.Ingredients[i].Price
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
			minus = s.DiscountOf(i, &s.Dice[id])
			if minus == 0 {
				return engine.Reject("DB-5.7.4", "no_discount", "code", m.Code, "die", position.DieText(&s.Dice[id]))
			}
			blue = id
		}
	} else {
		t := s.Rules.Tok(m.Code)
		if !s.BlackMarketOpen() {
			return engine.Reject("DB-4.3", "black_market_closed", "round", s.Round, "opens", s.Rules.OpenBlackMarket)
		}
		if p.BoughtBM {
			return engine.Reject("DB-5.7.2", "already_bought", "what", what)
		}
		if s.BM[t] == 0 {
			return engine.Reject("DB-5.7.3", "sold_out", "code", m.Code)
		}
		price = s.Rules.Tokens[t].Price
	}
	price = max(0, price-minus)
	credit := s.Credit(seat)
	if price > p.Coins+credit {
		return engine.Reject("DB-5.7.3", "cannot_afford", "code", m.Code, "price", price, "coins", p.Coins, "credit", credit)
	}
	fromCredit := min(price, credit)
	p.CreditUsed += fromCredit
	p.Coins -= price - fromCredit
	kv := []any{"code", m.Code, "what", what, "price", price, "credit", fromCredit}
	if what == "ingredient" {
		i := s.Rules.Ingr(m.Code)
		s.Market[i]--
		p.Ingr[i]++
		p.BoughtM = true
		if blue >= 0 {
			kv = append(kv, "with", position.DieText(&s.Dice[blue]), "discount", minus)
			s.Dice[blue].L = position.LocMarket
		}
		s.pub("db.buy", seat, kv...)
		return nil
	}
	t := s.Rules.Tok(m.Code)
	s.BM[t]--
	p.Tok[t]++
	p.BoughtBM = true
	e := engine.NewEvent("db.buy", seat, engine.Public, kv...)
	if s.HiddenTokens() {
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
	money := p.Coins + s.Credit(seat)
	if s.MarketOpen() && !p.BoughtM {
		var blues []group
		usable := s.OwnUsable(seat)
		blues = s.groups(seat, func(id int) bool { return usable(id) && s.Dice[id].C == catalog.ColB }, placeLocs, false)
		for i, in := range s.Rules.Ingredients {
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
				minus := s.DiscountOf(i, d)
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
	if s.BlackMarketOpen() && !p.BoughtBM {
		for t, at := range s.Rules.Tokens {
			if s.BM[t] > 0 && at.Price <= money {
				out = append(out, engine.Option{Cmd: "BUY " + at.Code, Params: map[string]any{"price": at.Price}})
			}
		}
	}
	return out
}
