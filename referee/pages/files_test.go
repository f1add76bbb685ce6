package pages

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

var filesRe = regexp.MustCompile(`<ul id="files">(?s:(.*?))</ul>`)
var fileRe = regexp.MustCompile(`href="(/t/[^"?]+/([^"?/]+))\?lang=(\w+)"`)

// fetch gets a file and checks its headers: the status, the media type
// and a download under a name that starts with the tournament's id.
func fetch(t *testing.T, url, id, wantType string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", url, resp.StatusCode, b)
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != wantType || params["charset"] != "utf-8" {
		t.Errorf("%s: Content-Type %q, want %s; charset=utf-8", url, resp.Header.Get("Content-Type"), wantType)
	}
	disp, dp, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if err != nil || disp != "attachment" || !strings.HasPrefix(dp["filename"], id) {
		t.Errorf("%s: Content-Disposition %q", url, resp.Header.Get("Content-Disposition"))
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s: no nosniff", url)
	}
	return b
}

// TestTournamentFiles (issue 24): a tournament's page links its files in
// the reader's language, each served with its media type as a download and
// read back: the CSVs parse with one line per entrant (standings), per
// seat (results, pairings), the crosstable's a line per entrant; the TRF
// has a 001 line per entrant, for two-player Swiss events only; the
// calendar parses and names its rounds in the reader's language. A wrong
// key or an unknown file is a 404 like an unknown page.
func TestTournamentFiles(t *testing.T) {
	s := newSite(t)
	// And an event of tables of 3, which has no TRF.
	for _, eg := range engine.Games() {
		if info := eg.Info(); info.Allows("", 3) {
			text := "NEW TOURNAMENT tab1 game=" + info.Name + " rounds=2 table=3 format=tables public\n"
			for i := 0; i < 7; i++ {
				text += fmt.Sprintf("ENTER tab1 q%d@players.test Q%d\n", i, i)
			}
			if lines, err := s.r.Organise(org, text+"START tab1\n"); err != nil || !strings.Contains(strings.Join(lines, "\n"), "tab1 started") {
				t.Fatalf("%v %v", lines, err)
			}
			s.tours["tables"] = "tab1"
			break
		}
	}
	if s.tours["tables"] == "" {
		t.Fatal("no game seats 3")
	}
	roundWord := map[string]string{"en": "round", "it": "turno", "fr": "ronde", "nl": "ronde"}
	for game, id := range s.tours {
		u := s.tourURL(t, game)
		rec, err := s.r.TournamentRecord(id)
		if err != nil {
			t.Fatal(err)
		}
		seats := 0
		for _, m := range rec.Rounds[0].Matches {
			seats += len(m.Seats)
		}
		for lang, word := range roundWord {
			_, body := get(t, u+"?lang="+lang)
			list := filesRe.FindStringSubmatch(body)
			if list == nil {
				t.Fatalf("%s %s: no files on the page", game, lang)
			}
			links := fileRe.FindAllStringSubmatch(list[1], -1)
			got := map[string]string{}
			for _, l := range links {
				if l[3] != lang {
					t.Errorf("%s: link %s not in the page's language %s", game, l[0], lang)
				}
				got[l[2]] = s.srv.URL + l[1] + "?lang=" + lang
			}
			want := []string{"standings.csv", "results.csv", "crosstable.csv", "pairings.csv", "rounds.ics"}
			swiss := rec.Table == 2 && rec.Format == tournament.Swiss
			if swiss {
				want = append(want, "tournament.trf")
			} else if _, ok := got["tournament.trf"]; ok {
				t.Errorf("%s: a TRF link for a %s event of tables of %d", game, rec.Format, rec.Table)
			}
			if len(got) != len(want) {
				t.Errorf("%s %s: files %v, want %v", game, lang, got, want)
			}
			for _, n := range want {
				if got[n] == "" {
					t.Fatalf("%s %s: no link to %s in\n%s", game, lang, n, list[1])
				}
			}
			if lang != "en" {
				// The files are the same in every language but the
				// calendar's words.
				cal := fetch(t, got["rounds.ics"], id, "text/calendar")
				c, err := ics.ParseCalendar(bytes.NewReader(cal))
				if err != nil || len(c.Events()) == 0 {
					t.Fatalf("%s %s: calendar %v\n%s", game, lang, err, cal)
				}
				for _, ev := range c.Events() {
					if sum := ev.GetProperty(ics.ComponentPropertySummary); sum == nil || !strings.Contains(sum.Value, word) {
						t.Errorf("%s %s: event %v not in the reader's words", game, lang, sum)
					}
				}
				continue
			}
			csvOf := func(n string) [][]string {
				rows, err := csv.NewReader(bytes.NewReader(fetch(t, got[n], id, "text/csv"))).ReadAll()
				if err != nil || len(rows) == 0 {
					t.Fatalf("%s %s: %v", game, n, err)
				}
				return rows
			}
			if rows := csvOf("standings.csv"); len(rows) != 1+len(rec.Entrants) || rows[0][0] != "place" {
				t.Errorf("%s standings: %d rows for %d entrants: %v", game, len(rows), len(rec.Entrants), rows[0])
			}
			if rows := csvOf("results.csv"); len(rows) != 1+seats || rows[0][0] != "round" {
				t.Errorf("%s results: %d rows for %d seats", game, len(rows), seats)
			}
			if rows := csvOf("pairings.csv"); len(rows) != 1+seats || rows[0][7] != "points_before" {
				t.Errorf("%s pairings: %d rows for %d seats", game, len(rows), seats)
			}
			if rows := csvOf("crosstable.csv"); len(rows) != 1+len(rec.Entrants) {
				t.Errorf("%s crosstable: %d rows for %d entrants", game, len(rows), len(rec.Entrants))
			}
			cal := fetch(t, got["rounds.ics"], id, "text/calendar")
			if _, err := ics.ParseCalendar(bytes.NewReader(cal)); err != nil {
				t.Errorf("%s calendar: %v", game, err)
			}
			slug := got["standings.csv"][:strings.LastIndex(got["standings.csv"], "/")]
			trf := slug + "/tournament.trf"
			if swiss {
				b := fetch(t, trf, id, "text/plain")
				if n := strings.Count(string(b), "\r\n001 "); n != len(rec.Entrants) || !strings.HasPrefix(string(b), "012 ") {
					t.Errorf("%s TRF: %d player lines for %d entrants:\n%s", game, n, len(rec.Entrants), b)
				}
			} else if code, _ := get(t, trf); code != 404 {
				t.Errorf("%s: TRF of a %s event: %d, want 404", game, rec.Format, code)
			}
			for _, bad := range []string{slug[:len(slug)-1] + "x/standings.csv", slug + "/nosuch.csv", slug + "/standings.csv/x",
				s.srv.URL + "/t/nosuch-abc/standings.csv"} {
				if code, _ := get(t, bad); code != 404 {
					t.Errorf("%s: %d, want 404", bad, code)
				}
			}
		}
	}
}
