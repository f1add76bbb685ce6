package store

import bolt "go.etcd.io/bbolt"

// The top level's one leaf, kept (issue 25; store/doc.go "The top level
// kept one leaf"): after a commit that found the top level a branch whose
// headers fit in a page (mergeHeadersDue), the store merges it back into
// one leaf as the migrations to schema 11 did: every top bucket into rest
// in one commit (the top level, left with meta and rest, merges), then
// back in another (bbolt's MoveBucket moves a bucket as last committed).
// DB.HeaderMerges counts the merges (TestTopLevelMergedBackIntoOneLeaf_Issue25).

// HeaderMerges returns how many times the store merged the top level back
// into one leaf since it was opened.
func (db *DB) HeaderMerges() int64 { return db.headerMerges.Load() }

// mergeHeadersDue reports whether the top level, as last committed, is a
// branch whose headers fit in seven eighths of a page, or a top bucket is
// in rest (found at Open: restHeld). A top level of one leaf, the rule
// once merged, costs a look at its root page (issue 25: rest's headers
// were walked every commit).
func (db *DB) mergeHeadersDue(tx *bolt.Tx) bool {
	if db.restHeld.Load() {
		return true
	}
	root := tx.Cursor().Bucket()
	if p, err := tx.Page(int(root.Root())); err != nil || p == nil || p.Type != "branch" {
		return false
	}
	// A leaf's header, and per bucket an element, its name, its header
	// and, inline, its page.
	size := 16
	err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		size += 16 + len(name) + 16
		if b.Root() == 0 {
			size += b.Stats().InlineBucketInuse
		}
		return nil
	})
	return err == nil && size <= tx.DB().Info().PageSize*7/8
}

// topInRest reports whether a top bucket is in rest (a crash between the
// two commits of a merge, or of the migration to schema 11): Open's.
func topInRest(tx *bolt.Tx) bool {
	due := false
	if rest := tx.Bucket(bRest); rest != nil {
		_ = rest.ForEachBucket(func(name []byte) error {
			due = due || topBucket(name)
			return nil
		})
	}
	return due
}

// mergeHeaders merges the top level back into one leaf (above): two
// commits, counted in WriteStats and by a census that runs (update), each
// handed to the set of stale wake-up keys with no change (wakeset.go: a
// commit it never hears of would leave it behind).
func (db *DB) mergeHeaders() error {
	for _, step := range []func(*bolt.Tx) error{migrateSchema10, migrateSchema11} {
		if err := db.update(func(btx *bolt.Tx) error {
			id := uint64(btx.ID())
			btx.OnCommit(func() {
				db.group.commits.Add(1)
				db.stale.committed(id, nil) // wake's keys unchanged: the set goes on
			})
			return step(btx)
		}); err != nil {
			return err
		}
	}
	db.restHeld.Store(false)
	db.headerMerges.Add(1)
	return nil
}
