package bymail

// A tournament's record in the store: the whole record and its match
// records (issues 24 and 25: the write path writes only what changed; see
// doc.go, "The tournament's record").

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
)

// overlay puts the match records of t (not yet folded into its record) on
// t: each replaces the match it names when that match plays the same game
// at the same table. A record that names a match the whole record does
// not have, or another game, is stale (a whole record written after it
// should have deleted it): it is left out, and the next whole record
// deletes it. Overlaying twice is overlaying once.
func overlay(rec Records, t *tournament.Tournament) error {
	return rec.TournamentMatches(t.ID, func(r, k int, raw []byte) error {
		if r >= len(t.Rounds) || k >= len(t.Rounds[r].Matches) {
			return nil
		}
		var m tournament.Match
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("tournament %s round %d match %d: %w", t.ID, r+1, k+1, err)
		}
		if old := &t.Rounds[r].Matches[k]; m.GameID == old.GameID && m.Table == old.Table {
			*old = m
		}
		return nil
	})
}

// shape is a tournament encoded in parts: the whole record but its
// matches (shell, with every round's matches left out) and every match by
// round. Two tournaments with equal shapes have equal records.
type shape struct {
	shell   []byte
	matches [][][]byte
}

func shapeOf(t *tournament.Tournament) (*shape, error) {
	c := *t
	c.Rounds = make([]tournament.Round, len(t.Rounds))
	s := &shape{matches: make([][][]byte, len(t.Rounds))}
	for r, rd := range t.Rounds {
		c.Rounds[r] = rd
		c.Rounds[r].Matches = nil
		s.matches[r] = make([][]byte, len(rd.Matches))
		for k := range rd.Matches {
			raw, err := json.Marshal(&rd.Matches[k])
			if err != nil {
				return nil, err
			}
			s.matches[r][k] = raw
		}
	}
	shell, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	s.shell = shell
	return s, nil
}

// changedMatches are the matches of now that differ from base, by round
// and index; ok is false when anything else differs (the shell, the
// number of rounds or of a round's matches): then only a whole record
// says what changed.
func changedMatches(base, now *shape) (changed [][2]int, ok bool) {
	if !bytes.Equal(base.shell, now.shell) || len(base.matches) != len(now.matches) {
		return nil, false
	}
	for r := range now.matches {
		if len(base.matches[r]) != len(now.matches[r]) {
			return nil, false
		}
		for k := range now.matches[r] {
			if !bytes.Equal(base.matches[r][k], now.matches[r][k]) {
				changed = append(changed, [2]int{r, k})
			}
		}
	}
	return changed, true
}

// writeMatches writes t as match records when only matches changed since
// base (t as loaded from the store): each changed match's record, and the
// wake entry when it moved. It reports false, having written nothing,
// when t must be written whole.
func writeMatches(rec Records, t *tournament.Tournament, base *shape, now time.Time) (bool, error) {
	s, err := shapeOf(t)
	if err != nil {
		return false, err
	}
	changed, ok := changedMatches(base, s)
	if !ok {
		return false, nil
	}
	// A match that gained its game (a round opening in batches) or
	// changed game or table would be stale to overlay (it names another
	// game than the whole record's): only a whole record says so.
	for _, c := range changed {
		var was tournament.Match
		if err := json.Unmarshal(base.matches[c[0]][c[1]], &was); err != nil {
			return false, err
		}
		if m := t.Rounds[c[0]].Matches[c[1]]; m.GameID != was.GameID || m.Table != was.Table {
			return false, nil
		}
	}
	for _, c := range changed {
		if err := rec.PutTournamentMatch(t.ID, c[0], c[1], s.matches[c[0]][c[1]]); err != nil {
			return true, err
		}
	}
	key := tourWakePrefix + t.ID
	if at := tourWake(t, now); !at.Equal(rec.Wake(key)) {
		return true, rec.SetWake(key, at)
	}
	return true, nil
}
