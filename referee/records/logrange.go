package records

import (
	"encoding/json"
	"errors"

	"github.com/pbem-referee/referee/store"
)

// errLogEnd stops a read of the log at its end seq.
var errLogEnd = errors.New("records: the end of the range")

// EntriesBefore reads a game's log from seq from up to, not including,
// seq end (0: to the last entry): the entries older than those a unit of
// work holds in memory, which it never reads back (issue 25).
func EntriesBefore(tx *store.Tx, game string, from, end uint64) ([]Entry, error) {
	var out []Entry
	err := tx.Log(game, from, func(seq uint64, raw []byte) error {
		if end != 0 && seq >= end {
			return errLogEnd
		}
		var e Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		e.Seq = seq
		out = append(out, e)
		return nil
	})
	if err != nil && !errors.Is(err, errLogEnd) {
		return nil, err
	}
	return out, nil
}
