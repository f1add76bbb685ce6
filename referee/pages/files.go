package pages

// A tournament's files (issue 24): the standings, results, crosstable and
// the round's pairings as CSV, FIDE's report (TRF) for a two-player Swiss
// event and the calendar of the rounds (ICS), at /t/<id>-<key>/<name>,
// behind the page's key. Each is sent as a download under its own name.

import (
	"mime"
	"net/http"
	"strconv"
)

func (h *handler) file(w http.ResponseWriter, r *http.Request) {
	lang := readerLang(r)
	f, err := h.src.TournamentFile(r.PathValue("slug"), r.PathValue("file"), lang)
	if err != nil {
		h.write(w, r, "file", nil, err)
		return
	}
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	w.Header().Set("Content-Length", strconv.Itoa(len(f.Body)))
	// The calendar's words are in the reader's language.
	w.Header().Set("Vary", "Accept-Language")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.Write(f.Body)
}
