package pages

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/fromage"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/pages/boards"
	"github.com/pbem-referee/referee/store"
)

// gamePages returns, per game, the address of the first game page of its
// tournament.
func (s *site) gamePages(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for game := range s.tours {
		_, body := get(t, s.tourURL(t, game))
		m := hrefRe.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no game link", game)
		}
		out[game] = m[1]
	}
	return out
}

var svgRe = regexp.MustCompile(`(?s)<svg .*?</svg>`)

// boardOf returns the SVG of a page, checked to be well-formed XML.
func boardOf(t *testing.T, page string) string {
	t.Helper()
	svg := svgRe.FindString(page)
	if svg == "" {
		t.Fatalf("no board on the page:\n%s", page)
	}
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the board is not well-formed XML: %v", err)
		}
	}
	return svg
}

func getLang(t *testing.T, url, accept string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d", url, resp.StatusCode)
	}
	return string(b)
}

// TestGamePagesDrawTheBoard: every game with a board drawing shows it on
// its tournament game pages, inline, accessible (role, title, desc), in
// the reader's language (?lang=, else Accept-Language, else English).
func TestGamePagesDrawTheBoard(t *testing.T) {
	s := newSite(t)
	pages := s.gamePages(t)
	for _, game := range boards.Games() {
		u, ok := pages[game]
		if !ok {
			t.Fatalf("no tournament page for %s", game)
		}
		page := getLang(t, s.srv.URL+u, "")
		svg := boardOf(t, page)
		for _, want := range []string{`class="board"`, `role="img"`, `viewBox="0 0 400 `, `<title id="board-title">`, `<desc id="board-desc">`, `lang="en"`} {
			if !strings.Contains(svg, want) {
				t.Errorf("%s: the board lacks %s", game, want)
			}
		}
		if !strings.Contains(page, `<div id="board" `) || strings.Contains(strings.ToLower(page), "<script") {
			t.Errorf("%s: board not in its place, or a script on the page", game)
		}
		for _, c := range []struct{ query, accept, want string }{
			{"?lang=it", "", "it"},
			{"?lang=nl", "fr", "nl"},
			{"", "fr-BE,fr;q=0.9,en;q=0.5", "fr"},
			{"", "de-DE, nl;q=0.8", "nl"},
			{"?lang=xx", "de", "en"},
		} {
			svg := boardOf(t, getLang(t, s.srv.URL+u+c.query, c.accept))
			if !strings.Contains(svg, `lang="`+c.want+`"`) {
				t.Errorf("%s %q %q: the board is not in %s", game, c.query, c.accept, c.want)
			}
		}
	}
}

// TestSingleGamePageDrawsTheBoard: a game outside tournaments, published
// with PUBLISH <game>, shows its board too.
func TestSingleGamePageDrawsTheBoard(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r, err := referee.New(referee.Options{DB: db, Domain: "example.test", Clock: fixedClock{time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)},
		Compose: func(m *referee.Outgoing) ([]byte, error) { return json.Marshal(m) }, Random: rand.Reader})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	Register(mux, r, nil)
	s := &site{r: r, srv: httptest.NewServer(mux)}
	t.Cleanup(s.srv.Close)
	for _, game := range boards.Games() {
		id := "solo" + game[:4]
		text := fmt.Sprintf("NEW %s id=%s\n", game, id)
		eg, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		seats := 2
		if !eg.Info().Allows("", 2) {
			seats = eg.Info().NearestPlayers(3)
		}
		for i := 0; i < seats; i++ {
			text += fmt.Sprintf("PLAYER s%d@players.test Solo%d\n", i, i)
		}
		if lines, err := s.r.Organise(org, text); err != nil || !strings.Contains(strings.Join(lines, "\n"), "created game "+id) {
			t.Fatalf("%s: %v %v", game, lines, err)
		}
		g, err := s.r.GameRecord(id)
		if err != nil {
			t.Fatal(err)
		}
		for seat, st := range g.Seats {
			out, err := s.r.Process(context.Background(), referee.Request{From: st.Address, Kind: "seat", Game: id, Seat: seat,
				Secret: st.Secret, Token: -1, Text: "JOIN", SenderVerified: true, Source: "test",
				MessageID: fmt.Sprintf("<join%d-%s@players.test>", seat, id), Keys: []string{fmt.Sprintf("msgid:<join%d-%s@players.test>", seat, id)}})
			if err != nil {
				t.Fatalf("%s: JOIN: %v %+v", game, err, out)
			}
		}
		lines, err := s.r.Organise(org, "PUBLISH "+id)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`/g/\S+`).FindString(strings.Join(lines, " "))
		if m == "" {
			t.Fatalf("%s: no page address in %v", game, lines)
		}
		page := getLang(t, s.srv.URL+strings.TrimRight(m, ".,;"), "")
		svg := boardOf(t, page)
		if !strings.Contains(svg, "Solo0") || !strings.Contains(svg, "Solo1") {
			t.Errorf("%s: the single game's board does not name its players:\n%s", game, svg)
		}
	}
}

// playByMail lets bots answer the game's waiting decisions by mail, one
// message at a time, for up to n messages (the round of a tournament goes
// on as it would).
func playByMail(t *testing.T, r *referee.Referee, gid string, n int) int {
	t.Helper()
	rng := mrand.New(mrand.NewPCG(16, 16))
	sent := 0
	for k := 0; k < n; k++ {
		g, err := r.GameRecord(gid)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := engine.LoadTable(g.Table, nil)
		if err != nil {
			t.Fatal(err)
		}
		waiting := tb.Waiting()
		if len(waiting) == 0 || tb.State.Result() != nil {
			break
		}
		d := waiting[0]
		lines, err := engine.BotAnswer(tb.State, d.Seat, d.Group, engine.RandomBot{}, rng)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) == 0 {
			break
		}
		st := g.Seats[d.Seat]
		id := fmt.Sprintf("<bot%d-%s@players.test>", k, gid)
		if _, err := r.Process(context.Background(), referee.Request{From: st.Address, Kind: "seat", Game: gid, Seat: d.Seat,
			Secret: st.Secret, Token: tb.Token(), Text: strings.Join(lines, "\n"), SenderVerified: true, Source: "test",
			MessageID: id, Keys: []string{"msgid:" + id}}); err != nil {
			t.Fatal(err)
		}
		sent++
	}
	return sent
}

// TestGamePageBoardsShowNoHiddenInformation: tournament games played on
// by mail for a while; on each game page's board, no word that one seat
// sees and spectators do not (a hand, a sealed answer, a face-down card,
// a private die) appears, and a Fromage token placed in a turn still
// sealed is not drawn.
func TestGamePageBoardsShowNoHiddenInformation(t *testing.T) {
	s := newSite(t)
	pages := s.gamePages(t)
	for _, game := range boards.Games() {
		u := pages[game]
		gid := strings.TrimPrefix(u, "/g/")
		gid = gid[:strings.LastIndexByte(gid, '-')]
		sent := playByMail(t, s.r, gid, 25)
		svg := boardOf(t, getLang(t, s.srv.URL+u, ""))
		words := map[string]bool{}
		for _, w := range regexp.MustCompile(`[\pL\pN_]+`).FindAllString(svg, -1) {
			words[w] = true
		}
		g, err := s.r.GameRecord(gid)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := engine.LoadTable(g.Table, nil)
		if err != nil {
			t.Fatal(err)
		}
		pj, _ := json.Marshal(tb.State.View(-1))
		checked := 0
		for seat := range g.Seats {
			sj, _ := json.Marshal(tb.State.View(seat))
			var sv any
			json.Unmarshal(sj, &sv)
			mine := map[string]bool{}
			valueLeaves(menuCommandsOnly(sv), mine)
			for x := range mine {
				if len(x) < 3 || strings.Contains(string(pj), x) {
					continue
				}
				checked++
				if words[x] || (strings.Contains(x, " ") && strings.Contains(svg, x)) {
					t.Errorf("%s (%s): seat %d's hidden %q is on the board", gid, game, seat, x)
				}
			}
		}
		sealed := 0
		if pub, ok := tb.State.View(-1).(fromage.View); ok {
			for seat := range g.Seats {
				sv := tb.State.View(seat).(fromage.View)
				for i, ve := range sv.Venues {
					for j, sp := range ve.Spaces {
						if sp.Owner == pub.Venues[i].Spaces[j].Owner {
							continue
						}
						sealed++
						open := `<g class="fr-space" data-space="` + sp.ID + `">`
						k := strings.Index(svg, open)
						if k < 0 {
							t.Fatalf("no space %s on the board", sp.ID)
						}
						if end := strings.Index(svg[k:], "</g>"); strings.Contains(svg[k:k+end], `class="seat`+strconv.Itoa(seat)+`"`) {
							t.Errorf("%s: seat %d's sealed token on %s is on the board", gid, seat, sp.ID)
						}
					}
				}
			}
		}
		t.Logf("%s (%s): %d messages by mail, %d hidden values checked on the board, %d sealed placements", gid, game, sent, checked, sealed)
	}
}

// valueLeaves collects the strings of a JSON value (not its keys, which
// are field names, not information).
// menuCommandsOnly keeps, of a seat view's "menu" (Brew Crafters: each
// legal answer of the reader described in words, issue 22), only the
// answers' commands: the descriptions are the ruleset's public catalogue
// (a card's name, cost and effect, a group such as "ingredients"), which a
// page shows for public reasons too; what a menu can betray is which
// answers the seat has, and those commands stay checked.
func menuCommandsOnly(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	menu, ok := m["menu"].(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
	}
	cmds := make([]any, 0, len(menu))
	for c := range menu {
		cmds = append(cmds, c)
	}
	out["menu"] = cmds
	return out
}

func valueLeaves(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, y := range x {
			valueLeaves(y, out)
		}
	case []any:
		for _, y := range x {
			valueLeaves(y, out)
		}
	case string:
		out[x] = true
	}
}
