package layout

import bolt "go.etcd.io/bbolt"

// Schema12: 11 -> 12 moves nothing. From 12 a queue's rows may be in the
// binary form of store/rowform, a mailbox's intake attempts grouped in
// one row a stem, and an input's other keys in inbound a pointer to its
// one record; a referee built before reads none of them (a decode error
// at the first such row, mid-work), so the version says so and an older
// referee refuses the file at Open (ErrNewerSchema) instead. Every form
// written before 12 is still read (issue 24, TestBinaryRowsRefusedByAnOlderReferee_Issue24).
func Schema12(*bolt.Tx) error { return nil }
