package layout

import bolt "go.etcd.io/bbolt"

// Schema13: 12 -> 13 moves nothing. From 13 a compressed value (a queued
// mail's payload, a log entry, an inbound record, a game's snapshot or
// delta) may be a zstd frame of dictionary 3 (store/codec/codec.go,
// "Dictionaries"), which a referee built before does not hold: it would
// fail to inflate the value mid-work (a delivery failing for good, a
// game not loading), so the version says so and an older referee refuses
// the file at Open (ErrNewerSchema) instead. Every value written before
// 13 still reads: its frame names dictionary 1 or 2, or it is DEFLATE
// (issue 24, TestDictionaryThreeRefusedByAnOlderReferee_Issue24).
func Schema13(*bolt.Tx) error { return nil }
