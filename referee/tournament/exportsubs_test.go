package tournament

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// TestExportsNameWhoPlayed_Issue24 (issue 24: after a REPLACE, every page
// and mail names who played which game): P0's place passed to Zed after
// round 1 and to Yan after round 2. results.csv and each round's
// pairings.csv name, for each round, who held the place then; the
// entrant's number stays the place's.
func TestExportsNameWhoPlayed_Issue24(t *testing.T) {
	for _, format := range []string{Swiss, Tables} {
		s := Settings{Format: format}
		if format == Tables {
			s.Table = 3
		}
		tr := newT(t, 6, s)
		for n := 1; n <= 3; n++ {
			var ms []Match
			if format == Tables {
				ms = []Match{{Table: 1, Seats: []int{0, 1, 2}}, {Table: 2, Seats: []int{3, 4, 5}}}
			} else {
				ms = []Match{{Table: 1, Seats: []int{0, n}}, {Table: 2, Seats: []int{(n % 5) + 1, ((n + 1) % 5) + 1}}, {Table: 3, Seats: []int{((n + 2) % 5) + 1, ((n + 3) % 5) + 1}}}
			}
			for i := range ms {
				r := make([]int, len(ms[i].Seats))
				for k := range r {
					r[k] = k + 1
				}
				result(&ms[i], r)
			}
			tr.Rounds = append(tr.Rounds, Round{N: n, Matches: ms})
		}
		tr.Entrants[0].Before = []Stint{{Name: "P0", Address: "p0@x", Through: 1}, {Name: "Zed", Address: "zed@x", Through: 2}}
		tr.Entrants[0].Name, tr.Entrants[0].Address = "Yan", "yan@x"
		want := map[string]string{"1": "P0", "2": "Zed", "3": "Yan"}
		check := func(what string, b []byte) int {
			rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for i, h := range rows[0] {
				col[h] = i
			}
			n := 0
			for _, r := range rows[1:] {
				if r[col["entrant"]] != "1" {
					continue
				}
				n++
				if got := r[col["name"]]; got != want[r[col["round"]]] {
					t.Errorf("%s %s round %s: name %q, %q played", format, what, r[col["round"]], got, want[r[col["round"]]])
				}
			}
			return n
		}
		b, err := ResultsCSV(tr)
		if err != nil {
			t.Fatal(err)
		}
		if n := check("results.csv", b); n != 3 {
			t.Fatalf("%s results.csv: the place in %d rounds, want 3", format, n)
		}
		for n := 1; n <= 3; n++ {
			b, err := PairingsCSV(tr, n)
			if err != nil {
				t.Fatal(err)
			}
			if check("pairings.csv", b) != 1 {
				t.Fatalf("%s pairings.csv of round %d: the place is not in it", format, n)
			}
		}
	}
}
