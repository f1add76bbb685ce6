package tournament

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
)

var update = flag.Bool("update", false, "rewrite the golden files of the exports")

// golden compares got with testdata/export/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "export", name)
	if name == "draws.sha256" {
		path = filepath.Join("testdata", name)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s\nwant:\n%s", name, got, want)
	}
}

var day0 = time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)

// swissFixture is a five-entrant Swiss event (names with a comma, quotes
// and accents) after three rounds: round 1 a win, a draw and a bye;
// round 2 a forfeit and an adjudicated game; round 3 still playing.
func swissFixture(t *testing.T) *Tournament {
	tr := newT(t, 5, Settings{Format: Swiss, NumRounds: 4, Calendar: Calendar{Start: day0, Every: 7 * 24 * time.Hour}})
	tr.ID, tr.Game = "winter-cup", "fromage"
	tr.Started = day0
	for i, name := range []string{"Ann O'Neil", "Bo, Jr.", `Zoë "Z" Ng`, "Ettore Ferrari-Lungavita di Sant'Ambrogio", "Dee"} {
		tr.Entrants[i].Name = name
	}
	for r := 1; r <= 3; r++ {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		rd.Opened = tr.RoundDate(r)
		rd.Due = tr.RoundDue(r, rd.Opened)
		for k := range rd.Matches {
			if rd.Matches[k].State != MatchBye {
				rd.Matches[k].GameID = "g" + strconv.Itoa(r) + strconv.Itoa(k+1)
			}
		}
		tr.Rounds = append(tr.Rounds, rd)
		ms := tr.Rounds[r-1].Matches
		switch r {
		case 1:
			result(&ms[0], []int{1, 2}, 31, 24)
			result(&ms[1], []int{1, 1}, 27, 27)
			ms[2].State = MatchBye
		case 2:
			ms[0].State, ms[0].Rank = MatchForfeit, []int{2, 1}
			result(&ms[1], []int{2, 1}, 18, 22)
			ms[1].State = MatchAdjudicated
		}
	}
	return tr
}

// tablesFixture is the hand-worked record of
// TestStandingsSmallTableHandWorked: tables of 3 and one of 2.
func tablesFixture(t *testing.T) *Tournament {
	tr := newT(t, 8, Settings{Format: Tables, Table: 3, Tiebreaks: []string{Buchholz, SonnebornBerger}})
	tr.ID = "brew-league"
	tr.Rounds = []Round{
		{N: 1, Matches: []Match{{Table: 1, Seats: []int{0, 1, 2}}, {Table: 2, Seats: []int{3, 4, 5}}, {Table: 3, Seats: []int{6, 7}}}},
		{N: 2, Matches: []Match{{Table: 1, Seats: []int{0, 3, 7}}, {Table: 2, Seats: []int{1, 4, 6}}, {Table: 3, Seats: []int{2, 5}}}},
	}
	result(&tr.Rounds[0].Matches[0], []int{1, 2, 3}, 40, 33, 20)
	result(&tr.Rounds[0].Matches[1], []int{1, 2, 3}, 38, 30, 29)
	result(&tr.Rounds[0].Matches[2], []int{1, 2}, 25, 19)
	result(&tr.Rounds[1].Matches[0], []int{2, 3, 1}, 35, 30, 41)
	result(&tr.Rounds[1].Matches[1], []int{1, 1, 3}, 33, 33, 21)
	result(&tr.Rounds[1].Matches[2], []int{2, 1}, 18, 26)
	tr.Rounds[1].Matches[1].State = MatchForfeit // 6 forfeits: 1 and 4 share the win
	return tr
}

// TestExportGoldens: every export of both fixtures against its golden
// file, and every CSV reads back with one column count.
func TestExportGoldens(t *testing.T) {
	sw, tb := swissFixture(t), tablesFixture(t)
	type exp struct {
		name string
		fn   func(*Tournament) ([]byte, error)
	}
	for _, e := range []exp{
		{"standings.csv", StandingsCSV}, {"results.csv", ResultsCSV}, {"crosstable.csv", CrosstableCSV},
		{"pairings-r2.csv", func(t *Tournament) ([]byte, error) { return PairingsCSV(t, 2) }},
	} {
		for _, f := range []struct {
			tag string
			tr  *Tournament
		}{{"swiss", sw}, {"tables", tb}} {
			got, err := e.fn(f.tr)
			if err != nil {
				t.Fatalf("%s %s: %v", f.tag, e.name, err)
			}
			golden(t, f.tag+"-"+e.name, got)
			recs, err := csv.NewReader(bytes.NewReader(got)).ReadAll()
			if err != nil || len(recs) < 2 {
				t.Fatalf("%s %s: reads back %d records, %v", f.tag, e.name, len(recs), err)
			}
		}
	}
	trf, err := TRF(sw)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "swiss.trf", trf)
	feed := ICS(sw, day0.Add(-time.Hour), func(n int) string { return "winter-cup, round " + strconv.Itoa(n) }, "https://example.org/t/winter-cup")
	golden(t, "swiss.ics", feed)
}

// TestTRFColumns reads the TRF16 player lines back by column, as a
// rating program does: starting rank 5-8, name 15-47, points 81-84,
// rank 86-89, and per round the opponent 92-95, colour 97, result 99
// (10 columns a round) - against the standings and the record.
func TestTRFColumns(t *testing.T) {
	tr := swissFixture(t)
	trf, err := TRF(tr)
	if err != nil {
		t.Fatal(err)
	}
	complete := *tr
	complete.Rounds = tr.Rounds[:2]
	st := map[int]Standing{}
	for _, s := range complete.Standings() {
		st[s.Entrant] = s
	}
	col := func(line string, from, to int) string {
		r := []rune(line + strings.Repeat(" ", 200))
		return strings.TrimSpace(string(r[from-1 : to]))
	}
	players := 0
	for _, line := range strings.Split(string(trf), "\r\n") {
		if strings.Contains(line, "\n") || strings.Contains(line, "\r") {
			t.Fatalf("a line with a bare line end: %q", line)
		}
		if !strings.HasPrefix(line, "001") {
			continue
		}
		players++
		e, _ := strconv.Atoi(col(line, 5, 8))
		e--
		s := st[e]
		if col(line, 15, 47) != trfText(tr.Entrants[e].Name, 33) {
			t.Errorf("entrant %d: name %q", e, col(line, 15, 47))
		}
		if p, _ := strconv.ParseFloat(col(line, 81, 84), 64); p != s.Points {
			t.Errorf("entrant %d: points %q, want %v", e, col(line, 81, 84), s.Points)
		}
		if col(line, 86, 89) != strconv.Itoa(s.Place) {
			t.Errorf("entrant %d: rank %q, want %d", e, col(line, 86, 89), s.Place)
		}
		for r, rd := range complete.Rounds {
			at := 92 + 10*r
			opp, colour, res := col(line, at, at+3), col(line, at+5, at+5), col(line, at+7, at+7)
			for _, m := range rd.Matches {
				for i, x := range m.Seats {
					if x != e {
						continue
					}
					if m.State == MatchBye {
						if opp != "0000" || colour != "-" || res != "U" {
							t.Errorf("entrant %d round %d: bye as %q %q %q", e, r+1, opp, colour, res)
						}
						continue
					}
					if opp != strconv.Itoa(m.Seats[1-i]+1) || colour != []string{"w", "b"}[i] || res != cellResult(m, i) {
						t.Errorf("entrant %d round %d: %q %q %q for %+v", e, r+1, opp, colour, res, m)
					}
				}
			}
		}
		if len([]rune(line)) != 91+10*len(complete.Rounds)-2 {
			t.Errorf("entrant %d: line of %d columns", e, len([]rune(line)))
		}
	}
	if players != len(tr.Entrants) {
		t.Fatalf("%d player lines for %d entrants", players, len(tr.Entrants))
	}
	if _, err := TRF(tablesFixture(t)); !errors.Is(err, ErrExport) {
		t.Fatalf("TRF of tables: %v", err)
	}
	if _, err := PairingsCSV(tr, 9); !errors.Is(err, ErrExport) {
		t.Fatalf("pairings of round 9: %v", err)
	}
}

// TestICSParses reads the feed back with the library: one event per
// dated round (four planned, weekly), each from its opening to its
// deadline, and lines of at most 75 octets.
func TestICSParses(t *testing.T) {
	tr := swissFixture(t)
	feed := ICS(tr, day0, func(n int) string { return "Round " + strconv.Itoa(n) }, "")
	cal, err := ics.ParseCalendar(bytes.NewReader(feed))
	if err != nil {
		t.Fatal(err)
	}
	evs := cal.Events()
	if len(evs) != tr.PlannedRounds() {
		t.Fatalf("%d events for %d rounds", len(evs), tr.PlannedRounds())
	}
	for i, ev := range evs {
		start, err1 := ev.GetStartAt()
		end, err2 := ev.GetEndAt()
		if err1 != nil || err2 != nil || !start.Equal(tr.RoundDate(i+1)) || !end.Equal(start.Add(7*24*time.Hour)) {
			t.Errorf("event %d: %v-%v (%v %v)", i+1, start, end, err1, err2)
		}
	}
	for _, l := range strings.Split(string(feed), "\r\n") {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
	}
	// Without a calendar, rounds not yet drawn have no date: only the
	// drawn rounds with an opening are listed.
	tr.Start, tr.Every = time.Time{}, 0
	feed = ICS(tr, day0, func(n int) string { return "R" }, "")
	cal, err = ics.ParseCalendar(bytes.NewReader(feed))
	if err != nil || len(cal.Events()) != 3 {
		t.Fatalf("without a calendar: %v, %d events", err, len(cal.Events()))
	}
}

// FuzzExportNames: whatever an entrant calls themselves (commas, quotes,
// line ends, control characters, long or invalid UTF-8), the CSV reads
// back the same name, every TRF line ends in CR LF alone with the points
// in columns 81-84, and the calendar feed, titled with the name, parses
// back with that title.
func FuzzExportNames(f *testing.F) {
	for _, s := range []string{"Ann", "Bo, Jr.", `Zoë "Z"`, "a\r\nb", "x\x00y", strings.Repeat("é", 60), "\xff\xfe", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		tr := swissFixture(t)
		tr.Entrants[0].Name = name
		out, err := StandingsCSV(tr)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("standings do not read back: %v", err)
		}
		found := false
		for _, r := range recs[1:] {
			if r[1] == "1" {
				found = true
				if want := strings.ReplaceAll(name, "\r\n", "\n"); r[2] != want && !strings.ContainsRune(name, '\r') {
					t.Fatalf("name %q read back as %q", name, r[2])
				}
			}
		}
		if !found {
			t.Fatal("entrant 1 missing")
		}
		trf, err := TRF(tr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(trf, []byte("\r\n")) {
			t.Fatal("TRF does not end in CR LF")
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(trf), "\r\n"), "\r\n") {
			if strings.ContainsAny(line, "\r\n") {
				t.Fatalf("TRF line with a bare line end: %q", line)
			}
			if strings.HasPrefix(line, "001") {
				r := []rune(line)
				if _, err := strconv.ParseFloat(strings.TrimSpace(string(r[80:84])), 64); err != nil {
					t.Fatalf("points columns of %q: %v", line, err)
				}
			}
		}
		feed := ICS(tr, day0, func(int) string { return name }, "")
		cal, err := ics.ParseCalendar(bytes.NewReader(feed))
		if err != nil {
			t.Fatalf("feed does not parse: %v\n%s", err, feed)
		}
		if len(cal.Events()) != tr.PlannedRounds() {
			t.Fatalf("%d events", len(cal.Events()))
		}
	})
}
