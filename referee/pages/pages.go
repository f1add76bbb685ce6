// Package pages serves the public pages of tournaments and their games on
// the daemon's HTTP listener: plain HTML readable on a phone, no script,
// the board as inline SVG where the game draws one. A page's address holds
// an unguessable key; only tournaments their organiser listed appear in
// the index. Every game page shows the spectators' view only.
package pages

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strings"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/pages/boards"
	"github.com/pbem-referee/referee/templates"
)

// Source is what the pages read (the Referee).
type Source interface {
	TournamentPage(slug string) (*referee.TournamentPage, error)
	GamePage(slug string) (*referee.GamePage, error)
	ListedTournaments() ([]referee.TournamentLink, error)
	ListedGames() ([]referee.GameLink, error)
}

// Register adds the pages to mux: /t/ (the listed tournaments), /t/<id>-<key>
// and /g/<game>-<key>.
func Register(mux *http.ServeMux, src Source, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &handler{src: src, log: log}
	mux.HandleFunc("GET /t/{$}", h.index)
	mux.HandleFunc("GET /t/{slug}", h.tournament)
	mux.HandleFunc("GET /g/{slug}", h.game)
}

type handler struct {
	src Source
	log *slog.Logger
}

func (h *handler) write(w http.ResponseWriter, name string, data any, err error) {
	if errors.Is(err, referee.ErrNoPage) {
		http.NotFound(w, nil)
		return
	}
	if err != nil {
		h.log.Warn("page", "page", name, "err", err)
		http.Error(w, "the page could not be made", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// No script at all, no framing, no referrer leaking the page key.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Robots-Tag", "noindex")
	if err := page.ExecuteTemplate(w, name, data); err != nil {
		h.log.Warn("page", "page", name, "err", err)
	}
}

func (h *handler) index(w http.ResponseWriter, r *http.Request) {
	ts, err := h.src.ListedTournaments()
	var gs []referee.GameLink
	if err == nil {
		gs, err = h.src.ListedGames()
	}
	h.write(w, "index", struct {
		Tournaments []referee.TournamentLink
		Games       []referee.GameLink
	}{ts, gs}, err)
}

func (h *handler) tournament(w http.ResponseWriter, r *http.Request) {
	p, err := h.src.TournamentPage(r.PathValue("slug"))
	h.write(w, "tournament", p, err)
}

func (h *handler) game(w http.ResponseWriter, r *http.Request) {
	p, err := h.src.GamePage(r.PathValue("slug"))
	var data *gameData
	// The board's words follow the reader's language.
	w.Header().Set("Vary", "Accept-Language")
	if err == nil {
		data = &gameData{GamePage: p, Lang: readerLang(r)}
		h.board(data)
	}
	h.write(w, "game", data, err)
}

// gameData is a game page with its board in the reader's language.
type gameData struct {
	*referee.GamePage
	Lang  string
	Langs []string
}

// board draws the game's board from its public view, when the game has
// one; a drawing that fails leaves the page without a board (and logs).
func (h *handler) board(d *gameData) {
	if d.SVG != nil || d.View == nil || !boards.Has(d.Game) {
		return
	}
	svg, err := boards.Draw(d.Game, d.Lang, d.Players, d.View)
	if err != nil {
		h.log.Warn("board", "game", d.ID, "err", err)
		return
	}
	d.SVG = svg
	for _, l := range templates.Languages {
		if l != d.Lang {
			d.Langs = append(d.Langs, l)
		}
	}
}

// readerLang is the language of a page's board: ?lang=xx, else the first
// of the browser's Accept-Language that templates has, else English.
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

var page = template.Must(template.New("pages").Funcs(template.FuncMap{
	"svg": func(b []byte) template.HTML { return template.HTML(b) }, // the game's own drawing
}).Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:0.5rem;line-height:1.4}
table{border-collapse:collapse;width:100%}td,th{padding:0.2rem 0.4rem;text-align:left;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:0.9rem}
.w{color:#777}code{overflow-wrap:anywhere}
#board svg{display:block;width:100%;height:auto;max-width:40rem}.langs{font-size:0.9rem}
</style></head><body>{{end}}

{{define "index"}}{{template "head" "Tournaments"}}
<h1>Tournaments</h1>
{{if not .Tournaments}}<p>No listed tournaments.</p>{{else}}<ul id="tournaments">
{{range .Tournaments}}<li><a href="{{.URL}}">{{.ID}}</a>: {{.Title}}, {{.Status}}, {{.Entrants}} entrants</li>
{{end}}</ul>{{end}}
{{with .Games}}<h2>Games</h2><ul id="games">
{{range .}}<li><a href="{{.URL}}">{{.ID}}</a>: {{.Title}}, {{range $i, $p := .Players}}{{if $i}}, {{end}}{{$p}}{{end}}; {{.Status}}</li>
{{end}}</ul>{{end}}
</body></html>{{end}}

{{define "tournament"}}{{template "head" .ID}}
<h1 id="title">{{.ID}}: {{.Title}}</h1>
<p id="rules">{{.Format}}, round {{.Round}} of {{.Rounds}}, {{.Table}} players a game, {{.Status}}.
Points by place {{.Points}}; tie-breaks {{.Tiebreaks}}.</p>
{{with .Calendar}}<h2>Calendar</h2>
<table id="calendar"><thead><tr><th class="n">Round</th><th>Opens</th><th>Due</th></tr></thead><tbody>
{{range .}}<tr{{if .Ended}} class="w"{{end}}><td class="n">{{.N}}</td><td>{{.Opens}}</td><td>{{.Due}}</td></tr>
{{end}}</tbody></table>{{end}}
<h2>Standings</h2>
<table id="standings"><thead><tr><th class="n">#</th><th>Player</th><th class="n">Points</th><th>W-D-L</th><th>Tie-breaks</th><th class="n">Rating</th></tr></thead><tbody>
{{range .Standings}}<tr{{if .Withdrawn}} class="w"{{end}}><td class="n">{{.Place}}</td><td>{{.Name}}{{if .Withdrawn}} (withdrawn){{end}}</td><td class="n">{{.Points}}</td><td>{{.Record}}</td><td>{{range $i, $x := .Tiebreaks}}{{if $i}} · {{end}}{{$x}}{{end}}</td><td class="n">{{.Rating}}</td></tr>
{{end}}</tbody></table>
{{range .Pairings}}<h2>Round {{.N}}</h2>{{if .Due}}<p>Due {{.Due}}</p>{{end}}
<table class="round"><tbody>
{{range .Matches}}<tr><td class="n">{{.Table}}</td><td>{{range $i, $p := .Players}}{{if $i}} – {{end}}{{$p}}{{end}}</td><td>{{if .Bye}}bye{{else if .Result}}{{.Result}}{{if eq .State "forfeit"}} (forfeit){{end}}{{if eq .State "adjudicated"}} (adjudicated){{end}}{{else}}playing{{end}}</td><td>{{if .GameURL}}<a href="{{.GameURL}}">game</a>{{end}}</td></tr>
{{end}}</tbody></table>{{end}}
<p>Every draw comes from the tournament's seed. Its SHA-256, announced at the start:
<code id="commitment">{{.Commitment}}</code>.{{if .Seed}} The seed: <code id="seed">{{.Seed}}</code>.{{end}}</p>
</body></html>{{end}}

{{define "game"}}{{template "head" .ID}}
<h1 id="title">{{.ID}}: {{.Title}}</h1>
<p>{{if .Tournament}}Tournament <a href="{{.TournamentURL}}">{{.Tournament}}</a>. {{end}}Players: {{range $i, $p := .Players}}{{if $i}}, {{end}}{{$p}}{{end}}. Status: {{.Status}}.
{{if .Waiting}}Waiting for {{range $i, $p := .Waiting}}{{if $i}}, {{end}}{{$p}}{{end}}.{{end}}</p>
{{if .Result}}<h2>Result</h2><ol id="result">{{range .Result}}<li>{{.}}</li>{{end}}</ol>{{end}}
{{if .SVG}}<h2>Board</h2><div id="board">{{svg .SVG}}</div>
<p class="langs">{{range .Langs}}<a href="?lang={{.}}" hreflang="{{.}}">{{.}}</a> {{end}}</p>{{end}}
<h2>The table</h2>
<pre id="summary">{{.Summary}}</pre>
<h2>Log</h2>
<pre id="log">{{range .Log}}{{.}}
{{end}}</pre>
</body></html>{{end}}
`))
