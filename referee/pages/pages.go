package pages

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/handlers"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/pages/boards"
	"github.com/pbem-referee/referee/templates"
)

// Source is what the pages read (the Referee): each page in the reader's
// language. A Source that is also Versioned has its pages rendered once
// per change (cache.go).
type Source interface {
	TournamentPage(slug, lang string) (*referee.TournamentPage, error)
	GamePage(slug, lang string) (*referee.GamePage, error)
	CrossPage(slug string) (*referee.CrossPage, error)
	PlayerPage(slug string, n int) (*referee.PlayerPage, error)
	PersonPage(slug string, n, k int) (*referee.PersonPage, error)
	ListedTournaments() ([]referee.TournamentLink, error)
	ListedGames() ([]referee.GameLink, error)
	TournamentFile(slug, name, lang string) (*referee.TournamentFile, error)
}

// Register adds the pages to mux: /t/ (the listed tournaments), /t/<id>-<key>,
// its crosstable /t/<id>-<key>/crosstable, a player's page
// /t/<id>-<key>/p/<n>, the page of each person who held a place
// /t/<id>-<key>/p/<n>/<k>, its files /t/<id>-<key>/<name> (files.go) and
// /g/<game>-<key>. Every answer is gzipped for a client that takes it
// (gorilla/handlers).
func Register(mux *http.ServeMux, src Source, log *slog.Logger) {
	register(mux, newHandler(src, log))
}

func newHandler(src Source, log *slog.Logger) *handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &handler{src: src, log: log, cache: newPageCache()}
}

func register(mux *http.ServeMux, h *handler) {
	mux.Handle("GET /t/{$}", guarded(h.index))
	mux.Handle("GET /t/{slug}", guarded(h.tournament))
	mux.Handle("GET /t/{slug}/crosstable", guarded(h.crosstable))
	mux.Handle("GET /t/{slug}/p/{n}", guarded(h.player))
	mux.Handle("GET /t/{slug}/p/{n}/{k}", guarded(h.person))
	mux.Handle("GET /t/{slug}/{file}", guarded(h.file))
	mux.Handle("GET /g/{slug}", guarded(h.game))
}

// The headers of every page and every error answer (issue 23): never
// sniffed into another type, never framed, no script, no referrer
// leaking the page key. An error is not stored (no-store); a page is
// kept by the reader's browser only and asked again each time (private,
// no-cache: its address is its key, its content live), which its ETag
// answers with 304 when nothing changed (issue 24).
const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// pageCaching is the Cache-Control of a page (an error's is no-store).
const pageCaching = "private, no-cache"

func guarded(h http.HandlerFunc) http.Handler {
	return handlers.CompressHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", pageCSP)
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		h(w, r)
	}))
}

type handler struct {
	src   Source
	log   *slog.Logger
	cache *pageCache // nil: every request renders
}

var loadSet = sync.OnceValues(templates.Load)

// doc is what a page's template receives: the page's data (P), its
// reader's language and the links to the page in the other languages.
type doc struct {
	P     any
	Lang  string
	Langs []langLink
	set   *templates.Set
}

type langLink struct{ Code, Name string }

// T renders the word template name of the "pages" scope in the page's
// language; data is the Ctx's Data (one value, or key/value pairs).
func (d *doc) T(name string, data ...any) (string, error) {
	var v any
	switch {
	case len(data) == 1:
		v = data[0]
	case len(data) > 1:
		m := map[string]any{}
		for i := 0; i+1 < len(data); i += 2 {
			m[fmt.Sprint(data[i])] = data[i+1]
		}
		v = m
	}
	return d.set.Render("pages", d.Lang, name, templates.Ctx{Lang: d.Lang, Seat: -1, Data: v})
}

// Href is a link to another page in this page's language: the reader's
// choice of language goes from link to link.
func (d *doc) Href(u string) string {
	if u == "" {
		return ""
	}
	return u + "?lang=" + d.Lang
}

// serve answers a page: from the kept bytes when the records did not
// change since they were rendered, else load's data laid out by the
// template name in the reader's language. The ETag and Last-Modified
// come with it; http.ServeContent answers If-None-Match (and
// If-Modified-Since) with 304. Every page varies by the reader's
// Accept-Language.
func (h *handler) serve(w http.ResponseWriter, r *http.Request, name string, load func(lang string) (any, error)) {
	w.Header().Add("Vary", "Accept-Language")
	lang := readerLang(r)
	mk := func() (*rendered, error) {
		data, err := load(lang)
		if err != nil {
			return nil, err
		}
		body, err := h.render(name, lang, data)
		if err != nil {
			return nil, err
		}
		return &rendered{body: body, etag: etagOf(body), lang: lang, mod: time.Now().UTC().Truncate(time.Second)}, nil
	}
	var p *rendered
	var err error
	if vs, ok := h.src.(Versioned); ok && h.cache != nil {
		p, err = h.cache.render(name+"\x00"+r.URL.Path+"\x00"+lang, vs.PagesVersion(), mk)
	} else {
		p, err = mk()
	}
	if err != nil {
		h.failed(w, lang, name, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("X-Robots-Tag", "noindex")
	hd.Set("Content-Language", p.lang)
	hd.Set("Cache-Control", pageCaching)
	hd.Set("ETag", p.etag)
	// No ranges of a page: a range of the plain bytes would be sent
	// gzipped.
	r.Header.Del("Range")
	http.ServeContent(w, r, "", p.mod, bytes.NewReader(p.body))
}

// render lays a page out in lang.
func (h *handler) render(name, lang string, data any) ([]byte, error) {
	set, err := loadSet()
	if err != nil {
		return nil, err
	}
	d := &doc{P: data, Lang: lang, set: set}
	for _, l := range templates.Languages {
		if l != lang {
			n, _ := set.Render("pages", l, "lang.name", templates.Ctx{Lang: l, Seat: -1})
			d.Langs = append(d.Langs, langLink{Code: l, Name: n})
		}
	}
	var b bytes.Buffer
	if err := page.ExecuteTemplate(&b, name, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// failed answers a page that could not be had: 404 for no page at the
// address, 500 (and a log line) for anything else.
func (h *handler) failed(w http.ResponseWriter, lang, name string, err error) {
	set, _ := loadSet()
	d := &doc{Lang: lang, set: set}
	if errors.Is(err, referee.ErrNoPage) {
		h.fail(w, d, "error.notfound", http.StatusNotFound)
		return
	}
	h.log.Warn("page", "page", name, "err", err)
	h.fail(w, d, "error.failed", http.StatusInternalServerError)
}

// fail answers an error in the reader's language, as plain text.
func (h *handler) fail(w http.ResponseWriter, d *doc, name string, code int) {
	msg := http.StatusText(code)
	if d.set != nil {
		if s, err := d.T(name); err == nil {
			msg = s
		}
	}
	w.Header().Set("Content-Language", d.Lang)
	http.Error(w, msg, code)
}

// write answers an error of a file's (files.go).
func (h *handler) write(w http.ResponseWriter, r *http.Request, name string, _ any, err error) {
	w.Header().Add("Vary", "Accept-Language")
	h.failed(w, readerLang(r), name, err)
}

type indexData struct {
	Tournaments []referee.TournamentLink
	Games       []referee.GameLink
}

func (h *handler) index(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, "index", func(string) (any, error) {
		ts, err := h.src.ListedTournaments()
		if err != nil {
			return nil, err
		}
		gs, err := h.src.ListedGames()
		return indexData{ts, gs}, err
	})
}

func (h *handler) tournament(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, "tournament", func(lang string) (any, error) {
		return h.src.TournamentPage(r.PathValue("slug"), lang)
	})
}

func (h *handler) crosstable(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, "crosstable", func(string) (any, error) {
		return h.src.CrossPage(r.PathValue("slug"))
	})
}

func (h *handler) player(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, "player", func(string) (any, error) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil || strconv.Itoa(n) != r.PathValue("n") {
			return nil, referee.ErrNoPage
		}
		return h.src.PlayerPage(r.PathValue("slug"), n)
	})
}

// person is the page of holder k of place n (playerpages_person.go).
func (h *handler) person(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, "person", func(string) (any, error) {
		n, err := strconv.Atoi(r.PathValue("n"))
		k, err2 := strconv.Atoi(r.PathValue("k"))
		if err != nil || err2 != nil || strconv.Itoa(n) != r.PathValue("n") || strconv.Itoa(k) != r.PathValue("k") {
			return nil, referee.ErrNoPage
		}
		return h.src.PersonPage(r.PathValue("slug"), n, k)
	})
}

func (h *handler) game(w http.ResponseWriter, r *http.Request) {
	h.serve(w, r, "game", func(lang string) (any, error) {
		p, err := h.src.GamePage(r.PathValue("slug"), lang)
		if err == nil {
			h.board(p, lang)
		}
		return p, err
	})
}

// board draws the game's board from its public view, when the game has
// one; a drawing that fails leaves the page without a board (and logs).
func (h *handler) board(p *referee.GamePage, lang string) {
	if p.SVG != nil || p.View == nil || !boards.Has(p.Game) {
		return
	}
	svg, err := boards.Draw(p.Game, lang, p.Players, p.View)
	if err != nil {
		h.log.Warn("board", "game", p.ID, "err", err)
		return
	}
	p.SVG = svg
}

// readerLang is the language of a page: ?lang=xx, else the first of the
// browser's Accept-Language that templates has, else English.
func readerLang(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); templates.IsLanguage(l) {
		return l
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		tag, _, _ = strings.Cut(strings.ToLower(tag), "-")
		if templates.IsLanguage(tag) {
			return tag
		}
	}
	return "en"
}

// page is the pages' HTML: structure only; every word comes from the
// "pages" templates (and the games' own) in the reader's language.
//
// The layout rules (issue 24), tested in Chromium at 360 and 1280 px:
// nothing is wider than a phone's screen (a wide table scrolls in its own
// box, long words break); W-D-L and numbers never wrap; the tie-breaks
// column gives way on a phone (the crosstable page has them); a game's
// board and result come before everything else and its log is folded
// (the latest entries shown), so that both are in the first screen; a
// finished game's place is written once; every title says what the page
// is; every link to another page keeps the reader's language.
var page = template.Must(template.New("pages").Funcs(template.FuncMap{
	"svg":  func(b []byte) template.HTML { return template.HTML(b) }, // the game's own drawing
	"head": func(d *doc, title string) headData { return headData{D: d, Lang: d.Lang, Title: title} },
	"last": func(n int, xs []string) []string { return xs[max(0, len(xs)-n):] },
	// foldRounds: a crosstable of more rounds than this is folded (a
	// line per player, the rounds wrapped under it) at every width; on
	// a phone every crosstable is.
	"foldRounds": func() int { return 7 },
	// keepRecord: the player's page with its W-D-L joined by
	// non-breaking hyphens, so that a sentence never breaks inside it.
	"keepRecord": keepRecord,
	// seatLinks names who played a seat's game of a round's table, each
	// name linking that person's page (PageMatch.PartURLs, PlayerURLs).
	"seatLinks": seatLinks,
	// playedLinks names who played a crosstable cell's game the same
	// way (CrossPageCell.Players, PlayedURLs: each their own page).
	"playedLinks": playedLinks,
	// byLinks says who played a place's round on its page ("played by",
	// player.by: PlayerGame.Played, PlayedURLs), each name linking that
	// person's page.
	"byLinks": byLinks,
	// nameLinks names who played an opponent's game the same way
	// (PageName.Part, PartURLs, then Name, URL).
	"nameLinks": nameLinks,
}).Parse(`
{{define "head"}}<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:0.5rem;line-height:1.4;overflow-wrap:anywhere}
h1{font-size:1.3rem;margin:0.2rem 0 0.4rem}h2{font-size:1.1rem;margin:0.9rem 0 0.3rem}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}td,th{padding:0.2rem 0.35rem;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}
th,td.n,.nw{white-space:nowrap}td.n,th.n{text-align:right}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.85rem;margin:0.2rem 0}
.w{color:#777}code{overflow-wrap:anywhere;word-break:break-all}
#board{margin:0 -0.5rem}#board svg{display:block;width:100%;height:auto;max-width:40rem;margin:0 auto}
.langs,nav{font-size:0.9rem}nav a{margin-right:0.6rem}
ol.result{list-style:none;padding:0;margin:0.2rem 0}ol.result li{font-size:1.05rem}
details{margin:0.4rem 0}summary{cursor:pointer;font-weight:600}
table.cross td{white-space:nowrap}table.cross td small.sub{display:block;white-space:normal;overflow-wrap:anywhere}
table.fold thead{display:none}table.fold,table.fold tbody,table.fold tr{display:block}
table.fold tr{border-bottom:1px solid #ddd;padding:0.15rem 0}table.fold td{display:inline-block;border:0;padding:0.1rem 0.6rem 0.1rem 0}
table.fold td[data-k]::before{content:attr(data-k) "\a0";color:#666;font-size:0.85rem}table.fold td.who{font-weight:600}
table.fold td.who{white-space:normal}
@media (max-width:40rem){.tb{display:none}td,th{padding:0.2rem 0.2rem}
table.cross td.who{white-space:normal}
table.cross thead{display:none}table.cross,table.cross tbody,table.cross tr{display:block}
table.cross tr{border-bottom:1px solid #ddd;padding:0.15rem 0}table.cross td{display:inline-block;border:0;padding:0.1rem 0.6rem 0.1rem 0}
table.cross td[data-k]::before{content:attr(data-k) "\a0";color:#666;font-size:0.85rem}table.cross td.who{font-weight:600}}
</style></head><body>
<p class="langs" id="langs">{{.D.T "langs"}} {{range .D.Langs}}<a href="?lang={{.Code}}" hreflang="{{.Code}}" lang="{{.Code}}">{{.Name}}</a> {{end}}</p>{{end}}

{{define "index"}}{{$d := .}}{{template "head" (head $d ($d.T "index.title"))}}{{with .P}}
<h1>{{$d.T "index.title"}}</h1>
<h2>{{$d.T "index.tournaments"}}</h2>
{{if not .Tournaments}}<p>{{$d.T "index.none"}}</p>{{else}}<ul id="tournaments">
{{range .Tournaments}}<li><a href="{{$d.Href .URL}}">{{.ID}}</a>: {{$d.T "index.tournament" "title" .Title "status" .Status "entrants" .Entrants}}</li>
{{end}}</ul>{{end}}
{{with .Games}}<h2>{{$d.T "index.games"}}</h2><ul id="games">
{{range .}}<li><a href="{{$d.Href .URL}}">{{.ID}}</a>: {{$d.T "index.game" "title" .Title "players" .Players "status" .Status}}</li>
{{end}}</ul>{{end}}{{end}}
</body></html>{{end}}

{{define "tournament"}}{{$d := .}}{{with .P}}{{template "head" (head $d ($d.T "title.tournament" .))}}
<h1 id="title">{{.ID}}: {{.Title}}</h1>
<nav><a id="crosslink" href="{{$d.Href .CrossURL}}">{{$d.T "tour.crosstable"}}</a>{{if .Exports}}<a href="#files">{{$d.T "tour.files"}}</a>{{end}}</nav>
<p id="rules">{{$d.T "tour.rules" .}}</p>
{{with .Calendar}}<h2>{{$d.T "tour.calendar"}}</h2>
<div class="scroll"><table id="calendar"><thead><tr><th class="n">{{$d.T "tour.round"}}</th><th>{{$d.T "tour.opens"}}</th><th>{{$d.T "tour.due"}}</th></tr></thead><tbody>
{{range .}}<tr{{if .Ended}} class="w"{{end}}><td class="n">{{.N}}</td><td>{{.Opens}}</td><td>{{.Due}}</td></tr>
{{end}}</tbody></table></div>{{end}}
<h2>{{$d.T "tour.standings"}}</h2>
{{if not .Standings}}<p>{{$d.T "tour.nobody"}}</p>{{end}}
<div class="scroll"><table id="standings"><thead><tr><th class="n">{{$d.T "tour.place"}}</th><th>{{$d.T "tour.player"}}</th><th class="n">{{$d.T "tour.points"}}</th><th class="nw">{{$d.T "tour.record"}}</th><th class="tb">{{$d.T "tour.tiebreaks"}}</th><th class="n">{{$d.T "tour.rating"}}</th></tr></thead><tbody>
{{range .Standings}}<tr{{if .Withdrawn}} class="w"{{end}}><td class="n">{{.Place}}</td><td><a href="{{$d.Href .URL}}">{{.Name}}</a>{{range .Replaced}} <small class="sub">{{$d.T "tour.replaced" .}}</small>{{end}}{{if .Withdrawn}} {{$d.T "tour.withdrawn"}}{{end}}</td><td class="n">{{.Points}}</td><td class="nw rec">{{.Record}}</td><td class="tb nw">{{range $i, $x := .Tiebreaks}}{{if $i}} · {{end}}{{$x}}{{end}}</td><td class="n">{{.Rating}}{{if .RatingAdjudicated}}*{{end}}</td></tr>
{{end}}</tbody></table></div>{{if .AdjudicatedRatings}}
<p id="ratingnote">* {{$d.T "tour.rating_adjudicated"}}</p>{{end}}
{{range .Pairings}}<h2>{{$d.T "tour.roundn" .N}}</h2>{{if .Due}}<p>{{$d.T "tour.duedate" .Due}}</p>{{end}}
<div class="scroll"><table class="round"><tbody>
{{range .Matches}}{{$m := .}}<tr><td class="n">{{.Table}}</td><td>{{range $i, $p := .Players}}{{if $i}} – {{end}}{{range seatLinks $d $m $i}}{{if .URL}}<a href="{{$d.Href .URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{end}}</td><td class="nw">{{if .Bye}}{{$d.T "tour.bye"}}{{else if .Result}}{{.Result}}{{if eq .State "forfeit"}} {{$d.T "tour.forfeit"}}{{end}}{{if eq .State "adjudicated"}} {{$d.T "tour.adjudicated"}}{{end}}{{else}}{{$d.T "tour.playing"}}{{end}}</td><td class="nw">{{if .GameURL}}<a href="{{$d.Href .GameURL}}">{{$d.T "tour.game"}}</a>{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}
{{with .Exports}}<h2>{{$d.T "tour.files"}}</h2>
<ul id="files">{{range .}}<li><a href="{{$d.Href .URL}}" download>{{$d.T "tour.file" .Name}}</a></li>
{{end}}</ul>{{end}}
<p>{{$d.T "tour.commitment"}}
<code id="commitment">{{.Commitment}}</code>{{if .Seed}}<br>{{$d.T "tour.seed"}} <code id="seed">{{.Seed}}</code>{{end}}</p>
{{end}}</body></html>{{end}}

{{define "crosstable"}}{{$d := .}}{{with .P}}{{template "head" (head $d ($d.T "title.crosstable" .))}}
<h1 id="title">{{$d.T "cross.heading" .}}</h1>
<nav><a id="tourlink" href="{{$d.Href .URL}}">{{$d.T "cross.back" .}}</a></nav>
<p>{{$d.T "cross.key" .}}</p>
<div class="scroll"><table id="crosstable" class="cross{{if gt (len .Rounds) foldRounds}} fold{{end}}"><thead><tr><th class="n">{{$d.T "cross.line"}}</th><th>{{$d.T "tour.player"}}</th><th class="n">{{$d.T "tour.points"}}</th>{{range .Tiebreaks}}<th class="n">{{$d.T "tiebreak.short" .}}</th>{{end}}{{range .Rounds}}<th>{{$d.T "cross.round" .}}</th>{{end}}</tr></thead><tbody>
{{$cp := .}}{{$pts := $d.T "tour.points"}}{{range .Lines}}<tr{{if .Withdrawn}} class="w"{{end}}><td class="n who">{{.Line}}</td><td class="who"><a href="{{$d.Href .URL}}">{{.Name}}</a>{{range .Replaced}} <small class="sub"><a class="holder" href="{{$d.Href .URL}}">{{$d.T "tour.replaced" .}}</a></small>{{end}}</td><td class="n" data-k="{{$pts}}">{{.Points}}</td>{{range $i, $x := .Tiebreaks}}<td class="n" data-k="{{$d.T "tiebreak.short" (index $cp.Tiebreaks $i)}}">{{$x}}</td>{{end}}{{range $i, $c := .Cells}}<td class="cell" data-k="{{if lt $i (len $cp.Rounds)}}{{$d.T "cross.round" (index $cp.Rounds $i)}}{{end}}">{{template "crosscell" $c}}{{with $c.Players}} <small class="sub">{{range playedLinks $d . $c.PlayedURLs}}{{if .URL}}<a class="by" href="{{$d.Href .URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</small>{{end}}</td>{{end}}</tr>
{{end}}</tbody></table></div>
{{end}}</body></html>{{end}}

{{define "crosscell"}}{{if .Seat}}{{range $i, $o := .Opponents}}{{if $i}} {{end}}{{$o}}{{end}}{{if eq (len .Opponents) 1}}{{if eq .Seat 1}}w{{else}}b{{end}}{{else}} s{{.Seat}}{{end}} {{.Result}}{{if .Adjudicated}}a{{end}}{{else}}{{.Result}}{{end}}{{end}}

{{define "player"}}{{$d := .}}{{with .P}}{{template "head" (head $d ($d.T "title.player" .))}}
<h1 id="title">{{.Name}}</h1>{{with .Replaced}}
<p id="replaced">{{range $i, $s := .}}{{if $i}} {{end}}<a class="holder" href="{{$d.Href $s.URL}}">{{$d.T "tour.replaced" $s}}</a>{{end}}</p>{{end}}
<nav><a id="tourlink" href="{{$d.Href .TourURL}}">{{$d.T "cross.back" .}}</a><a href="{{$d.Href .CrossURL}}">{{$d.T "tour.crosstable"}}</a></nav>
<p id="standing">{{$d.T "player.standing" (keepRecord .)}}</p>
<h2>{{$d.T "player.games"}}</h2>
{{if not .Games}}<p>{{$d.T "player.nogames"}}</p>{{else}}<div class="scroll"><table id="games"><thead><tr><th class="n">{{$d.T "tour.round"}}</th><th>{{$d.T "player.against"}}</th><th>{{$d.T "game.result"}}</th><th class="n">{{$d.T "tour.points"}}</th><th></th></tr></thead><tbody>
{{range .Games}}<tr><td class="n">{{.Round}}</td><td>{{if .Bye}}{{$d.T "tour.bye"}}{{else}}{{range $i, $o := .Opponents}}{{if $i}}, {{end}}{{range nameLinks $d $o.Part $o.PartURLs $o.Name $o.URL}}{{if .URL}}<a href="{{$d.Href .URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{end}}{{end}}{{if .Played}}<br><small class="sub">{{range byLinks $d .Played .PlayedURLs}}{{if .URL}}<a class="by" href="{{$d.Href .URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</small>{{end}}</td><td>{{$d.T "player.result" .}}</td><td class="n">{{.Points}}</td><td>{{if .GameURL}}<a href="{{$d.Href .GameURL}}">{{$d.T "tour.game"}}</a>{{end}}</td></tr>
{{end}}</tbody></table></div>{{end}}
<h2>{{$d.T "player.history"}}</h2>
{{if not .History}}<p>{{$d.T "player.nohistory"}}</p>{{else}}<p>{{$d.T "player.history_note" .}}</p>
<div class="scroll"><table id="history"><thead><tr><th class="n">{{$d.T "tour.round"}}</th><th class="n">{{$d.T "tour.rating"}}</th></tr></thead><tbody>
{{range .History}}<tr><td class="n">{{if .Round}}{{.Round}}{{else}}{{$d.T "player.start"}}{{end}}</td><td class="n"><span class="nw">{{with .Before}}{{.}} → {{end}}{{.Rating}}</span></td></tr>
{{end}}</tbody></table></div>{{end}}
{{end}}</body></html>{{end}}

{{define "person"}}{{$d := .}}{{with .P}}{{template "head" (head $d ($d.T "title.person" .))}}
<h1 id="title">{{.Name}}</h1>
<nav><a id="tourlink" href="{{$d.Href .TourURL}}">{{$d.T "cross.back" .}}</a><a href="{{$d.Href .CrossURL}}">{{$d.T "tour.crosstable"}}</a></nav>
<h2>{{$d.T "person.places"}}</h2>
<ul id="held">{{range .Held}}<li><a href="{{$d.Href .URL}}">{{$d.T "person.place" .}}</a>: {{$d.T "person.stint" .}}</li>
{{end}}</ul>
<h2>{{$d.T "player.games"}}</h2>
{{if not .Games}}<p>{{$d.T "player.nogames"}}</p>{{else}}<div class="scroll"><table id="games"><thead><tr><th class="n">{{$d.T "tour.round"}}</th><th>{{$d.T "player.against"}}</th><th>{{$d.T "game.result"}}</th><th class="n">{{$d.T "tour.points"}}</th><th></th></tr></thead><tbody>
{{range .Games}}<tr><td class="n">{{.Round}}</td><td>{{if .Bye}}{{$d.T "tour.bye"}}{{else}}{{range $i, $o := .Opponents}}{{if $i}}, {{end}}{{range nameLinks $d $o.Part $o.PartURLs $o.Name $o.URL}}{{if .URL}}<a href="{{$d.Href .URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{end}}{{end}}<br><small class="sub">{{$d.T "person.for" .}}{{if .Played}} {{range byLinks $d .Played .PlayedURLs}}{{if .URL}}<a class="by" href="{{$d.Href .URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}{{end}}</small></td><td>{{$d.T "player.result" .PlayerGame}}{{if .RatingAfter}}<br><span class="nw rating">{{with .RatingBefore}}{{.}} → {{end}}{{.RatingAfter}}</span>{{end}}</td><td class="n">{{.Points}}</td><td>{{if .GameURL}}<a href="{{$d.Href .GameURL}}">{{$d.T "tour.game"}}</a>{{end}}</td></tr>
{{end}}</tbody></table></div>
<p id="ratingnote">{{$d.T "person.rating"}}</p>{{end}}
{{end}}</body></html>{{end}}

{{define "game"}}{{$d := .}}{{with .P}}{{template "head" (head $d ($d.T "title.game" .))}}
<h1 id="title">{{.ID}}: {{.Title}}</h1>
{{if .Tournament}}<nav><a id="tourlink" href="{{$d.Href .TournamentURL}}">{{$d.T "game.tournament"}} {{.Tournament}}</a></nav>{{end}}
{{if .Result}}<h2>{{$d.T "game.result"}}{{if .Adjudicated}} {{$d.T "tour.adjudicated"}}{{end}}</h2><ol id="result" class="result">{{range .Result}}<li>{{$d.T "game.place" .}}</li>{{end}}</ol>{{end}}
{{if .SVG}}<div id="board" role="figure" aria-label="{{$d.T "game.board"}}">{{svg .SVG}}</div>{{end}}
<p>{{$d.T "game.players" .}} {{$d.T "game.status" .}}
{{if .Waiting}}{{$d.T "game.waiting" .}}{{end}}</p>
<details id="table"{{if not .SVG}} open{{end}}><summary>{{$d.T "game.table"}}</summary>
<pre id="summary">{{.Summary}}</pre></details>
<h2>{{$d.T "game.log"}}</h2>
{{if .Log}}<pre id="latest">{{range last 5 .Log}}{{.}}
{{end}}</pre>
<details id="logbox"><summary>{{$d.T "game.wholelog" (len .Log)}}</summary><pre id="log">{{range .Log}}{{.}}
{{end}}</pre></details>{{else}}<p id="log">{{$d.T "game.nolog"}}</p>{{end}}
{{end}}</body></html>{{end}}
`))

// headData is what the head of a page needs.
type headData struct {
	D     *doc
	Lang  string
	Title string
}

// linkPiece is a piece of a sentence: a name linking URL, or words
// between names (URL "").
type linkPiece struct{ Text, URL string }

// seatLinks are who played seat i's game of round table m, first to last,
// as pieces of one sentence in the page's language: one name alone, or
// those who began it, then the substitute (tour.subbed), each name
// linking its own page (PageMatch.PartURLs, then PlayerURLs).
func seatLinks(d *doc, m referee.PageMatch, i int) ([]linkPiece, error) {
	names, urls := []string{m.Players[i]}, []string{""}
	if i < len(m.PlayerURLs) {
		urls[0] = m.PlayerURLs[i]
	}
	if i < len(m.Part) && len(m.Part[i]) > 0 {
		names = append(slices.Clone(m.Part[i]), names...)
		part := make([]string, len(m.Part[i]))
		if i < len(m.PartURLs) {
			copy(part, m.PartURLs[i])
		}
		urls = append(part, urls...)
	}
	return linkedNames(d, names, urls)
}

// nameLinks are who played an opponent's game (a player's or a person's
// page: PageName's Part, PartURLs, Name and URL), as seatLinks: each
// name linking its own page.
func nameLinks(d *doc, part, partURLs []string, name, url string) ([]linkPiece, error) {
	names := append(slices.Clone(part), name)
	urls := make([]string, len(part), len(names))
	copy(urls, partURLs)
	return linkedNames(d, names, append(urls, url))
}

// playedLinks are who played a crosstable cell's game (CrossPageCell's
// Players and PlayedURLs) as linkedNames writes them; a name with no
// page is written unlinked.
func playedLinks(d *doc, names, urls []string) ([]linkPiece, error) {
	all := make([]string, len(names))
	copy(all, urls)
	return linkedNames(d, names, all)
}

// byLinks are who played a place's round (PlayerGame's Played and
// PlayedURLs) as player.by says it, each name linking its own page as
// playedLinks writes them: the words are player.by's, laid around the
// names (the template is given a mark, never the names).
func byLinks(d *doc, names, urls []string) ([]linkPiece, error) {
	const mark = "\x00"
	text, err := d.T("player.by", mark)
	if err != nil {
		return nil, err
	}
	before, after, ok := strings.Cut(text, mark)
	if !ok || strings.Contains(after, mark) {
		return nil, fmt.Errorf("player.by (%s): the names must appear once", d.Lang)
	}
	who, err := playedLinks(d, names, urls)
	if err != nil {
		return nil, err
	}
	out := make([]linkPiece, 0, len(who)+2)
	if before != "" {
		out = append(out, linkPiece{Text: before})
	}
	out = append(out, who...)
	if after != "" {
		out = append(out, linkPiece{Text: after})
	}
	return out, nil
}

// linkedNames writes names (first to last: those who began a game, then
// who finished it) as tour.subbed does, each name a piece linking its
// URL: the words are the template's, in its order, and each name is put
// where the template puts it (the template is given a mark per name,
// never the name itself, so a name that looks like a mark or the words
// cannot be taken for them).
func linkedNames(d *doc, names, urls []string) ([]linkPiece, error) {
	if len(names) == 1 {
		return []linkPiece{{Text: names[0], URL: urls[0]}}, nil
	}
	marks := make([]string, len(names))
	for k := range names {
		marks[k] = "\x00" + strconv.Itoa(k) + "\x00"
	}
	text, err := d.T("tour.subbed", "part", marks[:len(marks)-1], "name", marks[len(marks)-1])
	if err != nil {
		return nil, err
	}
	var out []linkPiece
	seen := make([]bool, len(names))
	for j, piece := range strings.Split(text, "\x00") {
		if j%2 == 0 {
			if piece != "" {
				out = append(out, linkPiece{Text: piece})
			}
			continue
		}
		k, err := strconv.Atoi(piece)
		if err != nil || k < 0 || k >= len(names) || seen[k] {
			return nil, fmt.Errorf("tour.subbed (%s): mark %q", d.Lang, piece)
		}
		seen[k] = true
		out = append(out, linkPiece{Text: names[k], URL: urls[k]})
	}
	if slices.Contains(seen, false) {
		return nil, fmt.Errorf("tour.subbed (%s) leaves out a name", d.Lang)
	}
	return out, nil
}

// keepRecord is p with its W-D-L record joined by non-breaking hyphens
// (U+2011): written in a sentence, "2-0-1" is never broken over two lines.
func keepRecord(p *referee.PlayerPage) referee.PlayerPage {
	c := *p
	c.Record = strings.ReplaceAll(c.Record, "-", "\u2011")
	return c
}
