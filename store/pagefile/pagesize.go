package pagefile

// The page size (issue 25: the store's own disk writes per move within 4x
// of the data the move adds).
//
// bbolt writes whole pages: every leaf a commit changed, every branch
// above it, the leaves of the root that hold the headers of the buckets it
// touched, and a meta page. With the OS page of 4 KiB, a move that adds a
// log entry of a few hundred bytes, a delta and two mails wrote about
// eighteen pages (73 KB, 7-11x the data; BenchmarkWritePerMove). Most of
// those pages were mostly empty or held neighbours that did not change:
// the cost of a page is its size, not what changed in it. A new store is
// therefore made with pages of NewPageSize (1 KiB): a touched leaf, branch
// or meta page costs a quarter, a large value (a blob, a snapshot) spans
// contiguous overflow pages and costs its own size rounded up to 1 KiB,
// not to 4 KiB. Measured (BenchmarkWritePerMove, disk/data, 300 moves):
//
//	              4 KiB   2 KiB   1 KiB
//	brewcrafters   9.31    6.26    4.63
//	dicebrewing   10.80    7.38    5.31
//	fromage        7.36    5.05    3.79
//	heavenale     10.97    7.52    5.59
//
// and a delivery's commit 40-48 KB at 4 KiB, 16 KB at 1 KiB. On a store
// of 20,000 games, where a move lands in the middle of every bucket
// (BenchmarkPageSizeAtScale: a record put, a log entry, a random
// de-duplication key and VERP id, a mail), a move wrote 83 KB at 4 KiB
// and 38 KB at 1 KiB; the trees are a level deeper, yet a move and the
// reads of the next input took 5.0 ms, not 6.1 (load average 37, NoSync),
// and the file is 10% smaller (264 MB, not 294: less of each page empty).
// The daemon at 100,000 live games (referee bench --no-mail --bulk
// --sizes 100000, 200 moves, load average 25): 75.3 KB written per move
// at 4 KiB, 34.8 KB at 1 KiB, file 1.55 GB and 1.36 GB; but the store's
// resident mapping after the moves grew more, 175 MB at 4 KiB and 227 MB
// at 1 KiB (peak RSS 229 and 280 MB): a read of a page of 1 KiB maps the
// OS page of 4 KiB around it, neighbours the read does not need, and the
// trees are a level deeper. That is the price of the smaller pages;
// NewPageSize is the one place to change it.
//
// The page size is fixed when the file is made and kept in its meta page:
// a store made before (4 KiB pages) keeps them, opens and works as before
// (store/pagesize_test.go, TestOldPageSizeStoreOpens); the store's
// Compact rewrites it with pages of NewPageSize. Its Options.PageSize
// makes a new file with another size (the tests of old stores).

// NewPageSize is the page size of a store made by this code.
const NewPageSize = 1024
