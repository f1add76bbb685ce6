package records

import (
	"cmp"
	"slices"

	"github.com/pbem-referee/referee/store"
)

// OpenGames are the games a player may JOIN (forming, open, a seat free),
// in id order, at most page of them, found through the store's index of
// them (games.joinable): only those are read and decoded; more, the open
// games past the page, is the index's counter less the page (issue 25: a
// seat's LIST read the index entry of every forming game to count them).
func OpenGames(tx *store.Tx, page int) (games []*Game, more int, err error) {
	seen := 0
	err = tx.JoinableGames(func(id string) (bool, error) {
		if seen == page {
			return false, nil
		}
		seen++
		g, err := LoadGame(tx, id)
		if err != nil {
			return false, err
		}
		if Joinable(g) {
			games = append(games, g)
		}
		return true, nil
	})
	return games, max(tx.JoinableCount()-seen, 0), err
}

// OrganiserGames are an organiser's games from the game from on ("" from
// the first), in id order, at most page of them, found through the
// store's indexes: each is what its index entry holds (its status,
// players and seats; no record is decoded) unless changed gives it as a
// unit of work left it; fresh are games not stored yet (a NEW of the same
// mail), each listed in its place among the others. next is the first
// game past the page and more how many are past it, counted from the
// index's keys alone (issue 25: an organiser's LIST of 2,000 games read
// them all and answered 2,000 lines; the ids before from are not read).
func OrganiserGames(tx *store.Tx, org, from string, page int, changed func(id string) *Game, fresh []*Game) (games []*Game, next string, more int, err error) {
	var mine []*Game // fresh games of org from from on, in id order
	for _, g := range fresh {
		if g.Organiser == org && g.ID >= from {
			mine = append(mine, g)
		}
	}
	slices.SortFunc(mine, func(a, b *Game) int { return cmp.Compare(a.ID, b.ID) })
	// full takes the fresh games before id into the page; it says whether
	// the page is full before id, and then which game comes next.
	full := func(id string) bool {
		for len(mine) > 0 && (id == "" || mine[0].ID < id) {
			if len(games) == page {
				if next == "" || mine[0].ID < next {
					next = mine[0].ID
				}
				return true
			}
			games, mine = append(games, mine[0]), mine[1:]
		}
		if len(games) == page && id != "" {
			next = id
			return true
		}
		return false
	}
	rest, err := tx.GamesOfOrganiserFrom(org, from, func(id string) (bool, error) {
		if full(id) {
			return false, nil
		}
		if g := changed(id); g != nil {
			if g.Organiser == org {
				games = append(games, g)
			}
			return true, nil
		}
		ix, ok, err := tx.GameIndexOf(id)
		if ok {
			games = append(games, &Game{ID: id, Game: ix.Game, Status: ix.Status, Organiser: ix.Organiser, Players: ix.Players, Seats: make([]Seat, ix.Seats)})
		}
		return err == nil, err
	})
	if err != nil {
		return nil, "", 0, err
	}
	full("")
	return games, next, rest + len(mine), nil
}
