package bymail

// The files of a tournament's public page (issue 24): the exports of
// package tournament, served next to the page at /t/<id>-<key>/<name>,
// behind the same key and the same PUBLISH.

import (
	"crypto/subtle"
	"strconv"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
	"github.com/pbem-referee/referee/templates"
)

// The names of a tournament's files, under its page's address.
const (
	ExportStandings  = "standings.csv"
	ExportResults    = "results.csv"
	ExportCrosstable = "crosstable.csv"
	ExportPairings   = "pairings.csv"
	ExportTRF        = "tournament.trf"
	ExportICS        = "rounds.ics"
)

// File is one exported file: its bytes, media type and the name it is
// saved under (the tournament's id first: "cup-standings.csv").
type File struct {
	Name, ContentType string
	Body              []byte
}

// PageExport is a file linked from a tournament's page: Name is one of the
// Export names (the page words it in the reader's language), URL its
// address.
type PageExport struct {
	Name, URL string
}

// exportNames are the files tournament t has, in the order its page lists
// them: the current round's pairings once a round is drawn, the TRF for a
// two-player Swiss event (tournament.TRF's format is FIDE's Swiss report),
// the calendar always (its rounds appear as they get dates).
func exportNames(t *tournament.Tournament) []string {
	out := []string{ExportStandings, ExportResults, ExportCrosstable}
	if len(t.Rounds) > 0 {
		out = append(out, ExportPairings)
	}
	if t.Table == 2 && t.Format == tournament.Swiss {
		out = append(out, ExportTRF)
	}
	return append(out, ExportICS)
}

// tourFilePath is the address of one of a tournament's files.
func tourFilePath(t *tournament.Tournament, name string) string {
	return tourPagePath(t) + "/" + name
}

// pageExports are the links of a tournament's page to its files.
func pageExports(t *tournament.Tournament) []PageExport {
	var out []PageExport
	for _, n := range exportNames(t) {
		out = append(out, PageExport{Name: n, URL: tourFilePath(t, n)})
	}
	return out
}

// Export returns file name of tournament id when key is its page key and
// it is published (ErrNoPage otherwise, and for a file the tournament
// does not have); the calendar's event titles are in lang.
func Export(h Host, id, key, name, lang string) (*File, error) {
	d := newDesk(h)
	t, err := tourrec.ForPage(d.rec, id)
	if err != nil || !t.Public || subtle.ConstantTimeCompare([]byte(key), []byte(t.Key)) != 1 {
		return nil, ErrNoPage
	}
	return d.export(t, name, lang)
}

func (d *desk) export(t *tournament.Tournament, name, lang string) (*File, error) {
	known := false
	for _, n := range exportNames(t) {
		known = known || n == name
	}
	if !known {
		return nil, ErrNoPage
	}
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	const csvType = "text/csv; charset=utf-8; header=present"
	f := &File{Name: t.ID + "-" + name, ContentType: csvType}
	var err error
	switch name {
	case ExportStandings:
		f.Body, err = tournament.StandingsCSV(t)
	case ExportResults:
		f.Body, err = tournament.ResultsCSV(t)
	case ExportCrosstable:
		f.Body, err = tournament.CrosstableCSV(t)
	case ExportPairings:
		f.Name = t.ID + "-round" + strconv.Itoa(len(t.Rounds)) + "-pairings.csv"
		f.Body, err = tournament.PairingsCSV(t, len(t.Rounds))
	case ExportTRF:
		f.Name, f.ContentType = t.ID+".trf", "text/plain; charset=utf-8"
		f.Body, err = tournament.TRF(t)
	case ExportICS:
		f.Name, f.ContentType = t.ID+".ics", "text/calendar; charset=utf-8"
		f.Body = tournament.ICS(t, lastChange(t), func(n int) string {
			return d.tourText(lang, "ics.round", map[string]any{"id": t.ID, "round": n, "title": gameTitle(t)})
		}, d.tourPageURL(t))
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// lastChange is the latest time the record names (created, started, a
// round opened, ended): the calendar feed's stamp, so that the same
// record gives the same feed.
func lastChange(t *tournament.Tournament) time.Time {
	at := t.Created
	for _, x := range []time.Time{t.Started, t.Ended} {
		if x.After(at) {
			at = x
		}
	}
	for _, rd := range t.Rounds {
		if rd.Opened.After(at) {
			at = rd.Opened
		}
	}
	return at
}

// tourICSURL is the address of a tournament's calendar feed ("" when it
// has no public page).
func (d *desk) tourICSURL(t *tournament.Tournament) string {
	if !t.Public {
		return ""
	}
	return d.h.PageBase() + tourFilePath(t, ExportICS)
}

// gameTitle is the title of a tournament's game ("Fromage").
func gameTitle(t *tournament.Tournament) string {
	if eg, err := engine.Lookup(t.Game); err == nil {
		return eg.Info().Title
	}
	return t.Game
}
