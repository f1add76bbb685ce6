package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pbem-referee/referee/store/kept"
	"github.com/pbem-referee/referee/store/layout"
	"github.com/pbem-referee/referee/store/pagefile"
	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the version of the bucket layout this code writes.
const SchemaVersion = 14

// Errors.
var (
	// ErrDuplicate: a de-duplication key was already recorded.
	ErrDuplicate = errors.New("store: duplicate")
	// ErrNotFound: no such record.
	ErrNotFound = errors.New("store: not found")
	// ErrNewerSchema: the file was written by a newer version of the referee.
	ErrNewerSchema = layout.ErrNewerSchema
	// ErrLocked: another process holds the file.
	ErrLocked = layout.ErrLocked
)

var (
	bMeta     = layout.Meta
	bGames    = []byte("games")
	bLog      = []byte("log")
	bInbound  = []byte("inbound")
	bPlayers  = []byte("players")
	bTokens   = layout.Tokens
	bCursors  = []byte("cursors")
	bRulesets = []byte("rulesets")
	bWake     = layout.Wake
	bWakeBy   = layout.WakeBy
	bQuar     = []byte("quarantine")
	bAttempts = []byte("attempts")
	bReplay   = []byte("replay")
	bVERP     = []byte("verp")
	kSchema   = layout.SchemaKey
)

// Queues are the durable work queues.
var Queues = layout.Queues

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
	// PageSize is the page size of a new file (default NewPageSize); a
	// file that exists keeps the page size it was made with (bbolt reads it
	// from the file's meta page). For tests of stores made before
	// NewPageSize (4 KiB, the OS page).
	PageSize int
	// MappedLimit bounds what the store's file mapping adds to the
	// process's resident memory (Linux): after a transaction that left
	// the process's resident file-backed memory (RssFile + RssShmem)
	// more than this many bytes above where the last trim (or Open) left
	// it, the store drops its mapping's pages from the process; they stay
	// in the kernel's page cache (mapping.go). 0 means
	// DefaultMappedLimit; negative, never.
	MappedLimit int64
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
type Migration = layout.Migration

// migrations are the built-in migrations. migrations[0] creates a new file.
var migrations = []Migration{
	layout.First,      // 0 -> 1: the first layout
	layout.Quarantine, // 1 -> 2: quarantined inputs
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
	migrateWritePath,            // 5 -> 6: game snapshots and deltas, queue payloads apart (writepath.go)
	layout.Blobs,                // 6 -> 7: large values alone (store/layout/blob.go)
	migrateSchema8,              // 7 -> 8: one flat log for every game, VERP ids in inbound (flatlog.go)
	layout.Schema9(indexTokens), // 8 -> 9: payloads in their queues, wake-ups of games in wake (store/layout/schema9.go)
	migrateSchema10,             // 9 -> 10: every bucket but meta in "rest" (store/layout/schema10.go)
	migrateSchema11,             // 10 -> 11: the buckets the frequent commits write back at the top, in one leaf (schema10.go)
	layout.Schema12,             // 11 -> 12: binary rows and grouped attempts (store/rowform): an older referee refuses the file
	layout.Schema13,             // 12 -> 13: values of zstd dictionary 3 (store/codec): an older referee refuses the file
	layout.Schema14,             // 13 -> 14: engine tables without their prompts: an older referee refuses the file
}

// DB is an open store.
type DB struct {
	bolt *bolt.DB
	path string
	// group gathers the speculations waiting for a commit (spec.go,
	// store/group).
	group commitGroup
	// rides are the transports' writes waiting for an input's commit
	// (ride.go).
	rides rides
	// fresh are the queue items enqueued and not attempted (queue.go).
	fresh freshItems
	// queued are the calls made when a commit enqueued items (OnQueued).
	queued queuedHooks
	// decoded keeps the callers' decoded game records (decoded.go).
	decoded kept.Cache
	// snaps keeps the last snapshots inflated (snapcache.go).
	snaps     snapCache
	noDecoded bool
	// tours keeps the decoded tournaments of a round opening in batches
	// (tournament.go: TakeDecodedTournament).
	tours kept.Cache
	// pageTours keeps the decoded tournaments the public pages read
	// (tourpages.go: PageTournament), shared by the pages, never changed.
	pageTours kept.Cache
	// walked: the open found no free list on file (the process before
	// did not close the store) and rebuilt it by walking every page
	// (freelist.go).
	walked bool
	// mapped keeps the mapping's resident pages under
	// Options.MappedLimit (mapping.go).
	mapped *pagefile.Mapping
	// census counts the pages each commit writes while it runs
	// (census.go); headerMerges the top level merged back into one leaf,
	// mergeFailed a merge failed (none tried again), merging one runs,
	// restHeld Open found a top bucket in rest (headers.go).
	census                pageCensus
	headerMerges          atomic.Int64
	mergeFailed, restHeld atomic.Bool
	merging               sync.Mutex
	// oldWakes: "wake" held keys of the older form at the open (wake.go);
	// stale the set of stale wake-up keys (wakeset.go), staleReading, in
	// tests, runs while a build of it reads.
	oldWakes     bool
	stale        staleSet
	staleReading func()
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
	if o.PageSize == 0 {
		o.PageSize = NewPageSize
	}
	b, walked, err := layout.Open(path, bolt.Options{Timeout: o.Timeout, NoSync: o.NoSync, InitialMmapSize: o.InitialMmapSize, PageSize: o.PageSize})
	if err != nil {
		return nil, err
	}
	if o.MappedLimit == 0 {
		o.MappedLimit = DefaultMappedLimit
	}
	db := &DB{bolt: b, path: path, noDecoded: o.NoDecodedCache, walked: walked, mapped: pagefile.New(o.MappedLimit),
		pageTours: kept.Cache{Size: PageTournaments}}
	db.group.Write, db.group.After = db.writeGroup, db.trimAfter
	migs := migrations
	if o.Migrations != nil {
		migs = o.Migrations
	}
	if err := layout.Migrate(b, migs); err != nil {
		b.Close()
		return nil, err
	}
	db.View(func(tx *Tx) error {
		db.oldWakes = tx.hasOldWakes()
		db.restHeld.Store(topInRest(tx.tx))
		return nil
	})
	return db, nil
}

// Compact rewrites the store at path into a fresh file without the free
// pages that deleted records left (bbolt reuses them but never gives them
// back), and replaces the file with it. The store must not be open
// anywhere (stop the daemon). It returns the sizes before and after.
func Compact(path string) (before, after int64, err error) { return layout.Compact(path, NewPageSize) }

// Path returns the file's path.
func (db *DB) Path() string { return db.path }

// Update runs fn in a write transaction, committed if fn returns nil and
// rolled back otherwise (also if fn panics). Do no network I/O inside it.
func (db *DB) Update(fn func(tx *Tx) error) error {
	defer db.trimAfter()
	return db.commit(func(btx *bolt.Tx) error {
		tx := db.writeTx(btx)
		if err := fn(tx); err != nil {
			return err
		}
		if err := tx.flushCounts(); err != nil || tx.dropStale.IsZero() {
			return err
		}
		_, err := tx.DropStaleWakes(tx.dropStale)
		return err
	})
}

// View runs fn in a read-only transaction. Never call View inside Update.
func (db *DB) View(fn func(tx *Tx) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		defer trimIn(db.mapped, btx)
		return fn(&Tx{tx: btx, db: db})
	})
}

// Check verifies the file's internal consistency (bbolt's page checks).
func (db *DB) Check() error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		defer trimIn(db.mapped, tx)
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
		n, err := strconv.Atoi(string(tx.bucket(bMeta).Get(kSchema)))
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
	// counts are games.count's changes not yet written (flushCounts).
	counts map[string]int64
	// data counts the log entries and queue rows written (WriteStats).
	data int64
	// logs are the last log numbers of the games AppendLog wrote to.
	logs map[string]uint64
	// told are the queues whose OnQueued calls this transaction's commit
	// makes (each once).
	told []string
	// dropStale: drop the stale wake-up keys at or before it as the
	// transaction commits (DropStaleWakesAtCommit).
	dropStale time.Time
	// staleChanged are the keys of "wake" this transaction made stale
	// (true) or live or deleted (false): the set's (wakeset.go).
	staleChanged map[string]bool
	// cursors are the read cursors of the buckets read through get1.
	cursors map[*bolt.Bucket]*bolt.Cursor
}

// b returns a bucket for an access a speculation cannot check: it makes
// the speculation wide.
func (tx *Tx) b(name []byte) *bolt.Bucket {
	tx.widen()
	return tx.bucket(name)
}

// widen marks a speculation as one that cannot commit.
func (tx *Tx) widen() {
	if tx.spec != nil {
		tx.spec.wide = true
	}
}

func u64(n uint64) []byte { return layout.U64(n) }

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

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s // already lower case: no copy (issue 24: every key of a player or an address)
}
