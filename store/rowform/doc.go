// Package rowform holds the forms of the store's rows that every mail
// writes (issue 24: the store's bytes written per mail): a queued item
// (Item, its binary row: AppendItem, ParseItem), its payload packed
// before the transaction (Body, Pack, PackAll; compressed by store/codec),
// and the intake attempts of one mailbox (Split, Attempts). A row is a few
// varints and strings, a third of the JSON it replaces, so that more rows
// share a leaf of the store's file and a commit writes fewer pages.
//
// It owns those types, byte layouts and their round trip. It must not know
// a bucket, a key prefix or bbolt, nor read or write the store: which
// bucket holds a row, how an older row (JSON, a count alone) is told
// apart and read, and what is kept where are store/'s (store/doc.go, "A
// mail's rows").
package rowform
