// Package pagefile reads the store's bbolt file page by page and keeps
// the process's resident share of it bounded. It owns which bucket's
// tree holds each page (File.Owners, File.Reading), which pages commits
// wrote (Added, Written, Census), the page size of a new store and why
// (NewPageSize), and the trim of the file's mapping (Mapping). It reads
// the file's pages itself (bbolt's on-disk form: meta, branch and leaf
// pages), never through bbolt, and knows no bucket but the one whose tree
// holds headers (File.Rest). The store (store/census.go,
// store/mapping.go) runs it: diagnostics for benches and tests, and the
// mapping's trim after a transaction. It must not know what a record
// holds, nor write the file.
//
// # Where a player mail's pages go
//
// DB.StartPageCensus counts the pages every commit writes, per top-level
// bucket and kind, until the store closes (census.go: it walks each
// commit's new nodes only; exact, TestPageCensusCountsEveryPageWritten_Issue25
// in store/census_test.go); the bench's mail runs report it per player
// mail with --pages (Throughput.PagesPerInput). Measured (2026-12-07,
// referee bench --sizes none --pages, 630 player mails, 0.78 commits a
// mail): 24.3 pages a mail, 24.9 KB: the queue 7.2 (payloads 4.7 of
// blobs, rows and branches 2.5), inbound 5.4 (leaves 2.7: an input's
// record under each of its keys, "msgid:" and the IMAP UID's, each at its
// own place, and the VERP ids beside the first), log.flat 4.3,
// done.outbox 2.4, the headers 2.2 (their tree a branch of leaves in a new
// store: small buckets inline in it), attempts 1.2, meta 0.8, games.snap
// 0.8; the echo's run 16.2 (inbound 5.3, queue.outbox 5.2). Two cuts
// followed: inbound's nodes split in halves (the store's inboundFill: its
// keys are digests), and the top level merged back into one leaf after a
// new store's small buckets split it; see store/doc.go, "The top level
// kept one leaf".
//
// # Memory
//
// The file is read through bbolt's one read-only shared mapping, and a
// page read stays mapped, so the resident memory the store causes is
// file-backed (the kernel's RssFile), not heap. On Linux the store keeps
// it bounded: after a transaction, when the process's resident
// file-backed memory has grown by more than the store's
// Options.MappedLimit (default DefaultMappedLimit, 128 MiB) since the last
// trim or Open, it drops its mapping's pages from the process
// (MADV_DONTNEED, mapping.go; the store's DB.MapTrims counts the trims).
// The pages stay in the kernel's page cache, shared, clean and
// reclaimable: a later read maps them back with a minor fault, no disk
// read. So the store's share of the resident memory stays under the
// limit plus the pages of the transactions since the measure was last
// read, whatever the size of the file
// (TestMappedLimitBoundsResidentFile_Issue25 in store/mapping_test.go).
// The measure is read after one transaction in up to 32 (one per 4 MiB
// of the limit), or after any once 20 ms passed since the last reading
// (TestStatmReadEveryFewTransactions_Issue25); the page cache is the
// kernel's to keep or drop. Elsewhere than Linux the mapping is not
// trimmed: the resident memory is then the kernel's choice, up to the
// size of the file.
package pagefile
