// Package rowform holds the binary forms of the store's small rows that
// every mail writes (issue 24: the store's bytes written per mail): the
// delivery state of a queued item (Item, AppendItem, ParseItem) and the
// intake attempts of one mailbox (Split, Attempts). Each form is a few
// varints and strings, a fraction of the JSON it replaces, so that more
// rows share a leaf of the store's file and a commit writes fewer pages.
//
// It owns those byte layouts and their round trip. It must not know a
// bucket, a key prefix or bbolt, nor what an item or an attempt is for:
// which bucket holds a row, how an older row (JSON, a count alone) is
// told apart and read, and what is kept where are store/'s (store/doc.go,
// "Rows retired in place").
package rowform
