package records

import (
	"cmp"

	"github.com/pbem-referee/referee/store"
)

// OpenGames are the games a player may JOIN (forming, open, a seat free),
// in id order, at most page of them, found through the store's indexes
// (the forming games, then each one's index entry): only those are
// decoded. more counts the open games past the page.
func OpenGames(tx *store.Tx, page int) (games []*Game, more int, err error) {
	err = tx.GamesWithStatus(StatusForming, func(id string) error {
		if ix, ok, err := tx.GameIndexOf(id); err != nil || !ok || !ix.Open || ix.Seats >= ix.Players {
			return err
		}
		if len(games) >= page {
			more++
			return nil
		}
		g, err := LoadGame(tx, id)
		if err != nil {
			return err
		}
		if g.Open && g.Status == StatusForming && len(g.Seats) < g.Players {
			games = append(games, g)
		}
		return nil
	})
	return games, more, err
}

// OrganiserGames are an organiser's games from the game from on ("" from
// the first), in id order, at most page of them, found through the
// store's indexes: each is what its index entry holds (its status,
// players and seats; no record is decoded) unless changed gives it as a
// unit of work left it; fresh are games not stored yet, listed after the
// others. next is the first game past the page and more how many are past
// it, counted from the index's keys alone (issue 25: an organiser's LIST
// of 2,000 games read them all and answered 2,000 lines).
func OrganiserGames(tx *store.Tx, org, from string, page int, changed func(id string) *Game, fresh []*Game) (games []*Game, next string, more int, err error) {
	add := func(g *Game) {
		switch {
		case g.Organiser != org || g.ID < from:
		case len(games) < page:
			games = append(games, g)
		case more == 0:
			next, more = g.ID, 1
		default:
			more++
		}
	}
	err = tx.GamesOfOrganiser(org, func(id string) error {
		if g := changed(id); g != nil || id < from || len(games) == page {
			add(cmp.Or(g, &Game{ID: id, Organiser: org}))
			return nil
		}
		ix, ok, err := tx.GameIndexOf(id)
		if ok {
			add(&Game{ID: id, Game: ix.Game, Status: ix.Status, Organiser: ix.Organiser, Players: ix.Players, Seats: make([]Seat, ix.Seats)})
		}
		return err
	})
	for _, g := range fresh {
		add(g)
	}
	return games, next, more, err
}
