package bymail

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
)

// TestCrosstableLinksEveryoneWhoPlayed_Issue24 (issue 24: after a
// REPLACE, every page names who played which game): on 40 generated
// tournaments whose places changed hands (drawPersons: between rounds and
// within a game, same-name holders, one person at two places), every
// crosstable cell of a round not its place's holder's alone names each
// holder who played the game, first to last, and links each their own
// page (CrossPageCell.Players and PlayedURLs, by position in the line of
// holders), the same names the crosstable file writes in that cell
// (crosstable.csv: "[A>B]"); a cell of the place's holder alone names and
// links nobody. A handed-on game links two pages, not the finisher's
// alone.
func TestCrosstableLinksEveryoneWhoPlayed_Issue24(t *testing.T) {
	handed := 0
	for draw := range 40 {
		pd := drawPersons(t, draw)
		tr := pd.tr
		h := pd.host(t)
		cp, err := CrossPageOf(h, "cup", "k")
		if err != nil {
			t.Fatal(err)
		}
		f, err := newDesk(h).export(tr, ExportCrosstable, "en")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(string(f.Body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		first := len(rows[0]) - len(tr.Rounds) // the file's first round column
		for li, l := range cp.Lines {
			e := -1
			for i := range tr.Entrants {
				if playerPagePath(tr, i) == l.URL {
					e = i
				}
			}
			for r, c := range l.Cells {
				var names, urls []string
				for _, k := range pd.who[e][r] {
					name, _ := pd.holderOf(e, k)
					names, urls = append(names, name), append(urls, pd.pageOf(e, k))
				}
				own := len(names) == 1 && pd.who[e][r][0] == len(tr.Entrants[e].Before)
				if own {
					names, urls = nil, nil
				}
				if len(names) > 1 {
					handed++
				}
				if fmt.Sprint(c.Players) != fmt.Sprint(names) || fmt.Sprint(c.PlayedURLs) != fmt.Sprint(urls) {
					t.Errorf("draw %d: place %d round %d names %q linking %q, want %q linking %q",
						draw, e+1, r+1, c.Players, c.PlayedURLs, names, urls)
				}
				cell := rows[li+1][first+r]
				if want := "[" + strings.Join(names, ">") + "]"; !own && !strings.HasSuffix(cell, want) {
					t.Errorf("draw %d: place %d round %d: the file's cell %q, the page's %q", draw, e+1, r+1, cell, want)
				}
				if own && strings.Contains(cell, "[") {
					t.Errorf("draw %d: place %d round %d: the file names %q for the holder's own round", draw, e+1, r+1, cell)
				}
			}
		}
	}
	if handed == 0 {
		t.Fatal("no game handed on mid-way: the test checks nothing it is for")
	}
}
