package bymail

import (
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// TestOrganiserTextsFit: every organiser text of a tournament renders in
// every language, with long ids, names and dates, in lines of at most 80
// columns and without a template's error.
func TestOrganiserTextsFit(t *testing.T) {
	long := "abcdefghijklmnop" // the longest tournament id
	at := time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC)
	cal := []map[string]any{}
	for n := 1; n <= 12; n++ {
		cal = append(cal, map[string]any{"n": n, "open": n < 3, "opens": "mer. 16 sept. 2026 18:00 CEST", "due": "mer. 23 sept. 2026 18:00 CEST"})
	}
	games := []map[string]any{{"game": long + "r10t10x1", "waiting": "Bartholomew, Maximiliana"}}
	for _, lang := range templates.Languages {
		tr := &tournament.Tournament{ID: long, Entrants: make([]tournament.Entrant, 12), Settings: tournament.Settings{Format: "roundrobin", Table: 4, OrgLang: lang,
			Calendar: tournament.Calendar{TZ: "America/Argentina/Buenos_Aires"}}}
		{
			w := newDesk(newTestHost(t, at))
			datas := map[string]map[string]any{
				"created": w.pageData(tr, map[string]any{"title": "Heaven & Ale", "format": "knockout", "table": 4, "num_rounds": 12,
					"points": "10/6/3/1", "tiebreaks": "buchholz,sb,score,h2h", "commitment": strings.Repeat("ab", 32),
					"closes": "mer. 16 sept. 2026 18:00 CEST", "deadline": "168h", "late": "adjudicate", "calendar": cal,
					"on_schedule": true, "tz": "America/Argentina/Buenos_Aires", "seed_given": true}),
				"entered":   {"address": "bartholomew.longname@example.org", "entrants": 120},
				"started":   {"games": 60, "due": "mer. 16 sept. 2026 18:00 CEST"},
				"withdrawn": {"address": "bartholomew.longname@example.org"},
				"extended":  {"round": 12, "due": "mer. 16 sept. 2026 18:00 CEST"},
				"replaced":  {"address": "bartholomew.longname@example.org", "old": "maximiliana.longname@example.org"},
				"pages":     {"public": true, "listed": false, "page": "https://referee.example.org/t/" + long + "-0123456789abcdef0123"},
				"schedule":  {"calendar": cal, "on_schedule": false, "warn": "24h", "tz": "America/Argentina/Buenos_Aires", "closes": "mer. 16 sept. 2026 18:00 CEST", "signup": true},
				"late":      {"kind": "warn", "round": 12, "due": "mer. 16 sept. 2026 18:00 CEST", "games": games, "late_rule": "", "left": "12j 23h 59min", "ago": ""},
				"late_signup": {"closes": "mer. 16 sept. 2026 18:00 CEST", "left": "12j 23h 59min", "ago": "", "entrants": 2048,
					"cap": 2048, "waiting": 2048},
				"waitlisted":      {"address": "bartholomew.longname@example.org", "place": 2048, "cap": 2048},
				"corrected":       {"audit": strings.Repeat("word ", 15) + "\n" + strings.Repeat("word ", 15), "told": []string{"Bartholomew", "Maximiliana"}},
				"no_round":        {},
				"waiting":         {"round": 11, "next": "mer. 16 sept. 2026 18:00 CEST"},
				"over":            {"standings": "x"},
				"nodraw":          {"error": "tournament: all 12 rounds are played"},
				"cannot_start":    {"error": "1 entrants: " + long + " needs at least 2"},
				"adjudicated":     {"game": long + "r10t10x1", "result": "1. Bartholomew 123 / 2. Maximiliana 99"},
				"adjudicate_bots": {"game": long + "r10t10x1"},
				"forfeited":       {"game": long + "r10t10x1", "name": "Bartholomew"},
			}
			for name, data := range datas {
				fits(t, lang+" org."+name, w.orgText(tr, name, data))
			}
			late := map[string]any{"kind": "late", "round": 12, "due": "x", "games": games, "late_rule": "forfeit", "left": "", "ago": "12j 23h 59min"}
			fits(t, lang+" org.late", w.orgText(tr, "late", late))
			fits(t, lang+" org.help", w.tourText(lang, "org.help", map[string]any{"games": gameNames()}))
		}
	}
}

func fits(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, "<no value>") || strings.Contains(text, "%!") || strings.HasPrefix(text, "(") && strings.Contains(text, "template") {
		t.Errorf("%s: a template error:\n%s", what, text)
	}
	for _, l := range strings.Split(text, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("%s: a line of %d columns:\n%s", what, n, l)
		}
	}
}

// TestSubjectReadsOnlyItsKeys (issue 24): a tournament mail's subject,
// rendered once for the mails of one moment by language, kind and round
// (mailBase.subjects), reads no value but subjectKeys in any language: a
// subject naming the entrant would be wrong for all but the first.
func TestSubjectReadsOnlyItsKeys(t *testing.T) {
	allowed := map[string]bool{}
	for _, k := range subjectKeys {
		allowed[k] = true
	}
	field := regexp.MustCompile(`\.Data\.([A-Za-z_]+)|\.Data\b[^.]|\$\.|\{\{\s*template`)
	for _, lang := range templates.Languages {
		raw, err := os.ReadFile("../../../templates/tournament/" + lang + "/tournament.tmpl")
		if err != nil {
			t.Fatal(err)
		}
		src := string(raw)
		i := strings.Index(src, `{{define "subject"}}`)
		if i < 0 {
			t.Fatalf("%s: no subject template", lang)
		}
		body := src[i:]
		body = body[:strings.Index(body, "\n")]
		if !strings.HasSuffix(body, "{{end}}") {
			t.Fatalf("%s: the subject is not one line:\n%s", lang, body)
		}
		n := 0
		for _, m := range field.FindAllStringSubmatch(body, -1) {
			if m[1] == "" || !allowed[m[1]] {
				t.Errorf("%s: the subject reads %q, not one of %v:\n%s", lang, m[0], subjectKeys, body)
			}
			n++
		}
		if n == 0 {
			t.Errorf("%s: the subject reads nothing: the pattern no longer matches it", lang)
		}
	}
}

// TestExcerptRowsRenderedOncePerLanguage_Issue24: the excerpts of one
// standings, every entrant's in a random order, in four languages mixed,
// render each row shown once a language (template "standings.row"), the
// head once a language and the notes twice (as they are, and with the
// note on marked ratings), never template "standings" once a mail (issue
// 24: 50 MB at 10,000 entrants); each excerpt is the whole template's
// text for its rows (wholeExcerpt). Generated Swiss and tables
// tournaments of 7 to 60 entrants, no place changed hands.
func TestExcerptRowsRenderedOncePerLanguage_Issue24(t *testing.T) {
	langs := []string{"en", "it", "fr", "nl"}
	for draw := range 24 {
		rng := rand.New(rand.NewPCG(24, uint64(draw)))
		format, size := "swiss", 2
		if draw%2 == 1 {
			format, size = "tables", 3
		}
		tr := genTour(t, rng, format, 7+rng.IntN(54), size, 1+rng.IntN(3))
		h := newTestHost(t, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
		d := newDesk(h)
		st := d.newStandings(tr)
		h.renders = map[string]int{}
		shown := map[string]map[int]bool{}
		for _, e := range rng.Perm(len(tr.Entrants)) {
			lang := langs[rng.IntN(len(langs))]
			got := d.excerpt(st, e, lang)
			if shown[lang] == nil {
				shown[lang] = map[int]bool{}
			}
			lo := min(max(0, st.at[e]-neighbours), max(0, len(st.st)-2*neighbours-1))
			for i := lo; i < min(len(st.st), lo+2*neighbours+1); i++ {
				shown[lang][i] = true
			}
			was := h.renders
			h.renders = nil // the reference's renders are not counted
			want := wholeExcerpt(d, tr, e, lang)
			h.renders = was
			if got != want {
				t.Fatalf("draw %d, %s: entrant %d's excerpt\n%s\nwant\n%s", draw, lang, e, got, want)
			}
		}
		rows := 0
		for _, s := range shown {
			rows += len(s) + 1 // and the line of the rows left out
		}
		if got := h.renders["standings.row"]; got != rows {
			t.Errorf("draw %d: %d rows rendered, want %d (each row shown once a language)", draw, got, rows)
		}
		if got, want := h.renders["standings"], 2*len(shown); got != want {
			t.Errorf("draw %d: template standings rendered %d times, want %d (twice a language)", draw, got, want)
		}
		if got, want := h.renders["standings.head"], len(shown); got != want {
			t.Errorf("draw %d: standings.head rendered %d times, want %d", draw, got, want)
		}
	}
}
