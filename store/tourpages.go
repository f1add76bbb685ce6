package store

// Decoded tournaments for the public pages (issue 24: every page of a
// tournament decoded its whole record, 85,000 allocations and 10 MB at
// 5,000 entrants, however little of it the page shows). The pages'
// decoded form of a tournament is kept by the store with the record it
// was decoded from and a digest of the match records laid over it: a
// page finds it while the tournament is still as decoded, compared in
// place (the whole record byte for byte, the match records by digest, as
// TakeDecodedTournament does), and decodes it again otherwise. Unlike
// the write path's (TakeDecodedTournament takes its value out: a unit of
// work changes it), an entry stays, shared by every page read after, so
// its value must never be changed by a reader.

// PageTournaments bounds the tournaments whose pages' decoded form is
// kept (a tournament of 10,000 entrants is tens of MB decoded).
const PageTournaments = 4

// PageTournament returns the decoded form kept for tournament id's
// stored record and match records (KeepPageTournament); ok is false when
// none is kept for them. The value is shared: read it, never change it.
func (tx *Tx) PageTournament(id string) (v any, ok bool) {
	tx.widen()
	if tx.db == nil || tx.db.noDecoded {
		return nil, false
	}
	return tx.keptTour(id, tx.db.pageTours.Peek(id))
}

// KeepPageTournament keeps v, the decoded form of tournament id as this
// transaction reads it (rec: its whole record as read, overlaid with its
// match records as they are now), for the pages read after (v is shared
// from now on: nobody may change it). rec must not change after.
func (tx *Tx) KeepPageTournament(id string, rec []byte, v any) {
	tx.widen()
	if tx.db == nil || tx.db.noDecoded {
		return
	}
	tx.db.pageTours.Put(id, rec, tourKept{matches: tx.matchesDigest(id), v: v})
}
