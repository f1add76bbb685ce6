package layout

import bolt "go.etcd.io/bbolt"

// Schema14: 13 -> 14 moves nothing. From 14 a game's record may hold an
// engine table stored without its prompts (engine.Table.MarshalJSON,
// issue 25: a smaller record a move; engine.LoadTable asks the seats
// again from the state), which a referee built before refuses to load
// ("per-seat lists do not match"): a game would not load mid-work, so
// the version says so and an older referee refuses the file at Open
// (ErrNewerSchema) instead. Every record written before 14 still reads:
// its table's stored prompts are read as they are, and the game's next
// put writes it in the new form (TestOlderRecordReadAndRewritten_Issue25).
// Self-contained: another schema 14 of the same session folds into this
// one with nothing to move.
func Schema14(*bolt.Tx) error { return nil }
