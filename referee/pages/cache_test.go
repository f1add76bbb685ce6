package pages

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/templates"
)

// cachedSite is a site whose pages handler the test holds (its renders
// are counted).
func cachedSite(t testing.TB, s *site) (*handler, *httptest.Server) {
	h := newHandler(s.r, nil)
	mux := http.NewServeMux()
	register(mux, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return h, srv
}

func do(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestPagesRenderedOncePerChange (issue 24): a page asked again is
// answered from the kept bytes until the records change; its ETag makes a
// repeated request a 304; a change renders it again under a new ETag; a
// page in another language is another page.
func TestPagesRenderedOncePerChange(t *testing.T) {
	s := newSite(t)
	u := s.tourURL(t, "dicebrewing")
	h, srv := cachedSite(t, s)
	path := strings.TrimPrefix(u, s.srv.URL)
	get1 := func(hdr ...string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		return do(t, req)
	}
	r1, b1 := get1()
	r2, b2 := get1()
	if r1.StatusCode != 200 || !bytes.Equal(b1, b2) || h.cache.Renders() != 1 {
		t.Fatalf("two requests: %d, same bytes %v, %d renders", r1.StatusCode, bytes.Equal(b1, b2), h.cache.Renders())
	}
	etag := r1.Header.Get("ETag")
	if etag == "" || r2.Header.Get("ETag") != etag || r1.Header.Get("Last-Modified") == "" || r1.Header.Get("Cache-Control") != pageCaching {
		t.Fatalf("headers %v", r1.Header)
	}
	if r, b := get1("If-None-Match", etag); r.StatusCode != http.StatusNotModified || len(b) != 0 {
		t.Fatalf("If-None-Match: %d, %d bytes", r.StatusCode, len(b))
	}
	if r, b := get1("If-None-Match", etag, "Accept-Encoding", "gzip"); r.StatusCode != http.StatusNotModified || len(b) != 0 {
		t.Fatalf("If-None-Match, gzip accepted: %d, %d bytes", r.StatusCode, len(b))
	}
	if r, b := get1("Range", "bytes=0-9"); r.StatusCode != 200 || !bytes.Equal(b, b1) {
		t.Fatalf("a range: %d, %d bytes", r.StatusCode, len(b))
	}
	if r, _ := get1("If-None-Match", `W/"other"`); r.StatusCode != 200 {
		t.Fatalf("another ETag: %d", r.StatusCode)
	}
	if r, _ := get1("Accept-Language", "fr"); r.Header.Get("Content-Language") != "fr" || r.Header.Get("ETag") == etag {
		t.Fatalf("French: %q %q", r.Header.Get("Content-Language"), r.Header.Get("ETag"))
	}
	// A change of the records (moves in a game): the game's page is made
	// again, under another ETag; the tournament's page is made again too
	// (any write may change it) and, the same bytes, keeps its ETag.
	game := hrefRe.FindStringSubmatch(string(b1))[1]
	gid := strings.TrimPrefix(game[:strings.LastIndexByte(game, '-')], "/g/")
	g1, _ := do(t, httptest.NewRequest("GET", srv.URL+game, nil).WithContext(t.Context()))
	n := h.cache.Renders()
	if playByMail(t, s.r, gid, 3) == 0 {
		t.Fatal("nothing played")
	}
	req, _ := http.NewRequest("GET", srv.URL+game, nil)
	req.Header.Set("If-None-Match", g1.Header.Get("ETag"))
	g2, _ := do(t, req)
	if g2.StatusCode != 200 || g2.Header.Get("ETag") == g1.Header.Get("ETag") || h.cache.Renders() != n+1 {
		t.Fatalf("game page after moves: %d, ETag %q (was %q), renders %d (was %d)", g2.StatusCode, g2.Header.Get("ETag"), g1.Header.Get("ETag"), h.cache.Renders(), n)
	}
	if r3, _ := get1("If-None-Match", etag); r3.StatusCode != http.StatusNotModified || h.cache.Renders() != n+2 {
		t.Fatalf("tournament page after moves: %d, renders %d (was %d)", r3.StatusCode, h.cache.Renders(), n)
	}
}

// TestPagesGzipped (issue 24): a client that takes gzip gets the page
// gzipped (gorilla/handlers), the same bytes once inflated; one that does
// not gets them plain.
func TestPagesGzipped(t *testing.T) {
	s := newSite(t)
	u := s.tourURL(t, "dicebrewing")
	for _, path := range []string{u, s.srv.URL + "/t/", u + "/crosstable", u + "/p/1"} {
		req, _ := http.NewRequest("GET", path, nil)
		plainResp, plain := do(t, req)
		req, _ = http.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, zipped := do(t, req)
		if plainResp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || plainResp.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s: %d, Content-Encoding %q / plain %q", path, plainResp.StatusCode, resp.Header.Get("Content-Encoding"), plainResp.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped))
		if err != nil {
			t.Fatal(err)
		}
		inflated, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(inflated, plain) {
			t.Fatalf("%s: inflated %d bytes (%v), plain %d", path, len(inflated), err, len(plain))
		}
		if len(zipped) >= len(plain) {
			t.Errorf("%s: gzipped %d bytes of %d", path, len(zipped), len(plain))
		}
		if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("%s: Vary %v", path, resp.Header.Values("Vary"))
		}
	}
}

var linkRe = regexp.MustCompile(`href="(/[^"]*)"`)

// TestPagesKeepTheLanguage (issue 24): on every page in every language,
// each link to another page carries the page's language; the crosstable
// and the players' pages are reached from the tournament's page and link
// back; a player's page names their games; a wrong key or number is 404.
func TestPagesKeepTheLanguage(t *testing.T) {
	s := newSite(t)
	if _, err := s.r.Organise(org, "PUBLISH cup1 listed"); err != nil {
		t.Fatal(err)
	}
	tour := strings.TrimPrefix(s.tourURL(t, "dicebrewing"), s.srv.URL)
	for _, lang := range templates.Languages {
		seen := map[string]bool{}
		queue := []string{"/t/?lang=" + lang, tour + "?lang=" + lang}
		for len(queue) > 0 && len(seen) < 40 {
			u := queue[0]
			queue = queue[1:]
			if seen[u] {
				continue
			}
			seen[u] = true
			code, body := get(t, s.srv.URL+u)
			if code != 200 {
				t.Fatalf("%s: %d", u, code)
			}
			if !strings.Contains(body, `<html lang="`+lang+`">`) {
				t.Errorf("%s: not in %s", u, lang)
			}
			for _, m := range linkRe.FindAllStringSubmatch(body, -1) {
				l := m[1]
				if !strings.HasSuffix(l, "?lang="+lang) {
					t.Errorf("%s: link %s drops the language", u, l)
					continue
				}
				if !strings.Contains(l, ".csv") && !strings.Contains(l, ".trf") && !strings.Contains(l, ".ics") {
					queue = append(queue, l)
				}
			}
		}
		var cross, player bool
		for u := range seen {
			cross = cross || strings.Contains(u, "/crosstable?")
			player = player || strings.Contains(u, "/p/")
		}
		if !cross || !player {
			t.Errorf("%s: crosstable reached %v, a player's page %v (%d pages)", lang, cross, player, len(seen))
		}
	}
	_, body := get(t, s.srv.URL+tour+"/p/1")
	for _, want := range []string{`id="games"`, "Player0", `id="standing"`, "/g/"} {
		if !strings.Contains(body, want) {
			t.Errorf("player page lacks %q:\n%s", want, body)
		}
	}
	_, body = get(t, s.srv.URL+tour+"/crosstable")
	if !strings.Contains(body, `id="crosstable"`) || strings.Count(body, `/p/`) < 5 {
		t.Errorf("crosstable:\n%s", body)
	}
	// A person's page (issue 24): place 1 never changed hands, so its one
	// holder's page is served and there is no second.
	if code, body := get(t, s.srv.URL+tour+"/p/1/1"); code != 200 || !strings.Contains(body, `id="held"`) || !strings.Contains(body, "Player0") {
		t.Errorf("%s/p/1/1: %d\n%s", tour, code, body)
	}
	for _, bad := range []string{tour + "/p/0", tour + "/p/99", tour + "/p/01", tour + "/p/x", tour[:len(tour)-1] + "x/p/1", tour[:len(tour)-1] + "x/crosstable",
		tour + "/p/1/2", tour + "/p/1/0", tour + "/p/1/01", tour + "/p/1/x", tour + "/p/0/1", tour[:len(tour)-1] + "x/p/1/1"} {
		if code, _ := get(t, s.srv.URL+bad); code != 404 {
			t.Errorf("%s: %d, want 404", bad, code)
		}
	}
}

// TestFinishedGameShowsEachPlaceOnce (issue 24: "1. 1. Ann"): a game
// played to its end shows each player's place once, in the list, with
// their score; the player's page has their result and a rating after the
// round.
func TestFinishedGameShowsEachPlaceOnce(t *testing.T) {
	s := newSite(t)
	tour := s.tourURL(t, "dicebrewing")
	_, body := get(t, tour)
	game := hrefRe.FindStringSubmatch(body)[1]
	gid := strings.TrimPrefix(game[:strings.LastIndexByte(game, '-')], "/g/")
	playByMail(t, s.r, gid, 40)
	if lines, err := s.r.Organise(org, "ADJUDICATE "+gid); err != nil || !strings.Contains(strings.Join(lines, " "), "scored as it stands") {
		t.Fatalf("ADJUDICATE: %v %v", lines, err)
	}
	_, page := get(t, s.srv.URL+game)
	list := regexp.MustCompile(`(?s)<ol id="result" class="result">(.*?)</ol>`).FindStringSubmatch(page)
	if list == nil {
		t.Fatalf("no result on the finished game's page:\n%s", page)
	}
	items := regexp.MustCompile(`<li>([^<]*)</li>`).FindAllStringSubmatch(list[1], -1)
	if len(items) != 2 {
		t.Fatalf("result %q", list[1])
	}
	for _, it := range items {
		if !regexp.MustCompile(`^[12]\. Player\d+, -?\d+ points?$`).MatchString(it[1]) {
			t.Errorf("result line %q: the place once, the name, the score", it[1])
		}
	}
	// The board and the result come before the summary and the log.
	if i, j := strings.Index(page, `id="result"`), strings.Index(page, `id="summary"`); i < 0 || j < i {
		t.Errorf("result after the summary")
	}
	_, tp := get(t, tour)
	players := regexp.MustCompile(`href="(/t/[^"?]+/p/\d+)\?lang=en">`).FindAllStringSubmatch(tp, -1)
	found := false
	for _, p := range players {
		_, pp := get(t, s.srv.URL+p[1])
		if strings.Contains(pp, ">won, ") || strings.Contains(pp, ">lost, ") || strings.Contains(pp, ">drawn, ") {
			found = true
		}
	}
	if !found {
		t.Errorf("no player's page shows the finished game's result")
	}
	// The round's other games adjudicated too: the round is over, every
	// player's page has a rating after it, and the crosstable has each
	// result's code.
	for _, l := range hrefRe.FindAllStringSubmatch(tp, -1) {
		g := strings.TrimPrefix(l[1][:strings.LastIndexByte(l[1], '-')], "/g/")
		if g != gid {
			s.r.Organise(org, "ADJUDICATE "+g)
		}
	}
	for _, p := range players {
		_, pp := get(t, s.srv.URL+p[1])
		if !regexp.MustCompile(`<table id="history">.*?<td class="n">1</td><td class="n"><span class="nw">1\d\d\d</span></td>`).MatchString(strings.ReplaceAll(pp, "\n", "")) {
			t.Errorf("%s: no rating after round 1:\n%s", p[1], pp)
		}
	}
	_, cross := get(t, strings.TrimSuffix(tour, "?lang=en")+"/crosstable")
	if !regexp.MustCompile(`<td class="cell" data-k="R1">\d[wb] [10=]a?</td>`).MatchString(cross) || !regexp.MustCompile(`<td class="cell" data-k="R\d">U</td>`).MatchString(cross) {
		t.Errorf("crosstable without results:\n%s", cross)
	}
}

// BenchmarkTournamentPage: a tournament page of 64 entrants asked for
// again and again, rendered on every request (render) or kept until the
// records change (kept), gzipped as a browser asks.
func BenchmarkTournamentPage(b *testing.B) {
	s := newBenchSite(b, 64)
	benchPage(b, s.site, s.path)
}

// BenchmarkGamePage: a Heaven & Ale game's page (its board drawn) asked
// for again and again, rendered each time or kept.
func BenchmarkGamePage(b *testing.B) {
	s := newSite(b)
	lines, err := s.r.Organise(org, "PUBLISH "+s.tours["heavenale"])
	if err != nil {
		b.Fatal(err)
	}
	tour := regexp.MustCompile(`/t/\S+`).FindString(strings.Join(lines, " "))
	mux := http.NewServeMux()
	Register(mux, s.r, nil)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", tour, nil))
	benchPage(b, s, hrefRe.FindStringSubmatch(rec.Body.String())[1])
}

func benchPage(b *testing.B, s *site, path string) {
	for _, kept := range []bool{false, true} {
		name := "render"
		if kept {
			name = "kept"
		}
		b.Run(name, func(b *testing.B) {
			h, srv := cachedSite(b, s)
			if !kept {
				h.cache = nil
			}
			mux := http.NewServeMux()
			register(mux, h)
			srv.Close()
			req := httptest.NewRequest("GET", path, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				mux.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

type benchSite struct {
	*site
	path string
}

// newBenchSite is a site with one more tournament of n entrants, round 1
// drawn.
func newBenchSite(b *testing.B, n int) *benchSite {
	s := newSite(b)
	text := "NEW TOURNAMENT big game=dicebrewing rounds=5 table=2 public\n"
	for i := 0; i < n; i++ {
		text += fmt.Sprintf("ENTER big e%d@players.test Entrant%d\n", i, i)
	}
	text += "START big\nPUBLISH big\n"
	lines, err := s.r.Organise(org, text)
	if err != nil {
		b.Fatal(err)
	}
	m := regexp.MustCompile(`/t/big-\S+`).FindString(strings.Join(lines, " "))
	if m == "" {
		b.Fatalf("no page: %v", lines)
	}
	return &benchSite{site: s, path: m}
}

// FuzzPageAddresses: any address under the pages, with any language and
// validators, is a page (200 or 304) or 404, never an error or a panic;
// an answer of 200 is in the asked language when that is one of ours.
func FuzzPageAddresses(f *testing.F) {
	s := newSite(f)
	tour := strings.TrimPrefix(s.tourURL(f, "dicebrewing"), s.srv.URL)
	h, _ := cachedSite(f, s)
	mux := http.NewServeMux()
	register(mux, h)
	for _, seed := range []string{tour, tour + "/crosstable", tour + "/p/1", tour + "/p/-1", tour + "/p/1e3", "/t/", "/g/x-y", tour + "x", "/t/-", "/t/a-b/p/"} {
		f.Add(seed, "fr", "")
	}
	f.Fuzz(func(t *testing.T, path, lang, inm string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?# \t\r\n") {
			return
		}
		req, err := http.NewRequest("GET", "http://x"+path+"?lang="+url.QueryEscape(lang), nil)
		if err != nil {
			return
		}
		if inm != "" && !strings.ContainsAny(inm, "\r\n") {
			req.Header.Set("If-None-Match", inm)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		switch rec.Code {
		case 200:
			if templates.IsLanguage(lang) && rec.Header().Get("Content-Language") != lang && !strings.HasSuffix(req.URL.Path, ".csv") &&
				!strings.HasSuffix(req.URL.Path, ".ics") && !strings.HasSuffix(req.URL.Path, ".trf") {
				t.Errorf("%s in %s: Content-Language %q", path, lang, rec.Header().Get("Content-Language"))
			}
		case 304, 404, 301, 307, 308, 405:
		default:
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	})
}
