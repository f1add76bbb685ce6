package engine

import (
	"encoding/json"
	"fmt"
)

// tableJSON is a table as stored: its game, its state, then the rest
// (tableRest's fields, promoted: one list of them for both directions).
type tableJSON struct {
	Game  string          `json:"game"`
	State json.RawMessage `json:"state"`
	// Prompts are read from a table stored with them (before issue 25's
	// smaller record), never written.
	Prompts []*Prompt `json:"prompts"`
	tableRest
}

// MarshalJSON encodes the table: the game name, the state and the queues.
// The prompts are not stored (issue 25, "a smaller record a move"): each
// is what the state, the queues, the halts and the expired groups ask the
// seat (Table.ask), so LoadTable asks again; a record of the referee kept
// every prompt's option list twice (here and in Asked), 600-3,000 bytes
// of a 6-10 KB record and a third of what a move changed in it
// (TestLoadedTableAsksWhatWasAsked_Issue25). A table stored with its
// prompts (before) reads them as stored.
//
// The state's encoding is spliced in as it comes from json.Marshal, not
// passed back through encoding/json as a RawMessage, which would scan and
// compact the whole state a second time for the same bytes (the state is
// most of a table; issue 25). The output is the bytes json.Marshal of
// tableJSON gives: "game", then "state", then the other fields in order.
func (t *Table) MarshalJSON() ([]byte, error) {
	st, err := json.Marshal(t.State)
	if err != nil {
		return nil, err
	}
	game, err := json.Marshal(t.State.Head().Game)
	if err != nil {
		return nil, err
	}
	rest, err := json.Marshal(tableRest{Queues: t.Queues, Halts: t.Halts,
		Expired: t.Expired, NextTag: t.NextTag, Asked: t.Asked, Forced: t.Forced})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(`{"game":,"state":,`)+len(game)+len(st)+len(rest))
	out = append(out, `{"game":`...)
	out = append(out, game...)
	out = append(out, `,"state":`...)
	out = append(out, st...)
	out = append(out, ',')
	return append(out, rest[1:]...), nil
}

// tableRest is tableJSON after "state": the fields MarshalJSON encodes
// with encoding/json (never empty: "queues" is always written).
type tableRest struct {
	Queues  [][]Order  `json:"queues"`
	Halts   []*Halt    `json:"halts"`
	Expired []string   `json:"expired"`
	NextTag int        `json:"next_tag"`
	Asked   [][]Asked  `json:"asked,omitempty"`
	Forced  [][]string `json:"forced,omitempty"`
}

// LoadTable decodes a table produced by MarshalJSON. ruleset is the data file
// the game was started with (nil for the game's default).
func LoadTable(data, ruleset []byte) (*Table, error) {
	var j tableJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	g, err := Lookup(j.Game)
	if err != nil {
		return nil, err
	}
	st, err := g.DecodeState(j.State, ruleset)
	if err != nil {
		return nil, fmt.Errorf("table: %w", err)
	}
	t := newTable(g, st)
	n := t.Seats()
	if len(j.Queues) != n || len(j.Halts) != n || (j.Prompts != nil && len(j.Prompts) != n) || len(j.Expired) != n {
		return nil, fmt.Errorf("table: per-seat lists do not match %d seats", n)
	}
	t.Queues, t.Halts, t.Expired, t.NextTag = j.Queues, j.Halts, j.Expired, j.NextTag
	if len(j.Asked) == n {
		t.Asked = j.Asked
	}
	if len(j.Forced) == n {
		t.Forced = j.Forced
	}
	if j.Prompts != nil {
		t.Prompts = j.Prompts
	} else {
		t.ask()
	}
	return t, nil
}

// PeekHeader reads the Header of a state's JSON without decoding the rest.
// Every game's state JSON is an object with the Header under the key "head".
func PeekHeader(state []byte) (Header, error) {
	var v struct {
		Head *Header `json:"head"`
	}
	if err := json.Unmarshal(state, &v); err != nil {
		return Header{}, err
	}
	if v.Head == nil {
		return Header{}, fmt.Errorf("state has no \"head\"")
	}
	return *v.Head, nil
}
