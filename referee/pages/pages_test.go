package pages

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/store"
)

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

type counter struct{ n byte }

func (c *counter) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n
	}
	return len(p), nil
}

const org = "olga@example.test"

// site is a referee with one tournament per registered game, round 1
// under way, and its pages on a test server.
type site struct {
	r     *referee.Referee
	srv   *httptest.Server
	tours map[string]string // game -> tournament id
}

func newSite(t testing.TB) *site {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r, err := referee.New(referee.Options{DB: db, Domain: "example.test", Clock: fixedClock{time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)},
		Compose: func(m *referee.Outgoing) ([]byte, error) { return json.Marshal(m) }, Random: &counter{}})
	if err != nil {
		t.Fatal(err)
	}
	s := &site{r: r, tours: map[string]string{}}
	for k, eg := range engine.Games() {
		info := eg.Info()
		id := fmt.Sprintf("cup%d", k+1)
		table := 2
		if !info.Allows("", 2) {
			table = info.NearestPlayers(3)
		}
		text := fmt.Sprintf("NEW TOURNAMENT %s game=%s rounds=2 table=%d public\n", id, info.Name, table)
		for i := 0; i < 2*table+1; i++ {
			text += fmt.Sprintf("ENTER %s p%d@players.test Player%d\n", id, i, i)
		}
		text += "START " + id + "\n"
		lines, err := r.Organise(org, text)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(lines, "\n"), id+" started") {
			t.Fatalf("%s: %v", info.Name, lines)
		}
		s.tours[info.Name] = id
	}
	mux := http.NewServeMux()
	Register(mux, r, nil)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *site) tourURL(t testing.TB, game string) string {
	t.Helper()
	lines, err := s.r.Organise(org, "PUBLISH "+s.tours[game])
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`/t/\S+`).FindString(strings.Join(lines, " "))
	if m == "" {
		t.Fatalf("no page address in %v", lines)
	}
	return s.srv.URL + m
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// hrefRe finds the game links of a page (their path; every link carries
// the page's language, ?lang=xx).
var hrefRe = regexp.MustCompile(`href="(/g/[^"?]+)(?:\?lang=[a-z]+)?"`)

// TestPagesAddressesAndNoScript: pages need their key; the index lists
// only listed tournaments; no page carries a script.
func TestPagesAddressesAndNoScript(t *testing.T) {
	s := newSite(t)
	for game := range s.tours {
		u := s.tourURL(t, game)
		code, body := get(t, u)
		if code != 200 || !strings.Contains(body, `id="standings"`) {
			t.Fatalf("%s: %d\n%s", u, code, body)
		}
		if strings.Contains(strings.ToLower(body), "<script") {
			t.Fatalf("%s has a script", u)
		}
		// A wrong key, or none, is a 404 like an unknown tournament.
		for _, bad := range []string{u[:len(u)-1] + "x", strings.SplitN(u, "-", 2)[0], s.srv.URL + "/t/nosuch-abc"} {
			if code, _ := get(t, bad); code != 404 {
				t.Errorf("%s: %d, want 404", bad, code)
			}
		}
		links := hrefRe.FindAllStringSubmatch(body, -1)
		if len(links) == 0 {
			t.Fatalf("%s: no game links", u)
		}
		for _, l := range links {
			code, gbody := get(t, s.srv.URL+l[1])
			if code != 200 || !strings.Contains(gbody, `id="summary"`) || strings.Contains(strings.ToLower(gbody), "<script") {
				t.Fatalf("%s: %d\n%s", l[1], code, gbody)
			}
			if code, _ := get(t, s.srv.URL+l[1][:len(l[1])-2]+"00"); code != 404 {
				t.Errorf("game page with a wrong key: %d", code)
			}
		}
	}
	_, idx := get(t, s.srv.URL+"/t/")
	if strings.Contains(idx, "cup1") {
		t.Fatalf("unlisted tournament in the index:\n%s", idx)
	}
	s.r.Organise(org, "PUBLISH cup1 listed")
	if _, idx = get(t, s.srv.URL+"/t/"); !strings.Contains(idx, "cup1") {
		t.Fatalf("listed tournament missing from the index:\n%s", idx)
	}
	u := s.tourURL(t, "dicebrewing")
	s.r.Organise(org, "PUBLISH "+s.tours["dicebrewing"]+" off")
	if code, _ := get(t, u); code != 404 {
		t.Fatalf("unpublished page: %d, want 404", code)
	}
}

// leaves collects the strings and numbers of a JSON value.
func leaves(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, y := range x {
			out[k] = true
			leaves(y, out)
		}
	case []any:
		for _, y := range x {
			leaves(y, out)
		}
	case string:
		out[x] = true
	}
}

// TestPagesShowNoHiddenInformation: for every registered game, nothing a
// single seat sees but spectators do not (cards in hand, sealed answers)
// appears on the game's page, nor does any seed before the end.
func TestPagesShowNoHiddenInformation(t *testing.T) {
	s := newSite(t)
	for game := range s.tours {
		_, body := get(t, s.tourURL(t, game))
		for _, l := range hrefRe.FindAllStringSubmatch(body, -1) {
			_, page := get(t, s.srv.URL+l[1])
			gid := strings.TrimPrefix(l[1], "/g/")
			gid = gid[:strings.LastIndexByte(gid, '-')]
			g, err := s.r.GameRecord(gid)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(page, g.Seed) {
				t.Fatalf("%s: the seed of a running game is on its page", gid)
			}
			eg, _ := engine.Lookup(g.Game)
			tb, err := engine.LoadTable(g.Table, nil)
			if err != nil {
				t.Fatal(err)
			}
			public := map[string]bool{}
			pj, _ := json.Marshal(tb.State.View(-1))
			var pv any
			json.Unmarshal(pj, &pv)
			leaves(pv, public)
			hidden := 0
			for seat := range g.Seats {
				sj, _ := json.Marshal(tb.State.View(seat))
				var sv any
				json.Unmarshal(sj, &sv)
				mine := map[string]bool{}
				leaves(menuCommandsOnly(sv), mine)
				for x := range mine {
					if public[x] || len(x) < 5 || strings.Contains(string(pj), x) {
						continue
					}
					hidden++
					if strings.Contains(page, x) {
						t.Errorf("%s (%s): seat %d's hidden %q is on the public page", gid, eg.Info().Name, seat, x)
					}
				}
			}
			t.Logf("%s (%s): %d hidden values checked", gid, game, hidden)
		}
	}
}

// chromiumBin finds headless Chromium, or skips the test.
func chromiumBin(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (apt-get install chromium): the browser test is skipped")
	return ""
}

// TestPagesSecurityHeaders (issue 23): every answer of the pages, a page
// or an error, says not to sniff its type and never to frame it; an error
// is not stored, a page only by the reader's browser, asked again each
// time (issue 24: its ETag makes that a 304).
func TestPagesSecurityHeaders(t *testing.T) {
	s := newSite(t)
	u := s.tourURL(t, "dicebrewing")
	_, body := get(t, u)
	links := hrefRe.FindAllStringSubmatch(body, -1)
	if len(links) == 0 {
		t.Fatal("no game link")
	}
	urls := []string{s.srv.URL + "/t/", u, s.srv.URL + links[0][1], u[:len(u)-1] + "x", s.srv.URL + "/t/nosuch-abc",
		s.srv.URL + "/g/nosuch-abc"}
	for _, x := range urls {
		resp, err := http.Get(x)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		caching := "no-store"
		if resp.StatusCode == 200 {
			caching = pageCaching
		}
		if h.Get("Cache-Control") != caching || h.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") ||
			!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("%s (%d): Cache-Control %q, X-Content-Type-Options %q, CSP %q", x, resp.StatusCode,
				h.Get("Cache-Control"), h.Get("X-Content-Type-Options"), h.Get("Content-Security-Policy"))
		}
	}
}
