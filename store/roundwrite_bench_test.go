package store

import (
	"fmt"
	"testing"
)

// BenchmarkRoundOfNewGames_Issue24 measures what a tournament round's
// opening writes of each new game besides its record, 500 games a
// transaction (an op): two seat tokens (PutToken) and the game's indexes
// (IndexGame: head, status, organiser, two addresses, count). Its
// allocations are exact.
func BenchmarkRoundOfNewGames_Issue24(b *testing.B) {
	db := open(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		err := db.Update(func(tx *Tx) error {
			for g := range 500 {
				id := fmt.Sprintf("T%05d-%03d", i, g)
				for s := range 2 {
					addr := fmt.Sprintf("Player%d@Example.org", (i*1000+g*2+s)*7919%100000)
					sec := fmt.Sprintf("s%d-%s", s, id)
					if err := tx.PutToken(sec, Token{Kind: "seat", Game: id, Seat: s, Address: addr, Created: t0}); err != nil {
						return err
					}
				}
				ix := GameIndex{Game: "toy", Status: "running", Organiser: "Org@Example.org", Players: 2, Seats: 2,
					Addresses: []string{fmt.Sprintf("Player%d@Example.org", g), fmt.Sprintf("p%d@example.org", g+1)}}
				if err := tx.IndexGame(id, ix); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
