package records

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// roundEntries are the create and start entries of a tournament game
// (seating.go's), as a round of 5,000 games logs them 5,000 times.
func roundEntries() []Entry {
	at := time.Date(2026, 12, 7, 17, 0, 0, 123456789, time.UTC)
	return []Entry{
		{At: at, Kind: EntryCreate, Seat: -1, Vis: engine.Public, Params: map[string]any{
			"game": "toy", "variant": "", "options": map[string]string(nil), "players": 2, "open": false,
			"organiser": "org@example.org", "commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
			"policy": "3d per move, 2 reminders", "ruleset": ""}},
		{At: at, Kind: EntryStart, Seat: -1, Vis: engine.Public,
			Setup: []engine.Event{{Type: "setup", Seat: -1, Vis: engine.Public, Params: map[string]any{"round": 1, "chips": []int{5, 5}}}},
			Params: map[string]any{"order": []string{"Ann", "Bob"}, "commitment": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
				"variant": "", "options": map[string]string{"rounds": "3"}}},
	}
}

// BenchmarkEncodeEntry_Issue24 compares EncodeEntry with json.Marshal on
// a game's create and start entries (allocations exact).
func BenchmarkEncodeEntry_Issue24(b *testing.B) {
	es := roundEntries()
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for j := range es {
				if _, err := EncodeEntry(&es[j]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for j := range es {
				if _, err := json.Marshal(es[j]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
