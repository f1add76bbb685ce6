package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestEventRedactedSurvivesJSON: what a seat outside an event's visibility
// sees is the same before and after the event goes through the log's JSON,
// for each kind of redaction: none (nil: not seen at all), to nothing (an
// empty map: seen without its facts, Fromage's fr.place_tile) and to some
// facts. An empty map written "omitempty" came back nil, and the others
// no longer saw the event once it was stored.
func TestEventRedactedSurvivesJSON(t *testing.T) {
	for _, c := range []struct {
		name     string
		redacted map[string]any
		seen     bool
	}{
		{"nil", nil, false},
		{"empty", map[string]any{}, true},
		{"facts", map[string]any{"round": float64(2)}, true},
	} {
		ev := NewEvent("fr.place_tile", 0, Only(0), "tile", "ST08")
		ev.Redacted = c.redacted
		raw, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var back Event
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		for _, seat := range []int{0, 1, -1} {
			want, wok := ev.For(seat)
			got, gok := back.For(seat)
			if seat != 0 && wok != c.seen {
				t.Errorf("%s: seat %d sees the event: %v, want %v", c.name, seat, wok, c.seen)
			}
			if wok != gok || (wok && !reflect.DeepEqual(len(want.Params), len(got.Params))) {
				t.Errorf("%s: seat %d: before JSON %v %v, after %v %v (%s)", c.name, seat, wok, want.Params, gok, got.Params, raw)
			}
		}
	}
}
