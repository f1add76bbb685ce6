package tourrec

// A tournament's record in the store: the whole record and its match
// records (issues 24 and 25: the write path writes only what changed; see
// package bymail's doc.go, "The tournament's record").

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// Overlay puts the match records of t (not yet folded into its record) on
// t: each replaces the match it names when that match plays the same game
// at the same table, or has no game yet in the whole record and the
// record has the same table and seats (the match gained its game in a
// batch of a round opening: sameMatch). A record that names a match the
// whole record does not have, another game, table or seats, is stale (a
// whole record written after it should have deleted it): it is left out,
// and the next whole record deletes it. Overlaying twice is overlaying
// once.
func Overlay(rec Records, t *tournament.Tournament) (map[[2]int][]byte, error) {
	var over map[[2]int][]byte
	err := rec.TournamentMatches(t.ID, func(r, k int, raw []byte) error {
		if r >= len(t.Rounds) || k >= len(t.Rounds[r].Matches) {
			return nil
		}
		var m tournament.Match
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("tournament %s round %d match %d: %w", t.ID, r+1, k+1, err)
		}
		if old := &t.Rounds[r].Matches[k]; sameMatch(old, &m) {
			*old = m
			if over == nil {
				over = map[[2]int][]byte{}
			}
			over[[2]int{r, k}] = raw
		}
		return nil
	})
	return over, err
}

// sameMatch reports whether now, a match's record, is the match was of
// the whole record: the same table, and the same game, or none in was yet
// and the same seats in both (now gained its game).
func sameMatch(was, now *tournament.Match) bool {
	if was.Table != now.Table {
		return false
	}
	if was.GameID == "" && now.GameID != "" {
		return slices.Equal(was.Seats, now.Seats)
	}
	return was.GameID == now.GameID
}

// Shape is how a tournament's record reads: its bytes (the whole record
// as json.Marshal writes it) and where each match is in them, by round
// (MatchSpans), with the game and table of each. Two tournaments whose
// shapes have equal bytes outside the matches (the shell) and equal
// matches have equal records. Issue 24: a Shape is read off bytes
// already there (the record as loaded, the record Flush encodes anyway),
// never encoded for itself: a tournament loaded by a unit of work used to
// be encoded once more, match by match, only to be compared at Flush.
type Shape struct {
	// stored is the whole record as stored, under the match records:
	// raw itself when the tournament was loaded from it or written
	// whole, the record loaded before when only match records were
	// written (the stamp its decoded form is kept by: keepDecoded).
	stored []byte
	raw    []byte
	spans  [][]Span
	// matches are each match's bytes as loaded: a slice of raw, or the
	// match record laid over it (Overlay).
	matches [][][]byte
	games   [][]gameAt
	// Done is what the desk computed from the tournament as this shape
	// holds it, kept with it: the standings of the rounds before the
	// last, as the round mails of its opening show them (bymail's
	// roundMails, issue 24), computed by a later batch of the opening
	// that loaded the tournament itself (OpenDue), carried to the next
	// with the tournament kept decoded (writeBatch: that unit of work
	// changed nothing but its matches' games), so an opening of 20
	// batches computes them twice, not 20 times. Any other write leaves
	// it behind (a new Shape).
	Done any
}

// Span is a match's [From, To) in a record's bytes.
type Span struct{ From, To int }

// gameAt is a match's game, table and seats as loaded.
type gameAt struct {
	id    string
	table int
	seats []int
}

// ShapeOf reads the Shape of raw, the record t was decoded from (or
// encoded to); over are the match records laid over it, by round and
// match (Overlay). It is nil when raw does not read as json.Marshal
// writes a tournament: such a tournament is written whole.
func ShapeOf(raw []byte, t *tournament.Tournament, over map[[2]int][]byte) *Shape {
	spans, ok := MatchSpans(raw)
	if !ok || len(spans) != len(t.Rounds) {
		return nil
	}
	s := &Shape{stored: raw, raw: raw, spans: spans, matches: make([][][]byte, len(spans)), games: make([][]gameAt, len(spans))}
	for r, rs := range spans {
		if len(rs) != len(t.Rounds[r].Matches) {
			return nil
		}
		s.matches[r] = make([][]byte, len(rs))
		s.games[r] = make([]gameAt, len(rs))
		for k, sp := range rs {
			s.matches[r][k] = raw[sp.From:sp.To]
			if b, ok := over[[2]int{r, k}]; ok {
				s.matches[r][k] = b
			}
			m := &t.Rounds[r].Matches[k]
			s.games[r][k] = gameAt{m.GameID, m.Table, nil}
			if m.GameID == "" { // its seats say whether a game it gains is its own
				s.games[r][k].seats = slices.Clone(m.Seats)
			}
		}
	}
	return s
}

// changedMatches are the matches of now that differ from base, by round
// and index; ok is false when anything else differs (the shell, the
// number of rounds or of a round's matches): then only a whole record
// says what changed.
func changedMatches(base, now *Shape) (changed [][2]int, ok bool) {
	if len(base.spans) != len(now.spans) {
		return nil, false
	}
	bi, ni := 0, 0 // where the shell goes on in each record
	for r := range now.spans {
		if len(base.spans[r]) != len(now.spans[r]) {
			return nil, false
		}
		for k, nsp := range now.spans[r] {
			bsp := base.spans[r][k]
			if !bytes.Equal(base.raw[bi:bsp.From], now.raw[ni:nsp.From]) {
				return nil, false
			}
			bi, ni = bsp.To, nsp.To
			if !bytes.Equal(base.matches[r][k], now.raw[nsp.From:nsp.To]) {
				changed = append(changed, [2]int{r, k})
			}
		}
	}
	if !bytes.Equal(base.raw[bi:], now.raw[ni:]) {
		return nil, false
	}
	return changed, true
}

// writeMatches writes t as match records when only matches changed since
// base (t as loaded from the store): each changed match's record, and the
// wake entry when it moved. now is t's Shape, read off its whole record
// as encoded. It reports false, having written nothing, when t must be
// written whole.
func writeMatches(rec Records, t *tournament.Tournament, base, cur *Shape, now time.Time) (bool, error) {
	changed, ok := changedMatches(base, cur)
	if !ok {
		return false, nil
	}
	// A match that changed game, table or seats would be stale to
	// overlay: only a whole record says so. One that gained its game (a
	// batch of a round opening) at its table and seats is a match record
	// (Overlay: sameMatch).
	for _, c := range changed {
		was := base.games[c[0]][c[1]]
		if !sameMatch(&tournament.Match{GameID: was.id, Table: was.table, Seats: was.seats}, &t.Rounds[c[0]].Matches[c[1]]) {
			return false, nil
		}
	}
	for _, c := range changed {
		sp := cur.spans[c[0]][c[1]]
		if err := rec.PutTournamentMatch(t.ID, c[0], c[1], bytes.Clone(cur.raw[sp.From:sp.To])); err != nil {
			return true, err
		}
	}
	key := WakePrefix + t.ID
	if at := t.Wake(now); !at.Equal(rec.Wake(key)) {
		return true, rec.SetWake(key, at)
	}
	return true, nil
}

// BatchRecords: Flush writes a later batch of a round opening from its
// matches alone (writeBatch); false only in a test (bymail's
// TestBatchRecordsAsCompared_Issue24), the whole record is encoded and
// compared as for any change.
var BatchRecords = true

// writeBatch writes t, a later batch b of a round opening whose unit of
// work changed nothing else (Kept.NoteBatch), as the records of the
// batch's matches that changed since base (t as loaded), each encoded
// alone (issue 24: each batch of a 5,000-game START encoded the whole
// record, 10,000 entrants, to find the 250 matches it changed); they are
// the bytes the whole record's encoding has for them, so what is written
// is what writeMatches writes. It keeps t decoded for the next batch with
// its Shape (base's, those matches replaced). It reports false, having
// written nothing, when the shapes do not fit or a match changed its
// game, table or seats: then the whole record is compared, as for any
// change.
func writeBatch(rec Records, t *tournament.Tournament, base *Shape, b Batch, now time.Time) (bool, error) {
	r := b.R
	if len(base.spans) != len(t.Rounds) || r >= len(t.Rounds) || len(base.spans[r]) != len(t.Rounds[r].Matches) ||
		b.From < 0 || b.To > len(t.Rounds[r].Matches) {
		return false, nil
	}
	cur := &Shape{stored: base.stored, raw: base.raw, spans: base.spans, matches: slices.Clone(base.matches), games: slices.Clone(base.games),
		Done: base.Done}
	cur.matches[r], cur.games[r] = slices.Clone(base.matches[r]), slices.Clone(base.games[r])
	var changed []int
	for k := b.From; k < b.To; k++ {
		m := &t.Rounds[r].Matches[k]
		raw, err := json.Marshal(m)
		if err != nil {
			return false, err
		}
		if bytes.Equal(raw, base.matches[r][k]) {
			continue
		}
		was := base.games[r][k]
		if !sameMatch(&tournament.Match{GameID: was.id, Table: was.table, Seats: was.seats}, m) {
			return false, nil
		}
		changed = append(changed, k)
		cur.matches[r][k], cur.games[r][k] = raw, gameAt{m.GameID, m.Table, nil}
		if m.GameID == "" {
			cur.games[r][k].seats = slices.Clone(m.Seats)
		}
	}
	for _, k := range changed {
		if err := rec.PutTournamentMatch(t.ID, r, k, cur.matches[r][k]); err != nil {
			return true, err
		}
	}
	key := WakePrefix + t.ID
	if at := t.Wake(now); !at.Equal(rec.Wake(key)) {
		if err := rec.SetWake(key, at); err != nil {
			return true, err
		}
	}
	if t.Opening && base.stored != nil {
		return true, KeepDecoded(rec, t, cur)
	}
	return true, nil
}
