package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the version of the bucket layout this code writes.
const SchemaVersion = 8

// Errors.
var (
	// ErrDuplicate: a de-duplication key was already recorded.
	ErrDuplicate = errors.New("store: duplicate")
	// ErrNotFound: no such record.
	ErrNotFound = errors.New("store: not found")
	// ErrNewerSchema: the file was written by a newer version of the referee.
	ErrNewerSchema = errors.New("store: file has a newer schema")
	// ErrLocked: another process holds the file.
	ErrLocked = errors.New("store: file is locked by another process")
)

var (
	bMeta     = []byte("meta")
	bGames    = []byte("games")
	bLog      = []byte("log")
	bInbound  = []byte("inbound")
	bPlayers  = []byte("players")
	bTokens   = []byte("tokens")
	bCursors  = []byte("cursors")
	bRulesets = []byte("rulesets")
	bWake     = []byte("wake")
	bWakeBy   = []byte("wake.by")
	bQuar     = []byte("quarantine")
	bAttempts = []byte("attempts")
	bReplay   = []byte("replay")
	bVERP     = []byte("verp")
	kSchema   = []byte("schema_version")
)

// Queues are the durable work queues.
var Queues = []string{"outbox", "hooks"}

func topBuckets() [][]byte {
	b := [][]byte{bMeta, bGames, bLog, bInbound, bPlayers, bTokens, bCursors, bRulesets, bWake, bWakeBy}
	for _, q := range Queues {
		b = append(b, []byte("queue."+q), []byte("done."+q))
	}
	return b
}

// Options tune Open. The zero value is fine for production.
type Options struct {
	// Timeout bounds the wait for the file lock (default 2 s).
	Timeout time.Duration
	// NoSync skips fsync on commit. For tests and benchmarks only: a crash
	// can lose or corrupt the file.
	NoSync bool
	// InitialMmapSize maps this many bytes of the file from the start
	// (bbolt's option): a commit that grows the file past the map waits
	// for every read transaction to end, so a bench that holds one across
	// commits (BucketRoots) sets it larger than the file will grow.
	InitialMmapSize int
	// NoDecodedCache keeps no decoded records (TakeDecoded always
	// misses): for measuring what the cache saves.
	NoDecodedCache bool
	// Migrations, if set, replaces the built-in migrations (for tests of
	// the migration hook). Migrations[i] moves a file from version i to i+1;
	// version 0 is a brand-new file.
	Migrations []Migration
}

// Migration upgrades the bucket layout by one version, inside the opening
// write transaction.
type Migration func(tx *bolt.Tx) error

// migrations are the built-in migrations. migrations[0] creates a new file.
var migrations = []Migration{
	func(tx *bolt.Tx) error { // 0 -> 1: the first layout
		for _, b := range topBuckets() {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	},
	func(tx *bolt.Tx) error { // 1 -> 2: quarantined inputs
		_, err := tx.CreateBucketIfNotExists(bQuar)
		return err
	},
	func(tx *bolt.Tx) error { // 2 -> 3: an index of each queue by due time
		for _, q := range Queues {
			idx, err := tx.CreateBucketIfNotExists([]byte("due." + q))
			if err != nil {
				return err
			}
			err = tx.Bucket([]byte("queue." + q)).ForEach(func(k, v []byte) error {
				var it Item
				if err := json.Unmarshal(v, &it); err != nil {
					return err
				}
				return idx.Put(dueKey(it.Due, it.ID), nil)
			})
			if err != nil {
				return err
			}
		}
		return nil
	},
	migrateTournaments, // 3 -> 4: tournaments and ratings (tournament.go)
	func(tx *bolt.Tx) error { // 4 -> 5: intake attempts (poison messages), webhook replay tokens, VERP ids
		for _, b := range [][]byte{bAttempts, bReplay, bVERP} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		// The mails already in the outbox keep their bounces: their VERP
		// ids, read from the envelope sender ("<local>+bounce.<id>@..."),
		// are recorded as if they had been queued now.
		verp := tx.Bucket(bVERP)
		for _, name := range []string{"queue.outbox", "done.outbox"} {
			b := tx.Bucket([]byte(name))
			if b == nil {
				continue
			}
			err := b.ForEach(func(_, v []byte) error {
				var it Item
				if json.Unmarshal(v, &it) != nil {
					return nil
				}
				_, rest, ok := strings.Cut(it.Meta["from"], "+bounce.")
				id, _, ok2 := strings.Cut(rest, "@")
				if !ok || !ok2 || id == "" {
					return nil
				}
				return putJSON(verp, []byte(id), VERPRecord{To: lowerASCII(it.To), Key: it.Key, Sent: it.Created})
			})
			if err != nil {
				return err
			}
		}
		return nil
	},
	migrateWritePath, // 5 -> 6: game snapshots and deltas, queue payloads apart (writepath.go)
	migrateBlobs,     // 6 -> 7: large values alone (blob.go)
	migrateSchema8,   // 7 -> 8: one flat log for every game, VERP ids in inbound (flatlog.go)
}

// DB is an open store.
type DB struct {
	bolt *bolt.DB
	path string
	// group gathers the speculations waiting for a commit (spec.go).
	group commitGroup
	// rides are the transports' writes waiting for an input's commit
	// (ride.go).
	rides rides
	// fresh are the queue items enqueued and not attempted (queue.go).
	fresh freshItems
	// decoded keeps the callers' decoded game records (decoded.go).
	decoded   decodedCache
	noDecoded bool
	// walked: the open found no free list on file (the process before
	// did not close the store) and rebuilt it by walking every page
	// (freelist.go).
	walked bool
}

// Open opens (creating if needed) the store at path, waits at most
// Options.Timeout for the file lock, and brings the schema up to date.
func Open(path string, opt *Options) (*DB, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	if o.Timeout == 0 {
		o.Timeout = 2 * time.Second
	}
	b, walked, err := openBolt(path, &o)
	if err != nil {
		return nil, err
	}
	db := &DB{bolt: b, path: path, noDecoded: o.NoDecodedCache, walked: walked}
	migs := migrations
	if o.Migrations != nil {
		migs = o.Migrations
	}
	if err := db.migrate(migs); err != nil {
		b.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) migrate(migs []Migration) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		v := 0
		if m := tx.Bucket(bMeta); m != nil {
			if s := m.Get(kSchema); s != nil {
				n, err := strconv.Atoi(string(s))
				if err != nil {
					return fmt.Errorf("store: bad schema version %q", s)
				}
				v = n
			}
		}
		if v > len(migs) {
			return fmt.Errorf("%w: version %d, this referee knows %d", ErrNewerSchema, v, len(migs))
		}
		for ; v < len(migs); v++ {
			if err := migs[v](tx); err != nil {
				return fmt.Errorf("store: migration %d -> %d: %w", v, v+1, err)
			}
		}
		m, err := tx.CreateBucketIfNotExists(bMeta)
		if err != nil {
			return err
		}
		return m.Put(kSchema, []byte(strconv.Itoa(v)))
	})
}

// Compact rewrites the store at path into a fresh file without the free
// pages that deleted records left (bbolt reuses them but never gives them
// back), and replaces the file with it. The store must not be open
// anywhere (stop the daemon). It returns the sizes before and after.
func Compact(path string) (before, after int64, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	src, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: true})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return 0, 0, fmt.Errorf("%w: %s", ErrLocked, path)
		}
		return 0, 0, fmt.Errorf("store: open %s: %w", path, err)
	}
	tmp := path + ".compact"
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		src.Close()
		return 0, 0, fmt.Errorf("store: create %s: %w", tmp, err)
	}
	err = bolt.Compact(dst, src, 64<<20)
	src.Close()
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return 0, 0, fmt.Errorf("store: compact %s: %w", path, err)
	}
	nst, err := os.Stat(tmp)
	if err != nil {
		return 0, 0, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, 0, err
	}
	return st.Size(), nst.Size(), nil
}

// Path returns the file's path.
func (db *DB) Path() string { return db.path }

// Update runs fn in a write transaction, committed if fn returns nil and
// rolled back otherwise (also if fn panics). Do no network I/O inside it.
func (db *DB) Update(fn func(tx *Tx) error) error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		tx := &Tx{tx: btx, db: db}
		btx.OnCommit(func() { db.group.counted(tx) })
		return fn(tx)
	})
}

// View runs fn in a read-only transaction. Never call View inside Update.
func (db *DB) View(fn func(tx *Tx) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error { return fn(&Tx{tx: btx, db: db}) })
}

// Check verifies the file's internal consistency (bbolt's page checks).
func (db *DB) Check() error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}

// Backup writes a consistent copy of the whole file to w (a hot backup).
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Size returns the file's size in bytes.
func (db *DB) Size() (int64, error) {
	fi, err := os.Stat(db.path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// SchemaVersion returns the file's schema version.
func (db *DB) SchemaVersion() (int, error) {
	var v int
	err := db.View(func(tx *Tx) error {
		n, err := strconv.Atoi(string(tx.tx.Bucket(bMeta).Get(kSchema)))
		v = n
		return err
	})
	return v, err
}

// Tx is a transaction. Values it returns are copies.
type Tx struct {
	tx *bolt.Tx
	db *DB
	// spec is set in a speculation (spec.go).
	spec *Spec
	// data counts the log entries and queue rows written (WriteStats).
	data int64
}

// b returns a bucket for an access a speculation cannot check: it makes
// the speculation wide.
func (tx *Tx) b(name []byte) *bolt.Bucket {
	tx.widen()
	return tx.tx.Bucket(name)
}

// widen marks a speculation as one that cannot commit.
func (tx *Tx) widen() {
	if tx.spec != nil {
		tx.spec.wide = true
	}
}

func u64(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}

func getJSON(b *bolt.Bucket, key []byte, v any) (bool, error) {
	return decodeJSON(b.Get(key), key, v)
}

func decodeJSON(raw, key []byte, v any) (bool, error) {
	if raw == nil {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("store: decode %q: %w", key, err)
	}
	return true, nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, raw)
}

// ---- games ----

// Game returns the record of a game.
func (tx *Tx) Game(id string) ([]byte, error) {
	if tx.spec != nil {
		if rec, ok := tx.spec.games[id]; ok {
			return bytes.Clone(rec), nil
		}
	}
	v := tx.get(bGames, []byte(id))
	if v == nil {
		return nil, fmt.Errorf("%w: game %q", ErrNotFound, id)
	}
	return tx.gameRecord(id, v, tx.get)
}

// GameStamp returns what identifies the stored version of a game's record
// (nil: no such game): two reads with the same stamp read the same record.
// It costs no decoding, so that a cache of decoded games can check itself.
func (tx *Tx) GameStamp(id string) []byte {
	if tx.spec != nil {
		if st, ok := tx.spec.stamps[id]; ok {
			return bytes.Clone(st)
		}
	}
	return bytes.Clone(tx.get(bGames, []byte(id)))
}

// PutGame stores the record of a game: as a small delta against the
// game's last snapshot when that is worth it (writepath.go).
func (tx *Tx) PutGame(id string, rec []byte) error {
	if id == "" {
		return errors.New("store: empty game id")
	}
	val, snap := tx.encodeGame(id, rec)
	if tx.spec != nil {
		return tx.specPutGame(id, rec, val, snap)
	}
	return tx.writeGame(id, val, snap)
}

// HasGame reports whether a game exists.
func (tx *Tx) HasGame(id string) bool { return tx.b(bGames).Get([]byte(id)) != nil }

// Games calls fn for every game, in id order, until fn returns an error.
func (tx *Tx) Games(fn func(id string, rec []byte) error) error {
	return tx.b(bGames).ForEach(func(k, v []byte) error {
		rec, err := tx.gameRecord(string(k), v, tx.getRaw)
		if err != nil {
			return err
		}
		return fn(string(k), rec)
	})
}

// GameIDs calls fn for every game id, in order, without reading the
// records.
func (tx *Tx) GameIDs(fn func(id string) error) error {
	return tx.b(bGames).ForEach(func(k, _ []byte) error { return fn(string(k)) })
}

// GameCount returns the number of games.
func (tx *Tx) GameCount() int { return tx.b(bGames).Stats().KeyN }

// ---- the append-only log ----

// AppendLog appends an entry to a game's log and returns its sequence
// number (from 1).
func (tx *Tx) AppendLog(game string, entry []byte) (uint64, error) {
	if tx.spec != nil {
		return tx.specAppendLog(game, entry)
	}
	b := tx.b(bLogFlat)
	seq := lastLogSeq(b, game) + 1
	tx.data += int64(len(entry))
	return seq, b.Put(logKey(game, seq), entry)
}

// Log calls fn for the game's log entries with sequence >= from, in order,
// until fn returns an error.
func (tx *Tx) Log(game string, from uint64, fn func(seq uint64, entry []byte) error) error {
	var l *specLog
	if tx.spec != nil {
		l = tx.specLog(game)
	}
	prefix := append([]byte(game), 0)
	c := tx.tx.Bucket(bLogFlat).Cursor()
	for k, v := c.Seek(logKey(game, from)); k != nil && len(k) == len(prefix)+8 && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(binary.BigEndian.Uint64(k[len(prefix):]), bytes.Clone(v)); err != nil {
			return err
		}
	}
	if l != nil {
		for i, e := range l.entries {
			if seq := l.base + uint64(i) + 1; seq >= from {
				if err := fn(seq, bytes.Clone(e)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// LogLen returns the sequence number of the game's last log entry (0: empty).
func (tx *Tx) LogLen(game string) uint64 {
	if tx.spec != nil {
		l := tx.specLog(game)
		return l.base + uint64(len(l.entries))
	}
	return tx.logSeq(game)
}

// ---- inbound de-duplication ----

// InboundRecord remembers one processed input.
type InboundRecord struct {
	Keys     []string  `json:"keys"`               // every de-duplication key of the input
	Received time.Time `json:"received"`           // when it was processed
	Source   string    `json:"source,omitempty"`   // "imap", "webhook:mailgun", ...
	From     string    `json:"from,omitempty"`     // sender address
	Game     string    `json:"game,omitempty"`     // the game it concerned
	Seat     int       `json:"seat"`               // the seat, -1 if none
	Outcome  string    `json:"outcome"`            // "applied", "rejected", "ignored:<why>"...
	Detail   string    `json:"detail,omitempty"`   // a short explanation for the operator
	LogSeq   uint64    `json:"log_seq,omitempty"`  // the log entry that recorded it
	Messages []string  `json:"messages,omitempty"` // Message-IDs of the replies queued
}

// Seen returns the record of an input already processed under any of keys.
func (tx *Tx) Seen(keys ...string) (InboundRecord, bool, error) {
	for _, k := range keys {
		var r InboundRecord
		ok, err := decodeJSON(tx.get(bInbound, []byte(k)), []byte(k), &r)
		if err != nil || ok {
			return r, ok, err
		}
	}
	return InboundRecord{}, false, nil
}

// MarkInbound records a processed input under all of rec.Keys. It fails with
// ErrDuplicate if any key is already recorded (and then writes nothing).
func (tx *Tx) MarkInbound(rec InboundRecord) error {
	if len(rec.Keys) == 0 {
		return errors.New("store: inbound record without keys")
	}
	for _, k := range rec.Keys {
		if k == "" || k[0] == 0 {
			return fmt.Errorf("store: inbound key %q: empty or NUL first (the VERP ids' prefix)", k)
		}
	}
	if tx.spec != nil {
		return tx.specOp(func(tx *Tx) error { return tx.MarkInbound(rec) })
	}
	if _, ok, err := tx.Seen(rec.Keys...); err != nil {
		return err
	} else if ok {
		return ErrDuplicate
	}
	b := tx.b(bInbound)
	for _, k := range rec.Keys {
		if err := putJSON(b, []byte(k), rec); err != nil {
			return err
		}
	}
	return tx.ride(rec.Keys)
}

// PruneInbound deletes records received before t (keep them for as long as
// a duplicate may still arrive; weeks, not minutes). It returns the count.
func (tx *Tx) PruneInbound(before time.Time) (int, error) {
	b := tx.b(bInbound)
	var del [][]byte
	err := b.ForEach(func(k, v []byte) error {
		var r InboundRecord
		if k[0] == 0 {
			return nil // a VERP id (verpKey)
		}
		if err := json.Unmarshal(v, &r); err == nil && r.Received.Before(before) {
			del = append(del, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range del {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(del), nil
}

// ---- players and tokens ----

// Player returns a player's record by address (case-insensitive).
func (tx *Tx) Player(addr string) ([]byte, error) {
	v := tx.get(bPlayers, []byte(lowerASCII(addr)))
	if v == nil {
		return nil, fmt.Errorf("%w: player %q", ErrNotFound, addr)
	}
	return bytes.Clone(v), nil
}

// PutPlayer stores a player's record.
func (tx *Tx) PutPlayer(addr string, rec []byte) error {
	return tx.b(bPlayers).Put([]byte(lowerASCII(addr)), rec)
}

// Players calls fn for every player.
func (tx *Tx) Players(fn func(addr string, rec []byte) error) error {
	return tx.b(bPlayers).ForEach(func(k, v []byte) error { return fn(string(k), bytes.Clone(v)) })
}

// Token says whom a secret authenticates.
type Token struct {
	Kind    string    `json:"kind"`           // "seat", "player", "org"
	Game    string    `json:"game,omitempty"` // for seat tokens
	Seat    int       `json:"seat"`           // for seat tokens
	Address string    `json:"address"`        // the registered address
	Created time.Time `json:"created"`
}

// Token returns the token record of a secret.
func (tx *Tx) Token(secret string) (Token, error) {
	var t Token
	ok, err := decodeJSON(tx.get(bTokens, []byte(secret)), []byte(secret), &t)
	if err == nil && !ok {
		err = fmt.Errorf("%w: token", ErrNotFound)
	}
	return t, err
}

// PutToken stores a token; it fails with ErrDuplicate if the secret exists.
func (tx *Tx) PutToken(secret string, t Token) error {
	b := tx.b(bTokens)
	if b.Get([]byte(secret)) != nil {
		return ErrDuplicate
	}
	return putJSON(b, []byte(secret), t)
}

// Tokens calls fn for every token.
func (tx *Tx) Tokens(fn func(secret string, t Token) error) error {
	return tx.b(bTokens).ForEach(func(k, v []byte) error {
		var t Token
		if err := json.Unmarshal(v, &t); err != nil {
			return err
		}
		return fn(string(k), t)
	})
}

// DeleteToken removes a token (a replaced player's secret stops working).
func (tx *Tx) DeleteToken(secret string) error { return tx.b(bTokens).Delete([]byte(secret)) }

// ---- IMAP cursors ----

// Cursor is the intake position in one mailbox.
type Cursor struct {
	UIDValidity uint32 `json:"uidvalidity"`
	LastUID     uint32 `json:"last_uid"`
	// Armed is the hand-overs of the first message after LastUID presumed
	// begun: the IMAP watcher writes 1 with the cursor it moves in the
	// commit of a message, so that the next hand-over needs no commit of
	// its own (an intake attempt on record, see BeginAttemptFrom).
	Armed int `json:"armed,omitempty"`
}

// Cursor returns the position in a mailbox (zero if none yet).
func (tx *Tx) Cursor(mailbox string) (Cursor, error) {
	var c Cursor
	_, err := getJSON(tx.b(bCursors), []byte(mailbox), &c)
	return c, err
}

// PutCursor stores the position in a mailbox.
func (tx *Tx) PutCursor(mailbox string, c Cursor) error {
	return putJSON(tx.b(bCursors), []byte(mailbox), c)
}

// ---- intake attempts ----

// BeginAttempt records that a transport is about to hand over the input
// with this key (for example an IMAP message) and returns how many times it
// has done so without EndAttempt: an input that kills the process is seen
// again after the restart with a higher count, so that the transport can
// quarantine it instead of dying on it forever.
func (tx *Tx) BeginAttempt(key string) (int, error) {
	b := tx.b(bAttempts)
	n := 0
	if v := b.Get([]byte(key)); len(v) == 8 {
		n = int(binary.BigEndian.Uint64(v))
	}
	n++
	return n, b.Put([]byte(key), u64(uint64(n)))
}

// BeginAttemptFrom is BeginAttempt for an input already presumed begun
// floor times (Cursor.Armed): the count becomes max(recorded, floor) + 1.
func (tx *Tx) BeginAttemptFrom(key string, floor int) (int, error) {
	n := max(tx.AttemptCount(key), floor) + 1
	return n, tx.b(bAttempts).Put([]byte(key), u64(uint64(n)))
}

// EndAttempt forgets the attempts of an input that was handled (or
// quarantined).
func (tx *Tx) EndAttempt(key string) error { return tx.b(bAttempts).Delete([]byte(key)) }

// AttemptCount returns the attempts recorded for an input.
func (tx *Tx) AttemptCount(key string) int {
	if v := tx.b(bAttempts).Get([]byte(key)); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// ---- webhook replay tokens ----

// UseReplayToken records a one-time token (a webhook signature's nonce)
// with a value (the Message-ID it came with) until expires. fresh reports
// whether it was new; otherwise prev is the value it was first recorded
// with. Expired tokens are pruned by PruneReplay.
func (tx *Tx) UseReplayToken(token, value string, expires time.Time) (prev string, fresh bool, err error) {
	b := tx.b(bReplay)
	if v := b.Get([]byte(token)); len(v) >= 8 {
		return string(v[8:]), false, nil
	}
	rec := append(u64(uint64(expires.UnixNano())), value...)
	return "", true, b.Put([]byte(token), rec)
}

// PruneReplay deletes the replay tokens expired at now and returns how many.
func (tx *Tx) PruneReplay(now time.Time) (int, error) {
	b := tx.b(bReplay)
	var dead [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if len(v) >= 8 && int64(binary.BigEndian.Uint64(v[:8])) <= now.UnixNano() {
			dead = append(dead, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(dead), nil
}

// ---- VERP bounce ids ----

// VERPRecord is the outbox mail a VERP bounce id names.
type VERPRecord struct {
	To   string    `json:"to"`
	Key  string    `json:"key"`
	Sent time.Time `json:"sent"`
}

// PutVERP records the bounce id of an outgoing mail (the id in its
// envelope sender), so that a bounce can be checked against the mail it
// claims to return.
func (tx *Tx) PutVERP(id string, rec VERPRecord) error {
	if tx.spec != nil {
		return tx.specOp(func(tx *Tx) error { return tx.PutVERP(id, rec) })
	}
	rec.To = lowerASCII(rec.To)
	return putJSON(tx.b(bInbound), verpKey(id), rec)
}

// VERP returns the outgoing mail of a bounce id.
func (tx *Tx) VERP(id string) (VERPRecord, bool, error) {
	var rec VERPRecord
	ok, err := getJSON(tx.b(bInbound), verpKey(id), &rec)
	return rec, ok, err
}

// PruneVERP deletes the bounce ids of mails sent before a time.
func (tx *Tx) PruneVERP(before time.Time) (int, error) {
	b := tx.b(bInbound)
	var dead [][]byte
	c := b.Cursor()
	for k, v := c.Seek(verpPrefix); k != nil && bytes.HasPrefix(k, verpPrefix); k, v = c.Next() {
		var rec VERPRecord
		if json.Unmarshal(v, &rec) != nil || rec.Sent.Before(before) {
			dead = append(dead, bytes.Clone(k))
		}
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(dead), nil
}

// ---- rulesets ----

// PutRuleset stores a ruleset data file under its SHA-256 (hex).
func (tx *Tx) PutRuleset(sha string, data []byte) error {
	return tx.b(bRulesets).Put([]byte(sha), data)
}

// Ruleset returns a stored ruleset data file.
func (tx *Tx) Ruleset(sha string) ([]byte, error) {
	// Rulesets are stored under their SHA-256 and never change: a
	// speculation need not record the read.
	v := tx.tx.Bucket(bRulesets).Get([]byte(sha))
	if v == nil {
		return nil, fmt.Errorf("%w: ruleset %s", ErrNotFound, sha)
	}
	return bytes.Clone(v), nil
}

// ---- quarantine ----

// Quarantined is an input that can never be processed (unparseable mail
// from a webhook, which has no quarantine folder of its own), kept for the
// operator with the reason.
type Quarantined struct {
	ID     uint64    `json:"id"`
	At     time.Time `json:"at"`
	Source string    `json:"source"`
	Reason string    `json:"reason"`
	// Raw is the input, cut at MaxQuarantined bytes.
	Raw       []byte `json:"raw"`
	Truncated bool   `json:"truncated,omitempty"`
}

// MaxQuarantined is the most bytes of an input kept in quarantine.
const MaxQuarantined = 1 << 20

// Quarantine keeps an input that can never be processed.
func (tx *Tx) Quarantine(q Quarantined) (uint64, error) {
	b := tx.b(bQuar)
	id, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	q.ID = id
	if len(q.Raw) > MaxQuarantined {
		q.Raw, q.Truncated = q.Raw[:MaxQuarantined], true
	}
	return id, putJSON(b, u64(id), q)
}

// Quarantined calls fn for every quarantined input, oldest first.
func (tx *Tx) Quarantined(fn func(Quarantined) error) error {
	return tx.b(bQuar).ForEach(func(_, v []byte) error {
		var q Quarantined
		if err := json.Unmarshal(v, &q); err != nil {
			return err
		}
		return fn(q)
	})
}

// ---- wake-ups ----

// SetWake records when a game next needs attention (a deadline, a
// reminder), replacing any earlier wake-up; the zero time removes it.
func (tx *Tx) SetWake(game string, at time.Time) error {
	if tx.spec != nil {
		return tx.specSetWake(game, at)
	}
	by, w := tx.b(bWakeBy), tx.b(bWake)
	if old := by.Get([]byte(game)); old != nil {
		if err := w.Delete(bytes.Clone(old)); err != nil {
			return err
		}
		if err := by.Delete([]byte(game)); err != nil {
			return err
		}
	}
	if at.IsZero() {
		return nil
	}
	key := append(u64(uint64(at.UnixNano())), game...)
	if err := w.Put(key, nil); err != nil {
		return err
	}
	return by.Put([]byte(game), key)
}

// Wake returns when a game next needs attention (zero if never).
func (tx *Tx) Wake(game string) time.Time {
	k := tx.b(bWakeBy).Get([]byte(game))
	if k == nil {
		return time.Time{}
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8])))
}

// DueWakes returns the games whose wake-up is at or before now, earliest
// first (at most limit; 0 means no limit).
func (tx *Tx) DueWakes(now time.Time, limit int) []string {
	var out []string
	c := tx.b(bWake).Cursor()
	end := uint64(now.UnixNano())
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if binary.BigEndian.Uint64(k[:8]) > end || (limit > 0 && len(out) >= limit) {
			break
		}
		out = append(out, string(k[8:]))
	}
	return out
}

// NextWake returns the earliest wake-up of any game.
func (tx *Tx) NextWake() (time.Time, bool) {
	k, _ := tx.b(bWake).Cursor().First()
	if k == nil {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))), true
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
