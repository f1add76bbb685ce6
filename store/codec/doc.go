// Package codec compresses the store's values and reads them back: it
// owns the compressed forms (zstd with a dictionary shipped in the binary,
// zdict/, and raw DEFLATE for older values), the dictionaries (every one
// shipped stays, byte for byte), and the rule of which values are worth
// compressing (SmallValue). Compress, CompressAlways and Decompress work
// after a caller's prefix, which is the store's: which bucket holds a
// value and which prefix says its form are store/'s (writepath.go,
// intake.go, rowform/body.go). It must not know a bucket, a key or a record, nor
// hold per-call coder state: one encoder and one decoder serve every
// goroutine.
//
// # Compression
//
// Which values are compressed, where, and when (codec.go; issues 24
// and 25: compressing and inflating were 13% of the referee bench's CPU
// and 23% of a 5,000-game START's):
//
//   - Compressed, when that is smaller: a queued payload (key id + "z"),
//     a game's delta (kind 0x03) and snapshot (0x03 first), a log entry
//     (0x03 first), an inbound record (0x01 first). A value shorter than
//     128 bytes (SmallValue, issue 24) is kept raw: compressing it cost
//     as much as a value three times its size and saved 13-45 bytes. A
//     snapshot that small and not JSON is kept in a zstd frame holding it
//     stored. Every older value reads as before, whatever its size: its
//     bytes say its form (TestSmallValuesKeptRaw in store/smallvalue_test.go).
//   - The codec: zstd at its fastest level with a dictionary shipped in
//     the binary (zdict/), from 2026-12-07; raw DEFLATE before
//     (compress/flate, then klauspost's flate). The compressed bytes say
//     which: 0xFF first (a DEFLATE block type RFC 1951 reserves, so never
//     a DEFLATE stream's first byte) is a zstd frame without its magic
//     number, whose header names its dictionary; anything else is
//     DEFLATE. Every older value reads as it was written
//     (TestCompressedFormsOldAndNew, TestZstdFormNeverADeflateStream,
//     TestStoreWrittenByMainReads in store/codecforms_test.go: a store of
//     main's forms reads); every
//     dictionary shipped stays, byte for byte
//     (TestDictionariesNeverChange), a new one taking a new id: 2
//     (2026-12-07) is 1 and the reply line in Italian, Dutch and French
//     (TestReplyLineOfEveryLanguageInTheDictionary), shipped as what it
//     adds (zdict/2-extra.txt) and built at load as 1.txt followed by it:
//     no dictionary's bytes are in the tree twice; 3 (2026-12-07, issue
//     24) is 2 and 32 KB trained on a bench's values (zdict/3-extra.txt:
//     a mail in 3,412 bytes where 2 wrote 4,057, 0.6 of a 1 KiB page
//     less; TestDictionaryThreeKeepsEveryLanguageSmaller_Issue24).
//     A store written since cannot be read by a binary from before
//     2026-12-07 (its values fail to inflate: no silent misreading); one
//     written with 3 is of schema 13 (store/layout/schema13.go), which
//     such a binary refuses at Open.
//     Chosen by measurement over a bench store's values
//     (BenchmarkCodecCorpus in store/codec_corpus_test.go; figures in
//     codec.go).
//   - A value is compressed once, when it is put, and never in a write
//     transaction that it can be kept out of: a speculation's Enqueue and
//     PutGame (its delta, or its new snapshot) compress on the snapshot,
//     outside the write lock, and its commit writes the bytes only
//     (TestSpeculationCompressesBeforeTheLock); a caller may pack payloads
//     itself before its transaction (PackBody, Tx.EnqueueBody), on any
//     goroutine, or many at once on every core (PackBodies: the core does
//     so with a unit of work's mails, hundreds in a round opening's batch,
//     whose work cannot be speculated: they are composed in the write
//     transaction, and so compressed in it).
//   - A payload is inflated only where its bytes are read: Tx.Payload,
//     QueueItem, Due, Items, Retired. A delivery's bookkeeping reads the
//     delivery state only, kept in the item's row apart from the bytes:
//     DueRows, Attempt, Retry and Finish neither read nor inflate the
//     payload, and return the item without it. A delivery loop reads the
//     due rows, then the payloads of the items it starts, one inflate per
//     attempt (referee/edge/dispatch).
//   - One zstd encoder and one decoder serve every goroutine, no per-call
//     coder state (TestCompressAllocatesTheValueOnly); DEFLATE's readers,
//     for older values, are kept in a free list the GC does not empty.
package codec
