// Package tourrec is a tournament's record in the store, for the
// tournament desk (package bymail): read (Load, LoadShaped; ForPage for
// the public pages, shared with the store's decoded copy; TakeDecoded and
// KeepDecoded between the batches of a round opening), the tournaments of
// one unit of work kept decoded (Kept) and written once at its end
// (Kept.Flush: whole, or as the records of the matches that changed),
// and where a record's matches are in its bytes (MatchSpans, Shape).
//
// It owns how a tournament's record is read, kept and written: the whole
// record and its match records, their overlay, the comparison that
// decides what a unit of work writes, and the tournament's wake entry
// (WakePrefix). It must not touch anything but the Records it is handed
// (no game, mail, word or clock of its own: the time comes as an
// argument), nor decide anything of a tournament (package tournament's
// rules, package bymail's commands and rounds); it keeps no state between
// calls but what the store keeps decoded for it. Its tests are package
// bymail's, which run it through the desk (kept_test.go, records_test.go,
// records_batch_test.go, batchrecords_test.go, spans_test.go).
//
// Kept reads how a tournament was off the bytes it was decoded from
// (Shape, spans.go), never by encoding it again at its load, and Flush
// encodes it once, to compare and to write. The batches of a round
// opening decode their tournament once: each batch's unit of work keeps
// it decoded for the next (store.Tx.KeepDecodedTournament), which takes
// it while the whole record is still the one stored and the match records
// the ones there were at the keeping (a digest of them: the batch's own),
// and decodes the record otherwise (bymail's TestRoundOpeningDecodesOnce,
// TestRoundOpeningBatchesTakeTheirMatchRecords).
//
// The tournament's record (issues 24 and 25: the write path writes only
// what changed; records.go, kept.go): a tournament is its whole record in
// the store overlaid with its match records. A unit of work whose
// tournament changed only in its matches (a game's result as it ends, an
// adjudication, a forfeit, a correction of a result, the ratings kept
// with a match) writes each changed match's record alone, not the whole
// record; any other change (a round drawn or closed, an entrant, a
// setting, the status, a swap) writes the whole record, and the store
// deletes its match records then (the fold). Kept notes how each
// tournament was loaded and Flush compares: what differs decides, not
// the command, so a change forgotten here costs a whole record, never a
// lost change. A match record applies to the match it names when it
// still plays the same game at the same table, or when that match has no
// game yet in the whole record and the record has its table and seats
// (it gained its game: sameMatch); else it is stale, left out, and
// deleted by the next fold. So a match that gains its game (a batch of a
// round opening: the middle batches of a 5,000-game START wrote the
// whole record each) is written as its match record, and one that
// changes game, table or seats is written whole
// (TestMatchGainingItsGameIsAMatchRecord). A batch's match records commit
// with its games and mails or not at all (one transaction), so a stop or
// a failed batch leaves no match naming a game that was not opened; a
// store written before this rule (games given in whole records) reads as
// before. Applying one twice is applying it once. The wake entry is
// written when it moves. One unit of work is known without comparing: a
// later batch of a round opening whose unit of work loaded the
// tournament itself (OpenDue) changes nothing but its matches' games, so
// Flush encodes those matches alone, not the whole record of 10,000
// entrants (writeBatch; issue 24), and writes what the comparison would;
// anything else in that unit of work that finds the tournament (Kept.Get)
// drops the note, and the whole record is compared as for any change
// (TestBatchRecordsAsCompared_Issue24).
package tourrec
