package heavenale

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/engine/heavenale/catalog"
	"github.com/pbem-referee/referee/templates"
)

// TestNarrowSummaryWholeGames (issue 14.3, spec 10.4): with PREF GARDEN
// COMPACT the whole summary (track, start area, boards, gardens, final
// scoring, legend) fits 40 columns, in every language, for every seat, at
// every sampled position of whole games up to the final scoring; a seat
// without the preference keeps the wide form.
func TestNarrowSummaryWholeGames(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	states, _ := samplePositions(t)
	n := 0
	for _, lang := range templates.Languages {
		for _, s0 := range states {
			s := s0.Clone().(*State)
			for i := range s.Players {
				s.Players[i].Narrow = true
			}
			for seat := 0; seat < len(s.Players); seat++ {
				c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: seat, Seats: s.H.Seats, Word: wordsOf(set, lang)}
				out := render(t, set, lang, "summary", c.With(s.View(seat)))
				for _, l := range strings.Split(out, "\n") {
					if k := utf8.RuneCountInString(l); k > 40 {
						t.Errorf("%s narrow summary: line of %d runes: %q", lang, k, l)
					}
					n++
				}
				if !strings.Contains(out, "Heaven & Ale") || !strings.Contains(out, "WO "+itoa(s.Players[seat].Markers[0])) {
					t.Errorf("%s narrow summary lacks the board:\n%s", lang, out)
				}
			}
			c := templates.Ctx{Lang: lang, Game: catalog.GameName, Seat: -1, Seats: s.H.Seats}
			if out := render(t, set, lang, "summary", c.With(s.View(-1))); !hasLongLine(out) {
				t.Errorf("%s: an observer gets the narrow summary", lang)
			}
			s.Players[0].Narrow = false
			c.Seat = 0
			if out := render(t, set, lang, "summary", c.With(s.View(0))); !hasLongLine(out) {
				t.Errorf("%s: a seat without PREF GARDEN COMPACT gets the narrow summary", lang)
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d lines checked", n)
	}
}

func hasLongLine(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(l) > 40 {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestNarrowSummaryGolden compares the narrow English summary of the golden
// position (and of the final scoring) with a golden file.
func TestNarrowSummaryGolden(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := newGame(t, 3)
	bare(s)
	s.Spaces[2] = []string{"HO2", "WA1"}
	s.Spaces[5] = []string{"BA3"}
	s.Spaces[10] = []string{"M3", "M1"}
	s.Discs[12], s.Discs[16] = 1, 1
	put(s, 0, "S4", "HO3", "S7", "HO3", "S9", "BA5", "S8", "WA2", "S6", "YE1", "D2", "WA3", "D5", "M2")
	put(s, 1, "D1", "BA2")
	must(t, s, 0, "GO 2", "BUY HO2 S1", "DONE")
	must(t, s, 1, "PREF GARDEN COMPACT")
	ctx := templates.Ctx{Lang: "en", Game: catalog.GameName, Seat: 1, Seats: s.H.Seats}
	got := render(t, set, "en", "summary", ctx.With(s.View(1)))
	states, _ := samplePositions(t)
	last := states[len(states)-1].Clone().(*State)
	last.Players[0].Narrow = true
	ctx.Seats, ctx.Seat = last.H.Seats, 0
	got += "\n\n" + render(t, set, "en", "summary", ctx.With(last.View(0)))
	enginetest.Golden(t, "testdata/golden-summary-narrow.en.txt", got, *update)
}
