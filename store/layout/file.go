package layout

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The file: its opening, its schema version, its compaction.

var (
	// ErrNewerSchema: the file was written by a newer version of the referee.
	ErrNewerSchema = errors.New("store: file has a newer schema")
	// ErrLocked: another process holds the file.
	ErrLocked = errors.New("store: file is locked by another process")
)

// The buckets' names the migrations and the store share, and meta's key
// of the schema version.
var (
	Meta      = []byte("meta")
	SchemaKey = []byte("schema_version")
	Tokens    = []byte("tokens")
	Wake      = []byte("wake")
	WakeBy    = []byte("wake.by")
	GameSnap  = []byte("games.snap")
)

// Queues are the store's durable work queues (store.Queues).
var Queues = []string{"outbox", "hooks"}

// BodyBucket is the bucket of a queue's payloads up to schema 8.
func BodyBucket(q string) []byte { return []byte("body." + q) }

// A Migration upgrades the bucket layout by one version, inside the
// opening write transaction.
type Migration func(tx *bolt.Tx) error

// First is the migration 0 -> 1: the first layout.
func First(tx *bolt.Tx) error {
	b := [][]byte{Meta, []byte("games"), []byte("log"), []byte("inbound"), []byte("players"), Tokens,
		[]byte("cursors"), []byte("rulesets"), Wake, WakeBy}
	for _, q := range Queues {
		b = append(b, []byte("queue."+q), []byte("done."+q))
	}
	for _, b := range b {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

// Quarantine is the migration 1 -> 2: quarantined inputs.
func Quarantine(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists([]byte("quarantine"))
	return err
}

// Migrate brings the file's schema to len(migs): migs[i] moves a file
// from version i to i+1 (version 0 is a brand-new file).
func Migrate(db *bolt.DB, migs []Migration) error {
	// A file up to date is only read: Open commits nothing, and a Close
	// after reads only writes nothing either (Open).
	current := false
	_ = db.View(func(tx *bolt.Tx) error {
		if m := tx.Bucket(Meta); m != nil {
			current = string(m.Get(SchemaKey)) == strconv.Itoa(len(migs))
		}
		return nil
	})
	if current {
		return nil
	}
	// Each migration in a transaction of its own, with the version it
	// reaches: a bucket moved (bbolt's MoveBucket, schema10.go) is moved
	// as last committed, without the changes of its transaction.
	for done := false; !done; {
		err := db.Update(func(tx *bolt.Tx) error {
			v := 0
			if m := tx.Bucket(Meta); m != nil {
				if s := m.Get(SchemaKey); s != nil {
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
			if v == len(migs) {
				done = true
				return nil
			}
			if err := migs[v](tx); err != nil {
				return fmt.Errorf("store: migration %d -> %d: %w", v, v+1, err)
			}
			m, err := tx.CreateBucketIfNotExists(Meta)
			if err != nil {
				return err
			}
			return m.Put(SchemaKey, []byte(strconv.Itoa(v+1)))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Compact rewrites the file at path into a fresh one, with pages of
// pageSize, without the free pages that deleted records left (bbolt
// reuses them but never gives them back), and replaces the file with it.
// It returns the sizes before and after.
func Compact(path string, pageSize int) (before, after int64, err error) {
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
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: 2 * time.Second, PageSize: pageSize})
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
