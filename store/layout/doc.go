// Package layout is the store's bbolt file below the store's API: its
// opening (the free list kept on file, freelist.go), its schema version
// and the migrations of the older schemas that need no record of the
// store's (Migrate; the store lists them all: store/store.go), where each
// bucket is kept (the top level or "rest", schema10.go), large values kept
// alone (blobs, blob.go), the keys the migrations and the store share
// (schema9.go), and the compaction of the file.
//
// It owns those shapes; the buckets, their keys and values are listed in
// store/doc.go, and the store (its only importer) calls these helpers by
// its own names (store/buckets.go). It must not know a record, a queue's
// item or a transaction of the store's (Tx): a migration that reads one
// is the store's (store/flatlog.go, writepath.go, tournament.go), or is
// given what reads it (Schema9's index of the tokens). It imports bbolt,
// as a sub-package of the store may (store/doc.go).
package layout
