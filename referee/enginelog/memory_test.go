package enginelog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
)

// TestRebuildFromMemory (issue 25, one reading): the core rebuilds a
// game's published log from the entries its unit of work wrote as it holds
// them (a start's order a []string, a rollback's move an int), never read
// back and decoded; the log must be the one the same entries give once
// stored and decoded ([]any, float64). Logs of every length up to 12
// entries, drawn from starts, steps, rollbacks and errata, with every
// split between the stored and the in-memory part.
func TestRebuildFromMemory(t *testing.T) {
	read := func(sha string) ([]byte, error) { return []byte(sha), nil }
	g := &records.Game{Game: "dicebrewing", Variant: "v", Seed: "s33d"}
	decode := func(e records.Entry) records.Entry {
		raw, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back records.Entry
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		return back
	}
	kinds := []func(k int) records.Entry{
		func(k int) records.Entry {
			return records.Entry{Kind: records.EntryStart, Params: map[string]any{"order": []string{"Bob", fmt.Sprint("Ann", k)}},
				Setup: []engine.Event{{}}}
		},
		func(k int) records.Entry { return step(k) },
		func(k int) records.Entry { return step(k + 1) },
		func(k int) records.Entry {
			return records.Entry{Kind: records.EntryRollback, Params: map[string]any{"to": k / 2}}
		},
		func(k int) records.Entry {
			return records.Entry{Kind: records.EntryErratum, Ruleset: fmt.Sprint("sha", k)}
		},
	}
	checked := 0
	for n := 1; n <= 12; n++ {
		var mem []records.Entry
		for k := range n {
			mem = append(mem, kinds[(k*7+n)%len(kinds)](k+1))
		}
		var stored []records.Entry
		for _, e := range mem {
			stored = append(stored, decode(e))
		}
		want, err := Rebuild(g, stored, read, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for split := 0; split <= n; split++ {
			all := append(append([]records.Entry(nil), stored[:split]...), mem[split:]...)
			got, err := Rebuild(g, all, read, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d entries, %d from memory: %+v, want %+v", n, n-split, got, want)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("only %d logs", checked)
	}
}
