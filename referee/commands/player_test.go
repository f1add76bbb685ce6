package commands

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
)

// fakePlayer is a Player that records what a handler asked of the core.
type fakePlayer struct {
	lang    string
	changed []string
	tourKW  string // the keyword the tournament's rows take ("" none)
}

func (f *fakePlayer) Lang() string { return f.lang }
func (f *fakePlayer) Text(name string, data map[string]any) string {
	if p, ok := data["Params"].(map[string]any); ok {
		return name + " " + p["usage"].(string)
	}
	return name
}
func (f *fakePlayer) Tournament(kw string, w []string) (string, bool, error) {
	if kw != f.tourKW {
		return "", false, nil
	}
	f.changed = append(f.changed, "tour "+strings.Join(w, " "))
	return "", true, nil
}
func (f *fakePlayer) ListOpen() (string, error) { return "open games", nil }
func (f *fakePlayer) JoinOpen(g string) (string, error) {
	f.changed = append(f.changed, "join "+g)
	if g == "full" {
		return "error.full", nil
	}
	return "", nil
}
func (f *fakePlayer) HasGame(g string) bool { return g == "g2" }
func (f *fakePlayer) Observe(g string) error {
	f.changed = append(f.changed, "observe "+g)
	return nil
}
func (f *fakePlayer) SetLang(l string) error {
	f.lang = l
	f.changed = append(f.changed, "lang "+l)
	return nil
}

// runPlayer runs a line through the rows of its keyword, in order, the
// way the core does.
func runPlayer(t *testing.T, f *fakePlayer, line string) *PlayerCall {
	t.Helper()
	w := strings.Fields(line)
	kw := strings.ToUpper(w[0])
	rows := PlayerRows()
	var c *PlayerCall
	for i := range rows {
		if rows[i].Keyword != kw || rows[i].Anyone {
			continue
		}
		c = &PlayerCall{Host: f, Row: &rows[i], Keyword: kw, Words: w}
		ok, err := c.Run()
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return c
		}
	}
	t.Fatalf("%q: no row answered", line)
	return nil
}

// TestPlayerRows: the tournaments' rows come before the games' (a JOIN
// naming a tournament is the tournament's), every row but the plain
// address's has the player's handler, and the usage error is the row's.
func TestPlayerRows(t *testing.T) {
	rows := PlayerRows()
	firstGame := slices.IndexFunc(rows, func(r Row) bool { return r.Keyword == "LIST" })
	for i, r := range rows {
		if r.Anyone != (r.Player == nil) || r.Seat != nil {
			t.Errorf("%s: handlers wrong (anyone %v)", r.Keyword, r.Anyone)
		}
		if r.Aliased && i > firstGame {
			t.Errorf("%s: a tournament's row after the games'", r.Keyword)
		}
	}
	if n := len(rows) - firstGame; len(rows) != len(bymail.PlayerCommands)+n {
		t.Errorf("%d rows, the desk's %d", len(rows), len(bymail.PlayerCommands))
	}
	for _, line := range []string{"JOIN", "join", "OBSERVE", "Observe"} {
		f := &fakePlayer{lang: "en"}
		c := runPlayer(t, f, line)
		if want := "error.usage " + c.Row.Usage; strings.Join(c.Lines, "|") != want || len(f.changed) > 0 {
			t.Errorf("%q: %v, want %q; changed %v", line, c.Lines, want, f.changed)
		}
	}
}

// TestPlayerCommands: each command's answer and change, a tournament's
// JOIN before a game's.
func TestPlayerCommands(t *testing.T) {
	for _, c := range []struct {
		line, tour, lines, changed string
		acted                      bool
	}{
		{"LIST", "", "open games", "", false},
		{"HELP", "", "help.player", "", false},
		{"JOIN G3", "", "", "join g3", true},
		{"JOIN full", "", "error.full", "join full", false},
		{"JOIN spring", "JOIN", "", "tour JOIN spring", true},
		{"OBSERVE G2", "", "", "observe g2", true},
		{"OBSERVE g9", "", "error.no_game", "", false},
		{"LANG IT", "", "info.lang", "lang it", false},
		{"LANG de", "", "info.lang", "", false},
		{"LANG", "", "info.lang", "", false},
	} {
		f := &fakePlayer{lang: "en", tourKW: c.tour}
		call := runPlayer(t, f, c.line)
		if strings.Join(call.Lines, "|") != c.lines || strings.Join(f.changed, ";") != c.changed || call.Acted != c.acted {
			t.Errorf("%q: lines %v changed %v acted %v; want %q %q %v", c.line, call.Lines, f.changed, call.Acted, c.lines, c.changed, c.acted)
		}
	}
}

// TestFindCards: a card by id or code, by its data name, by its name in
// the reader's language then any, letters only and in any case.
func TestFindCards(t *testing.T) {
	cards := []engine.Card{{ID: "HEAD_BREWER", Code: "HB", Name: "Head Brewer"}, {ID: "CASH_SPACE", Code: "CASH"},
		{ID: "CASH_CARD", Code: "CASH"}, {ID: "MALT_HOUSE", Code: "MH"}}
	names := map[string]map[string]string{"it": {"HEAD_BREWER": "Mastro birraio"}, "fr": {"MALT_HOUSE": "Malterie"}}
	name := func(lg string, c engine.Card) (string, bool) { n, ok := names[lg][c.ID]; return n, ok }
	for topic, want := range map[string]string{
		"head_brewer": "HEAD_BREWER", "HB": "HEAD_BREWER", "Head Brewer": "HEAD_BREWER", "HEADBREWER": "HEAD_BREWER",
		"mastro birraio": "HEAD_BREWER", "MALTERIE": "MALT_HOUSE", "cash": "CASH_SPACE,CASH_CARD", "nothing": "", "--": "",
	} {
		for _, langs := range [][]string{{"en", "it", "fr", "nl"}, {"fr", "en", "it", "fr", "nl"}} {
			var got []string
			for _, c := range FindCards(cards, topic, langs, name) {
				got = append(got, c.ID)
			}
			if strings.Join(got, ",") != want {
				t.Errorf("%q in %v: %v, want %s", topic, langs, got, want)
			}
		}
	}
	if got := FindCards(cards, "Mastro birraio", []string{"it"}, nil); len(got) > 0 {
		t.Errorf("no names: found %v", got)
	}
}
