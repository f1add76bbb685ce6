package store

// bListedGames indexes the games outside tournaments whose organiser
// listed their public page (PUBLISH <game> listed): game id -> "". The
// pages' index reads it without decoding every game.
var bListedGames = []byte("games.listed")

// SetGameListed adds a game to the index of listed pages, or removes it.
func (tx *Tx) SetGameListed(game string, listed bool) error {
	tx.widen()
	if !listed {
		if b := tx.b(bListedGames); b != nil {
			return b.Delete([]byte(game))
		}
		return nil
	}
	b, err := createBucket(tx.tx, bListedGames)
	if err != nil {
		return err
	}
	return b.Put([]byte(game), []byte{})
}

// ListedGames calls fn for every listed game, in id order.
func (tx *Tx) ListedGames(fn func(game string) error) error {
	b := tx.b(bListedGames)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, _ []byte) error { return fn(string(k)) })
}
