package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// A move writes one page of the buckets' headers (schema 10, issue 25:
// the top level holds the buckets the frequent commits write, every other
// one is in "rest"): the top level is one leaf, and a move writes it and
// nothing of rest's tree. Variation: a store made at schema 11, one made
// at schema 10 (every bucket in rest: a crash between the migration's two
// commits) and one made at schema 9, each migrated (its every bucket filled first: each
// record reads the same after the move into rest), generated games,
// entries, tokens, players, organisers, tournaments, ratings, quarantined
// inputs, cursors and hooks; moves in games drawn at random with and
// without a mail and a wake-up, by an update and by a speculation; and
// the commits that write a bucket in rest write its headers' tree there.
func TestMoveWritesOneLeafOfHeaders_Issue25(t *testing.T) {
	for _, from := range []int{9, 10, 11} {
		t.Run(fmt.Sprintf("from schema %d", from), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(10, uint64(from)))
			text := func(n int) []byte { return moveText(rng, n) }
			path := filepath.Join(t.TempDir(), "referee.db")
			db, err := Open(path, &Options{Migrations: migrations[:from], NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			const games = 300
			recs, entries := map[string][]byte{}, map[string][][]byte{}
			tokens := map[string]Token{}
			others := map[string][]byte{} // kind NUL key -> record
			for k := 0; k < games; k += 50 {
				err := db.Update(func(tx *Tx) error {
					for j := k; j < k+50; j++ {
						id := fmt.Sprintf("g%d", j)
						recs[id] = append([]byte(`{"id":"`+id+`","t":[`), text(500+rng.IntN(4000))...)
						if err := tx.PutGame(id, recs[id]); err != nil {
							return err
						}
						for range 1 + rng.IntN(5) {
							e := text(80 + rng.IntN(400))
							entries[id] = append(entries[id], e)
							if _, err := tx.AppendLog(id, e); err != nil {
								return err
							}
						}
						secret := fmt.Sprintf("%s-%x", id, rng.Uint64())
						tokens[secret] = Token{Kind: "seat", Game: id, Address: id + "@p.test"}
						if err := tx.PutToken(secret, tokens[secret]); err != nil {
							return err
						}
						others["player\x00"+id+"@p.test"] = text(60)
						if err := tx.PutPlayer(id+"@p.test", others["player\x00"+id+"@p.test"]); err != nil {
							return err
						}
						if j%7 == 0 {
							others["org\x00o"+id+"@p.test"] = text(30)
							if err := tx.PutOrganiser("o"+id+"@p.test", others["org\x00o"+id+"@p.test"]); err != nil {
								return err
							}
							others["tour\x00t"+id] = text(200 + rng.IntN(2000))
							if err := tx.PutTournament("t"+id, others["tour\x00t"+id]); err != nil {
								return err
							}
							others["rating\x00"+id+"@p.test"] = text(40)
							if err := tx.PutRating("dicebrewing", id+"@p.test", others["rating\x00"+id+"@p.test"]); err != nil {
								return err
							}
							if err := tx.IndexGame(id, GameIndex{Status: "running", Addresses: []string{id + "@p.test"}}); err != nil {
								return err
							}
							if _, err := tx.Enqueue("hooks", Item{Key: id, To: "https://h.test", Payload: text(300), Created: t0}); err != nil {
								return err
							}
							if _, err := tx.Quarantine(Quarantined{Source: "imap", Reason: id, Raw: text(100)}); err != nil {
								return err
							}
						}
						if err := tx.MarkInbound(InboundRecord{Keys: []string{"join:" + id}, Game: id, Outcome: "applied"}); err != nil {
							return err
						}
					}
					return tx.PutCursor("imap:a/INBOX", Cursor{UIDValidity: 7, LastUID: uint32(k)})
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			db = reopenCurrent(t, db, path)
			// The top level: the buckets a move, a delivery, an intake
			// write, and rest; every other bucket is in rest.
			db.View(func(tx *Tx) error {
				return tx.tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
					if !topBucket(name) {
						t.Errorf("bucket %q at the top level", name)
					}
					return nil
				})
			})
			check := func(when string) {
				t.Helper()
				err := db.View(func(tx *Tx) error {
					for id, rec := range recs {
						got, err := tx.Game(id)
						if err != nil || !bytes.Equal(got, rec) {
							t.Fatalf("%s: game %s: %v, %d bytes, want %d", when, id, err, len(got), len(rec))
						}
						n := 0
						tx.Log(id, 1, func(seq uint64, e []byte) error {
							if n >= len(entries[id]) || !bytes.Equal(e, entries[id][n]) {
								t.Fatalf("%s: %s entry %d differs", when, id, seq)
							}
							n++
							return nil
						})
						if n != len(entries[id]) {
							t.Fatalf("%s: %s: %d entries, want %d", when, id, n, len(entries[id]))
						}
						if _, ok, _ := tx.Seen("join:" + id); !ok {
							t.Fatalf("%s: %s: join not seen", when, id)
						}
					}
					for secret, tok := range tokens {
						if got, err := tx.Token(secret); err != nil || got != tok {
							t.Fatalf("%s: token %s: %+v %v", when, secret, got, err)
						}
					}
					for k, want := range others {
						kind, key, _ := strings.Cut(k, "\x00")
						var got []byte
						switch kind {
						case "player":
							got, _ = tx.Player(key)
						case "org":
							got, _ = tx.Organiser(key)
						case "tour":
							got, _ = tx.Tournament(key)
						case "rating":
							got, _ = tx.Rating("dicebrewing", key)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s: %s %s differs", when, kind, key)
						}
					}
					if n := tx.QueueLen("hooks"); n != (games+6)/7 {
						t.Fatalf("%s: %d hooks", when, n)
					}
					if c, _ := tx.Cursor("imap:a/INBOX"); c.LastUID != games-50 {
						t.Fatalf("%s: cursor %+v", when, c)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			check("after the open")
			for m := range 40 {
				id := fmt.Sprintf("g%d", rng.IntN(games))
				e := text(80 + rng.IntN(400))
				rec := recs[id]
				at := 20 + rng.IntN(len(rec)-40)
				next := append(append(append([]byte{}, rec[:at]...), text(10+rng.IntN(60))...), rec[at+5:]...)
				mail, wake := rng.IntN(3) > 0, rng.IntN(2) == 0
				written, _ := pagesOfMove(t, db, m, func(tx *Tx) error {
					if err := tx.PutGame(id, next); err != nil {
						return err
					}
					if _, err := tx.AppendLog(id, e); err != nil {
						return err
					}
					if err := tx.MarkInbound(InboundRecord{Keys: []string{fmt.Sprintf("move:%s:%d", id, m)}, Game: id, Outcome: "applied"}); err != nil {
						return err
					}
					if mail {
						if _, err := tx.Enqueue("outbox", Item{Key: id, To: "a@example.test", Payload: text(500 + rng.IntN(3000)), Created: t0}); err != nil {
							return err
						}
					}
					if wake {
						return tx.SetWake(id, t0.Add(time.Duration(m)*time.Minute))
					}
					return nil
				})
				recs[id], entries[id] = next, append(entries[id], e)
				if written["(bucket headers) leaf"] != 1 || written["(bucket headers) branch"] != 0 {
					t.Errorf("move %d (mail %v, wake %v): %d leaves and %d branches of the headers, want one leaf: %v", m, mail, wake,
						written["(bucket headers) leaf"], written["(bucket headers) branch"], written)
				}
				for owner, n := range written {
					if strings.HasPrefix(owner, pagefile.RestHeaders) {
						t.Errorf("move %d: %d pages of %s", m, n, owner)
					}
				}
			}
			check("after the moves")
			// A commit that writes a bucket in rest writes rest's headers.
			written, _ := pagesOfMove(t, db, 0, func(tx *Tx) error { return tx.PutPlayer("new@p.test", []byte("x")) })
			if written[pagefile.RestHeaders+" leaf"] == 0 || written["(bucket headers) leaf"] != 1 {
				t.Errorf("a player put: %v", written)
			}
			if err := db.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}
