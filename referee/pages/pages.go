// Package pages serves the public pages of tournaments and their games on
// the daemon's HTTP listener: plain HTML readable on a phone, no script,
// the board as inline SVG where the game draws one. A page's address holds
// an unguessable key; only tournaments their organiser listed appear in
// the index. Every game page shows the spectators' view only.
package pages

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/pages/boards"
	"github.com/pbem-referee/referee/templates"
)

// Source is what the pages read (the Referee): each page in the reader's
// language.
type Source interface {
	TournamentPage(slug, lang string) (*referee.TournamentPage, error)
	GamePage(slug, lang string) (*referee.GamePage, error)
	ListedTournaments() ([]referee.TournamentLink, error)
	ListedGames() ([]referee.GameLink, error)
	TournamentFile(slug, name, lang string) (*referee.TournamentFile, error)
}

// Register adds the pages to mux: /t/ (the listed tournaments), /t/<id>-<key>,
// its files /t/<id>-<key>/<name> (files.go) and /g/<game>-<key>.
func Register(mux *http.ServeMux, src Source, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handler{src: src, log: log}
	mux.Handle("GET /t/{$}", guarded(h.index))
	mux.Handle("GET /t/{slug}", guarded(h.tournament))
	mux.Handle("GET /t/{slug}/{file}", guarded(h.file))
	mux.Handle("GET /g/{slug}", guarded(h.game))
}

// The headers of every page and every error answer (issue 23): not kept
// by shared caches or the browser (a page's address is its key, its
// content live), never sniffed into another type, never framed, no
// script, no referrer leaking the page key.
const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

func guarded(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Security-Policy", pageCSP)
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		h(w, r)
	})
}

type handler struct {
	src Source
	log *slog.Logger
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

// write lays the page out in the reader's language. Every page varies by
// the reader's Accept-Language.
func (h *handler) write(w http.ResponseWriter, r *http.Request, name string, data any, err error) {
	w.Header().Set("Vary", "Accept-Language")
	set, serr := loadSet()
	if serr != nil && err == nil {
		err = serr
	}
	lang := readerLang(r)
	d := &doc{P: data, Lang: lang, set: set}
	if errors.Is(err, referee.ErrNoPage) {
		h.fail(w, d, "error.notfound", http.StatusNotFound)
		return
	}
	if err != nil {
		h.log.Warn("page", "page", name, "err", err)
		h.fail(w, d, "error.failed", http.StatusInternalServerError)
		return
	}
	for _, l := range templates.Languages {
		if l != lang {
			n, _ := set.Render("pages", l, "lang.name", templates.Ctx{Lang: l, Seat: -1})
			d.Langs = append(d.Langs, langLink{Code: l, Name: n})
		}
	}
	var b bytes.Buffer
	if err := page.ExecuteTemplate(&b, name, d); err != nil {
		h.log.Warn("page", "page", name, "err", err)
		h.fail(w, d, "error.failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.Header().Set("Content-Language", lang)
	w.Write(b.Bytes())
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

func (h *handler) index(w http.ResponseWriter, r *http.Request) {
	ts, err := h.src.ListedTournaments()
	var gs []referee.GameLink
	if err == nil {
		gs, err = h.src.ListedGames()
	}
	h.write(w, r, "index", struct {
		Tournaments []referee.TournamentLink
		Games       []referee.GameLink
	}{ts, gs}, err)
}

func (h *handler) tournament(w http.ResponseWriter, r *http.Request) {
	p, err := h.src.TournamentPage(r.PathValue("slug"), readerLang(r))
	h.write(w, r, "tournament", p, err)
}

func (h *handler) game(w http.ResponseWriter, r *http.Request) {
	lang := readerLang(r)
	p, err := h.src.GamePage(r.PathValue("slug"), lang)
	if err == nil {
		h.board(p, lang)
	}
	h.write(w, r, "game", p, err)
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
var page = template.Must(template.New("pages").Funcs(template.FuncMap{
	"svg":  func(b []byte) template.HTML { return template.HTML(b) }, // the game's own drawing
	"head": func(d *doc, title string) headData { return headData{D: d, Lang: d.Lang, Title: title} },
}).Parse(`
{{define "head"}}<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:0.5rem;line-height:1.4}
table{border-collapse:collapse;width:100%}td,th{padding:0.2rem 0.4rem;text-align:left;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.9rem}
.w{color:#777}code{overflow-wrap:anywhere}
#board svg{display:block;width:100%;height:auto;max-width:40rem}.langs{font-size:0.9rem}
</style></head><body>
<p class="langs" id="langs">{{.D.T "langs"}} {{range .D.Langs}}<a href="?lang={{.Code}}" hreflang="{{.Code}}" lang="{{.Code}}">{{.Name}}</a> {{end}}</p>{{end}}

{{define "index"}}{{$d := .}}{{template "head" (head $d ($d.T "index.title"))}}{{with .P}}
<h1>{{$d.T "index.title"}}</h1>
<h2>{{$d.T "index.tournaments"}}</h2>
{{if not .Tournaments}}<p>{{$d.T "index.none"}}</p>{{else}}<ul id="tournaments">
{{range .Tournaments}}<li><a href="{{.URL}}">{{.ID}}</a>: {{$d.T "index.tournament" "title" .Title "status" .Status "entrants" .Entrants}}</li>
{{end}}</ul>{{end}}
{{with .Games}}<h2>{{$d.T "index.games"}}</h2><ul id="games">
{{range .}}<li><a href="{{.URL}}">{{.ID}}</a>: {{$d.T "index.game" "title" .Title "players" .Players "status" .Status}}</li>
{{end}}</ul>{{end}}{{end}}
</body></html>{{end}}

{{define "tournament"}}{{$d := .}}{{with .P}}{{template "head" (head $d .ID)}}
<h1 id="title">{{.ID}}: {{.Title}}</h1>
<p id="rules">{{$d.T "tour.rules" .}}</p>
{{with .Calendar}}<h2>{{$d.T "tour.calendar"}}</h2>
<table id="calendar"><thead><tr><th class="n">{{$d.T "tour.round"}}</th><th>{{$d.T "tour.opens"}}</th><th>{{$d.T "tour.due"}}</th></tr></thead><tbody>
{{range .}}<tr{{if .Ended}} class="w"{{end}}><td class="n">{{.N}}</td><td>{{.Opens}}</td><td>{{.Due}}</td></tr>
{{end}}</tbody></table>{{end}}
<h2>{{$d.T "tour.standings"}}</h2>
{{if not .Standings}}<p>{{$d.T "tour.nobody"}}</p>{{end}}
<table id="standings"><thead><tr><th class="n">{{$d.T "tour.place"}}</th><th>{{$d.T "tour.player"}}</th><th class="n">{{$d.T "tour.points"}}</th><th>{{$d.T "tour.record"}}</th><th>{{$d.T "tour.tiebreaks"}}</th><th class="n">{{$d.T "tour.rating"}}</th></tr></thead><tbody>
{{range .Standings}}<tr{{if .Withdrawn}} class="w"{{end}}><td class="n">{{.Place}}</td><td>{{.Name}}{{if .Withdrawn}} {{$d.T "tour.withdrawn"}}{{end}}</td><td class="n">{{.Points}}</td><td>{{.Record}}</td><td>{{range $i, $x := .Tiebreaks}}{{if $i}} · {{end}}{{$x}}{{end}}</td><td class="n">{{.Rating}}{{if .RatingAdjudicated}}*{{end}}</td></tr>
{{end}}</tbody></table>{{if .AdjudicatedRatings}}
<p id="ratingnote">* {{$d.T "tour.rating_adjudicated"}}</p>{{end}}
{{range .Pairings}}<h2>{{$d.T "tour.roundn" .N}}</h2>{{if .Due}}<p>{{$d.T "tour.duedate" .Due}}</p>{{end}}
<table class="round"><tbody>
{{range .Matches}}<tr><td class="n">{{.Table}}</td><td>{{range $i, $p := .Players}}{{if $i}} – {{end}}{{$p}}{{end}}</td><td>{{if .Bye}}{{$d.T "tour.bye"}}{{else if .Result}}{{.Result}}{{if eq .State "forfeit"}} {{$d.T "tour.forfeit"}}{{end}}{{if eq .State "adjudicated"}} {{$d.T "tour.adjudicated"}}{{end}}{{else}}{{$d.T "tour.playing"}}{{end}}</td><td>{{if .GameURL}}<a href="{{.GameURL}}">{{$d.T "tour.game"}}</a>{{end}}</td></tr>
{{end}}</tbody></table>{{end}}
{{with .Exports}}<h2>{{$d.T "tour.files"}}</h2>
<ul id="files">{{range .}}<li><a href="{{.URL}}?lang={{$d.Lang}}" download>{{$d.T "tour.file" .Name}}</a></li>
{{end}}</ul>{{end}}
<p>{{$d.T "tour.commitment"}}
<code id="commitment">{{.Commitment}}</code>{{if .Seed}}<br>{{$d.T "tour.seed"}} <code id="seed">{{.Seed}}</code>{{end}}</p>
{{end}}</body></html>{{end}}

{{define "game"}}{{$d := .}}{{with .P}}{{template "head" (head $d .ID)}}
<h1 id="title">{{.ID}}: {{.Title}}</h1>
<p>{{if .Tournament}}{{$d.T "game.tournament"}} <a href="{{.TournamentURL}}">{{.Tournament}}</a>. {{end}}{{$d.T "game.players" .}} {{$d.T "game.status" .}}
{{if .Waiting}}{{$d.T "game.waiting" .}}{{end}}</p>
{{if .Result}}<h2>{{$d.T "game.result"}}</h2><ol id="result">{{range .Result}}<li>{{.}}</li>{{end}}</ol>{{end}}
{{if .SVG}}<h2>{{$d.T "game.board"}}</h2><div id="board">{{svg .SVG}}</div>{{end}}
<h2>{{$d.T "game.table"}}</h2>
<pre id="summary">{{.Summary}}</pre>
<h2>{{$d.T "game.log"}}</h2>
{{if .Log}}<pre id="log">{{range .Log}}{{.}}
{{end}}</pre>{{else}}<p id="log">{{$d.T "game.nolog"}}</p>{{end}}
{{end}}</body></html>{{end}}
`))

// headData is what the head of a page needs.
type headData struct {
	D     *doc
	Lang  string
	Title string
}
