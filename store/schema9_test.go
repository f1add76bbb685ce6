package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/store/layout"
	bolt "go.etcd.io/bbolt"
)

// TestMigrationToSchema9 (issue 25, the bytes of a move): generated stores
// of schema 8 (payloads in "body.<queue>", plain and blobs, of live and
// retired items of both queues; the games' wake-ups in "wake.by", games
// and tournament clocks) open as schema 9 with every payload read whole
// by every reader (QueueItem, Items, Due, Retired), the wake-ups read the
// same (Wake, DueWakes in order, NextWake), the old buckets gone; then the
// store goes on: a wake-up replaced and removed, an item retired keeps its
// payload, a pruned one loses it, and nothing is left of either.
func TestMigrationToSchema9(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for round := range 5 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			db, path := openAtSchema(t, 8)
			payloads := map[string]map[uint64][]byte{}
			live := map[string][]uint64{}
			wakes := map[string]time.Time{}
			err := db.bolt.Update(func(btx *bolt.Tx) error {
				for _, q := range Queues {
					payloads[q] = map[uint64][]byte{}
					body := bucketOf(btx, bodyBucket(q))
					n := rng.IntN(1 + round*8)
					for i := range n {
						id := uint64(i + 1)
						size := []int{0, 1 + rng.IntN(100), layout.BlobMin - 1, layout.BlobMin, layout.BlobMin + rng.IntN(9000), 40000}[rng.IntN(6)]
						p := bytes.Repeat([]byte{byte('a' + rng.IntN(26))}, size)
						if size > 0 {
							payloads[q][id] = p
							if err := putValue(body, u64(id), p); err != nil {
								return err
							}
						}
						due := t0.Add(time.Duration(rng.IntN(500)) * time.Minute)
						state, name := Pending, "queue."+q
						if rng.IntN(3) == 0 {
							state, name = Sent, "done."+q
						}
						raw := fmt.Appendf(nil, `{"id":%d,"key":"k%d","to":"x@y","state":%q,"created":%q,"due":%q,"keep_until":%q}`, id, id, state,
							t0.Format(time.RFC3339), due.Format(time.RFC3339), t0.Add(time.Hour).Format(time.RFC3339))
						if err := bucketOf(btx, []byte(name)).Put(u64(id), raw); err != nil {
							return err
						}
						if state == Pending {
							live[q] = append(live[q], id)
							if err := bucketOf(btx, []byte("queue."+q)).Put(dueEntry(due, id), nil); err != nil {
								return err
							}
						}
					}
				}
				w, by := bucketOf(btx, bWake), bucketOf(btx, bWakeBy)
				for i := range rng.IntN(1 + round*10) {
					g := fmt.Sprintf("g%d", i)
					if i%4 == 3 {
						g = fmt.Sprintf("t:%d", i) // a tournament's clock
					}
					at := t0.Add(time.Duration(rng.IntN(1000)) * time.Minute)
					wakes[g] = at
					key := append(u64(uint64(at.UnixNano())), g...)
					if err := w.Put(key, nil); err != nil {
						return err
					}
					if err := by.Put([]byte(g), key); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			if db, err = Open(path, &Options{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if v, _ := db.SchemaVersion(); v != SchemaVersion || SchemaVersion != 14 {
				t.Fatalf("schema %d", v)
			}
			db.View(func(tx *Tx) error {
				for _, name := range [][]byte{bodyBucket("outbox"), bodyBucket("hooks"), bWakeBy} {
					if tx.bucket(name) != nil {
						t.Errorf("bucket %s still there", name)
					}
				}
				for _, q := range Queues {
					seen := map[uint64]bool{}
					read := func(how string, it Item) {
						seen[it.ID] = true
						if !bytes.Equal(it.Payload, payloads[q][it.ID]) {
							t.Errorf("%s %s item %d: payload of %d bytes, want %d", how, q, it.ID, len(it.Payload), len(payloads[q][it.ID]))
						}
					}
					tx.Items(q, func(it Item) error { read("Items", it); return nil })
					tx.Retired(q, func(it Item) error { read("Retired", it); return nil })
					due, _ := tx.Due(q, t0.Add(1000*time.Hour), 0)
					for _, it := range due {
						read("Due", it)
					}
					if len(due) != len(live[q]) || tx.QueueLen(q) != len(live[q]) {
						t.Errorf("%s: %d due, %d live, want %d", q, len(due), tx.QueueLen(q), len(live[q]))
					}
					for id := range payloads[q] {
						it, err := tx.QueueItem(q, id)
						read("QueueItem", it)
						if err != nil || !seen[id] {
							t.Errorf("%s item %d: %v, listed %v", q, id, err, seen[id])
						}
					}
				}
				checkWakes(t, tx, wakes)
				return nil
			})
			// The store goes on.
			err = db.Update(func(tx *Tx) error {
				for g := range wakes {
					switch rng.IntN(3) {
					case 0:
						wakes[g] = wakes[g].Add(time.Duration(rng.IntN(2000)-1000) * time.Minute)
						if err := tx.SetWake(g, wakes[g]); err != nil {
							return err
						}
					case 1:
						delete(wakes, g)
						if err := tx.SetWake(g, time.Time{}); err != nil {
							return err
						}
					}
				}
				if err := tx.SetWake("new", t0); err != nil {
					return err
				}
				wakes["new"] = t0
				checkWakes(t, tx, wakes)
				for _, q := range Queues {
					for _, id := range live[q] {
						_, err := tx.Finish(q, id, Sent, t0, t0, "")
						if err != nil || !bytes.Equal(tx.Payload(q, id), payloads[q][id]) {
							t.Errorf("finish %s %d: %v, %d bytes", q, id, err, len(tx.Payload(q, id)))
						}
					}
					if _, err := tx.PruneRetired(q, t0.Add(2*time.Hour)); err != nil {
						return err
					}
					var left []string
					tx.bucket([]byte("queue." + q)).ForEach(func(k, _ []byte) error { left = append(left, fmt.Sprintf("%x", k)); return nil })
					if len(left) != 0 {
						t.Errorf("%s: keys left after every item was retired and pruned: %v", q, left)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// checkWakes compares every reader of the wake-ups with want.
func checkWakes(t *testing.T, tx *Tx, want map[string]time.Time) {
	t.Helper()
	var order []string
	var first time.Time
	for g, at := range want {
		if !tx.Wake(g).Equal(at) {
			t.Errorf("wake of %s: %v, want %v", g, tx.Wake(g), at)
		}
		order = append(order, g)
		if first.IsZero() || at.Before(first) {
			first = at
		}
	}
	slices.SortFunc(order, func(a, b string) int {
		if c := want[a].Compare(want[b]); c != 0 {
			return c
		}
		return bytes.Compare([]byte(a), []byte(b))
	})
	if got := tx.DueWakes(t0.Add(10000*time.Hour), 0); !slices.Equal(got, order) {
		t.Errorf("DueWakes: %v, want %v", got, order)
	}
	if next, ok := tx.NextWake(); ok != (len(want) > 0) || !next.Equal(first) {
		t.Errorf("NextWake: %v %v, want %v", next, ok, first)
	}
	if tx.Wake("none").IsZero() == false {
		t.Error("a game without a wake-up has one")
	}
}

// TestTokensByKind (schema 9): on generated sets of tokens of every kind,
// put before the migration (indexed by it) or after (indexed by PutToken),
// some deleted, TokensOf lists exactly the tokens of its kind and Tokens
// every token, neither the index's keys; the index holds every token but
// the seats' (issue 24: one key a seat's token), once; a secret of the
// index's form is refused and never found.
func TestTokensByKind(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	kinds := []string{"seat", "org", "player", "s", "seat2"}
	for round := range 4 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			db, path := openAtSchema(t, 8)
			want := map[string]Token{}
			put := func(raw bool) {
				err := db.Update(func(tx *Tx) error {
					for i := range rng.IntN(40 * (round + 1)) {
						secret := fmt.Sprintf("%x%d", rng.Uint64(), i)
						tok := Token{Kind: kinds[rng.IntN(len(kinds))], Game: "g", Address: secret + "@x"}
						want[secret] = tok
						if raw { // as schema 8 wrote it: no index
							if err := putJSON(tx.bucket(bTokens), []byte(secret), tok); err != nil {
								return err
							}
						} else if err := tx.PutToken(secret, tok); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			put(true)
			db.Close()
			db, err := Open(path, &Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			put(false)
			err = db.Update(func(tx *Tx) error {
				for secret := range want {
					if rng.IntN(4) == 0 {
						delete(want, secret)
						if err := tx.DeleteToken(secret); err != nil {
							return err
						}
					}
				}
				if err := tx.PutToken("\x00org\x00x", Token{Kind: "org"}); err == nil {
					t.Error("a secret of the index's form was taken")
				}
				if _, err := tx.Token("\x00org\x00"); !errors.Is(err, ErrNotFound) {
					t.Errorf("an index key read as a token: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			db.View(func(tx *Tx) error {
				all := map[string]Token{}
				tx.Tokens(func(s string, tok Token) error { all[s] = tok; return nil })
				if len(all) != len(want) {
					t.Errorf("Tokens: %d, want %d", len(all), len(want))
				}
				// A seat's token is one key, its index key none (issue
				// 24: unindexedKind); every other kind's is indexed once.
				indexed := map[string]bool{}
				c := tx.bucket(bTokens).Cursor()
				for k, _ := c.First(); k != nil && k[0] == 0; k, _ = c.Next() {
					kind, secret, _ := bytes.Cut(k[1:], []byte{0})
					if want[string(secret)].Kind != string(kind) || indexed[string(secret)] {
						t.Errorf("index key %q of a token %+v", k, want[string(secret)])
					}
					indexed[string(secret)] = true
				}
				for s, tok := range want {
					if indexed[s] != (tok.Kind != "seat") {
						t.Errorf("%s of kind %s: indexed %v", s, tok.Kind, indexed[s])
					}
				}
				for _, kind := range kinds {
					got := map[string]bool{}
					tx.TokensOf(kind, func(s string, tok Token) error {
						if tok.Kind != kind || want[s] != tok {
							t.Errorf("TokensOf(%s): %s is %+v", kind, s, tok)
						}
						got[s] = true
						return nil
					})
					for s, tok := range want {
						if all[s] != tok || (tok.Kind == kind) != got[s] {
							t.Errorf("%s of kind %s: in Tokens %v, in TokensOf(%s) %v", s, tok.Kind, all[s] == tok, kind, got[s])
						}
					}
				}
				return nil
			})
		})
	}
}
