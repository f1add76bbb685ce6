package records

import "github.com/pbem-referee/referee/store"

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
