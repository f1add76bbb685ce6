package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/pbem-referee/referee/store/recform"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Small indexes of the games (issue 25: a seat's LIST, the organiser's
// LIST, bounce alerts and the metrics decoded every game, 1.4 s and
// 443 MB at 10,000 games). They are written by IndexGame in the
// transaction that saves the game, and only when what they hold changed
// (a move changes none of it):
//
//	games.head       game id -> GameIndex (JSON)
//	games.by_status  status NUL game id -> empty
//	games.by_address lower-cased seat address NUL game id -> empty
//	games.by_org     lower-cased organiser NUL game id -> empty
//	games.count      status -> 8-byte big-endian count of games (a
//	                 transaction's changes kept in it and written once,
//	                 before it commits: GameCounts adds them in)
//	games.joinable   game id -> empty: the games a player may JOIN
//	                 (GameIndex.Joinable), counted in meta
//	                 "games_joinable" (8-byte big-endian)
//
// meta "game_index" ("2": with games.joinable) says they cover every
// game: a new store's do from the start; the referee builds them once
// for a store that had games before schema 6 or whose indexes were built
// before games.joinable ("1"; the store cannot read a game's record).
//
// A list reads them a page at a time (issue 25: the organiser's and the
// seat's LIST): from a key on, and what lies past the page counted from
// the keys alone (no value read, no string made of a key) or, for the
// joinable games, read from their counter.
var (
	bGameHead    = []byte("games.head")
	bGameStatus  = []byte("games.by_status")
	bGameAddress = []byte("games.by_address")
	bGameOrg     = []byte("games.by_org")
	bGameCount   = []byte("games.count")
	bGameJoin    = []byte("games.joinable")
	kGameIndex   = []byte("game_index")
	kGameJoin    = []byte("games_joinable")
	// gameIndexVersion is meta "game_index" of indexes that hold
	// games.joinable.
	gameIndexVersion = []byte("2")
)

func gameIndexBuckets() [][]byte {
	return [][]byte{bGameHead, bGameStatus, bGameAddress, bGameOrg, bGameCount, bGameJoin}
}

// GameIndex is what the indexes know of a game (its form: store/recform).
type GameIndex = recform.GameIndex

// pairKey is a pair index's key, lower(a) NUL id, made in one
// allocation (issue 24: two a new game's address, at 5,000 games a round).
func pairKey(a, id string) []byte {
	k := make([]byte, len(a)+1+len(id))
	for i := 0; i < len(a); i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		k[i] = c
	}
	copy(k[len(a)+1:], id)
	return k
}

// IndexGame records what the indexes know of a game, changing only what
// differs from what they held.
func (tx *Tx) IndexGame(id string, ix GameIndex) error {
	if tx.spec != nil {
		return tx.specOp(func(tx *Tx) error { return tx.IndexGame(id, ix) })
	}
	raw, err := json.Marshal(ix)
	if err != nil {
		return err
	}
	head, err := createBucket(tx.tx, bGameHead)
	if err != nil {
		return err
	}
	key := []byte(id)
	prev := tx.get1(head, key)
	if bytes.Equal(prev, raw) {
		return nil
	}
	var old GameIndex
	had := prev != nil
	if had {
		if err := json.Unmarshal(prev, &old); err != nil {
			return fmt.Errorf("store: game index %q: %w", id, err)
		}
	}
	if err := head.Put(key, raw); err != nil {
		return err
	}
	if !had || old.Status != ix.Status {
		tx.count(old.Status, ix.Status, had)
		if err := tx.pair(bGameStatus, old.Status, ix.Status, id, had); err != nil {
			return err
		}
	}
	if !had || lowerASCII(old.Organiser) != lowerASCII(ix.Organiser) {
		if err := tx.pair(bGameOrg, old.Organiser, ix.Organiser, id, had); err != nil {
			return err
		}
	}
	if !had || old.Joinable != ix.Joinable {
		if err := tx.join(id, old.Joinable && had, ix.Joinable); err != nil {
			return err
		}
	}
	// A game's few addresses compared as lists, lower-cased (issue 24: two
	// sets a game saved, 10,000 a round of 5,000 games opened).
	oldAddr, newAddr := lowerAll(old.Addresses), lowerAll(ix.Addresses)
	for i, a := range oldAddr {
		if !slices.Contains(oldAddr[:i], a) && !slices.Contains(newAddr, a) {
			if err := tx.pair(bGameAddress, a, "", id, true); err != nil {
				return err
			}
		}
	}
	for i, a := range newAddr {
		if !slices.Contains(newAddr[:i], a) && !slices.Contains(oldAddr, a) {
			if err := tx.pair(bGameAddress, "", a, id, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// lowerAll is addrs lower-cased (lowerASCII), in a new list.
func lowerAll(addrs []string) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = lowerASCII(a)
	}
	return out
}

// pair moves a game's entry in a pair index from old to now ("" none).
func (tx *Tx) pair(bucket []byte, old, now, id string, had bool) error {
	b, err := createBucket(tx.tx, bucket)
	if err != nil {
		return err
	}
	if had && old != "" {
		if err := b.Delete(pairKey(old, id)); err != nil {
			return err
		}
	}
	if now != "" {
		return b.Put(pairKey(now, id), []byte{})
	}
	return nil
}

// join moves a game in or out of games.joinable and its counter.
func (tx *Tx) join(id string, was, is bool) error {
	if was == is {
		return nil
	}
	b, err := createBucket(tx.tx, bGameJoin)
	if err != nil {
		return err
	}
	meta := tx.b(bMeta)
	n := int64(tx.JoinableCount())
	if is {
		n++
		err = b.Put([]byte(id), []byte{})
	} else {
		n--
		err = b.Delete([]byte(id))
	}
	if err != nil {
		return err
	}
	if n <= 0 {
		return meta.Delete(kGameJoin)
	}
	return meta.Put(kGameJoin, u64(uint64(n)))
}

// JoinableCount is the number of games a player may JOIN (the counter
// of games.joinable: no key is read).
func (tx *Tx) JoinableCount() int {
	if v := tx.b(bMeta).Get(kGameJoin); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// JoinableGames calls fn for the games a player may JOIN, in id order,
// until fn returns false.
func (tx *Tx) JoinableGames(fn func(id string) (bool, error)) error {
	b := tx.b(bGameJoin)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if ok, err := fn(string(k)); err != nil || !ok {
			return err
		}
	}
	return nil
}

// count moves one game from status old to status now in the counts: in
// the transaction's pending changes (Tx.counts), which flushCounts writes
// to games.count once, before the commit (issue 24: a round of 5,000 games
// read and wrote the counter 5,000 times). GameCounts adds them in.
func (tx *Tx) count(old, now string, had bool) {
	if tx.counts == nil {
		tx.counts = map[string]int64{}
	}
	if had {
		tx.counts[old]--
	}
	tx.counts[now]++
}

// flushCounts writes the transaction's pending changes of the counts
// (Update and Group call it as fn returns; TestGameCountsKeptAtCommit_Issue24).
func (tx *Tx) flushCounts() error {
	if len(tx.counts) == 0 {
		return nil
	}
	b, err := createBucket(tx.tx, bGameCount)
	if err != nil {
		return err
	}
	for _, status := range slices.Sorted(maps.Keys(tx.counts)) {
		if d := tx.counts[status]; d != 0 {
			if err := putCount(b, status, countIn(b, status)+d); err != nil {
				return err
			}
		}
	}
	tx.counts = nil
	return nil
}

func countIn(b *bolt.Bucket, status string) int64 {
	if b != nil {
		if v := b.Get([]byte(status)); len(v) == 8 {
			return int64(binary.BigEndian.Uint64(v))
		}
	}
	return 0
}

func putCount(b *bolt.Bucket, status string, n int64) error {
	if n <= 0 {
		return b.Delete([]byte(status))
	}
	return b.Put([]byte(status), u64(uint64(n)))
}

// GameIndexOf returns what the indexes know of a game.
func (tx *Tx) GameIndexOf(id string) (GameIndex, bool, error) {
	var ix GameIndex
	b := tx.b(bGameHead)
	if b == nil {
		return ix, false, nil
	}
	ok, err := getJSON(b, []byte(id), &ix)
	return ix, ok, err
}

// scanPairs calls fn for the ids under one value of a pair index.
func (tx *Tx) scanPairs(bucket []byte, value string, fn func(id string) error) error {
	_, err := tx.scanPairsFrom(bucket, value, "", func(id string) (bool, error) { return true, fn(id) })
	return err
}

// scanPairsFrom calls fn for the ids under one value of a pair index from
// the id from on ("" the first), in id order, until fn returns false;
// rest is how many ids fn was not given (the one it declined included),
// counted from the keys alone: no string is made of them.
func (tx *Tx) scanPairsFrom(bucket []byte, value, from string, fn func(id string) (bool, error)) (rest int, err error) {
	b := tx.b(bucket)
	if b == nil {
		return 0, nil
	}
	lower := lowerASCII(value)
	seek := append(append(append(make([]byte, 0, len(lower)+1+len(from)), lower...), 0), from...)
	prefix := seek[:len(lower)+1]
	c := b.Cursor()
	k, _ := c.Seek(seek)
	for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		ok, err := fn(string(k[len(prefix):]))
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		rest++
	}
	return rest, nil
}

// GamesWithStatus calls fn for the games in a status, in id order.
func (tx *Tx) GamesWithStatus(status string, fn func(id string) error) error {
	return tx.scanPairs(bGameStatus, status, fn)
}

// GamesOfAddress calls fn for the games with a seat of the address
// (case-insensitive), in id order.
func (tx *Tx) GamesOfAddress(addr string, fn func(id string) error) error {
	return tx.scanPairs(bGameAddress, addr, fn)
}

// GamesOfOrganiser calls fn for the games an organiser created, in id
// order.
func (tx *Tx) GamesOfOrganiser(org string, fn func(id string) error) error {
	return tx.scanPairs(bGameOrg, org, fn)
}

// GamesOfOrganiserFrom calls fn for the games an organiser created from
// the id from on ("" the first), in id order, until fn returns false; rest
// is how many games past those fn took there are, counted from the index
// keys alone (a page of an organiser's LIST).
func (tx *Tx) GamesOfOrganiserFrom(org, from string, fn func(id string) (bool, error)) (rest int, err error) {
	return tx.scanPairsFrom(bGameOrg, org, from, fn)
}

// GameCounts returns the number of games in each status.
func (tx *Tx) GameCounts() map[string]int {
	out := map[string]int{}
	tx.eachCount(func(status []byte, n int64) { out[string(status)] = int(n) })
	return out
}

// eachCount calls fn with each status's count of games above zero, pending
// changes added in, without a map (issue 24: GameCount, once a new game).
func (tx *Tx) eachCount(fn func(status []byte, n int64)) {
	b := tx.b(bGameCount)
	if b != nil {
		_ = b.ForEach(func(k, v []byte) error {
			if _, pending := tx.counts[string(k)]; !pending && len(v) == 8 {
				fn(k, int64(binary.BigEndian.Uint64(v)))
			}
			return nil
		})
	}
	for status, d := range tx.counts {
		if n := countIn(b, status) + d; n > 0 {
			fn([]byte(status), n)
		}
	}
}

// GameIndexBuilt reports whether the indexes cover every game.
func (tx *Tx) GameIndexBuilt() bool {
	return bytes.Equal(tx.get1(tx.b(bMeta), kGameIndex), gameIndexVersion)
}

// SetGameIndexBuilt records that the indexes cover every game.
func (tx *Tx) SetGameIndexBuilt() error { return tx.b(bMeta).Put(kGameIndex, gameIndexVersion) }

// ForgetGameIndex drops the game indexes, as a store of schema 5 has
// none: the referee builds them again when it opens the store (for tests
// and for an operator who suspects them).
func (tx *Tx) ForgetGameIndex() error {
	tx.widen()
	tx.counts = nil
	for _, b := range gameIndexBuckets() {
		if err := deleteBucket(tx.tx, b); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return err
		}
	}
	if err := tx.b(bMeta).Delete(kGameJoin); err != nil {
		return err
	}
	return tx.b(bMeta).Delete(kGameIndex)
}
