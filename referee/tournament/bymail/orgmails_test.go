package bymail

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// orgProfile is one generated reader's world for the organiser's mails:
// the tournament's id, the entrants' names and addresses, the numbers,
// a date as the organiser reads it.
type orgProfile struct {
	id             string
	names, address []string
	num            int
	date           string
}

// orgMailData is each organiser mail's data (org.<name>) for profile p,
// the values as the desk gives them.
func orgMailData(d *desk, tr *tournament.Tournament, p orgProfile) map[string]map[string]any {
	cal := []map[string]any{}
	for n := 1; n <= 12; n++ {
		cal = append(cal, map[string]any{"n": n, "open": n < 3, "opens": p.date, "due": p.date})
	}
	game := fmt.Sprintf("%sr%dt%dx%d", p.id, p.num, p.num, p.num)
	games := []map[string]any{{"game": game, "waiting": strings.Join(p.names, ", ")}, {"game": game, "waiting": ""}}
	result := ""
	for i, n := range p.names {
		result += fmt.Sprintf("%s%d. %s %d", map[bool]string{true: " / "}[i > 0], i+1, n, p.num)
	}
	span := d.tourText(orgLang(tr), "span", map[string]any{"days": p.num, "hours": 23, "mins": 59})
	return map[string]map[string]any{
		"created": d.pageData(tr, map[string]any{"title": "Heaven & Ale", "format": "swiss", "table": 4, "num_rounds": p.num,
			"points": "10/6/3/1", "tiebreaks": "buchholz,sb,score,h2h", "commitment": strings.Repeat("ab", 32),
			"closes": p.date, "deadline": "168h", "late": "adjudicate", "calendar": cal,
			"on_schedule": true, "tz": "America/Argentina/Buenos_Aires", "seed_given": true}),
		"pages":           {"public": true, "listed": false, "page": "https://referee.example.org/t/" + p.id + "-0123456789abcdef0123"},
		"entered":         {"address": p.address[0], "entrants": p.num},
		"started":         {"games": p.num, "due": p.date},
		"withdrawn":       {"address": p.address[0]},
		"extended":        {"round": p.num, "due": p.date},
		"replaced":        {"address": p.address[0], "old": p.address[1]},
		"schedule":        {"calendar": cal, "on_schedule": false, "warn": "24h", "tz": "America/Argentina/Buenos_Aires", "closes": p.date, "signup": true},
		"late":            {"kind": "warn", "round": p.num, "due": p.date, "games": games, "late_rule": "", "left": span, "ago": ""},
		"closed":          {"entrants": p.num, "opens": p.date},
		"no_round":        {},
		"waiting":         {"round": p.num, "next": p.date},
		"over":            {"standings": d.tourStandingsText(tr, orgLang(tr))},
		"nodraw":          {"error": d.word(orgLang(tr), fail("too_few", "entrants", p.num, "id", p.id, "min", p.num)).Error()},
		"cannot_start":    {"error": d.word(orgLang(tr), fail("too_few", "entrants", p.num, "id", p.id, "min", p.num)).Error()},
		"adjudicated":     {"game": game, "result": result},
		"adjudicate_bots": {"game": game},
		"forfeited":       {"game": game, "name": p.names[0]},
		"help":            {"games": gameNames()},
		"corrected": {"audit": d.tourText(orgLang(tr), "audit.swap", map[string]any{"round": p.num, "a": p.names[0], "b": p.names[1],
			"game_a": game, "game_b": game}), "told": p.names},
		"waitlisted":      {"address": p.address[0], "place": p.num, "cap": p.num},
		"late_signup":     {"closes": p.date, "left": span, "ago": "", "entrants": p.num, "cap": p.num, "waiting": p.num},
		"batch_failed":    {"round": p.num, "table": p.num, "cause": "permanent", "open": p.num, "games": p.num, "retry": p.date},
		"batch_recovered": {"round": p.num, "tries": p.num},
		"calendar":        {"calendar": cal, "on_schedule": true, "tz": "America/Argentina/Buenos_Aires"},
	}
}

// TestEveryOrganiserMailFits (issue 24): every organiser mail of a
// tournament (each org.* template, found in the template files, so a new
// one is covered or fails here) renders in four languages, for generated
// readers' worlds (short and the longest ids; long names with stray
// quotes, non-Latin names; long addresses; big numbers; dates in every
// zone's longest form), within 80 columns, with no template code and no
// Go value format (map[, %!, <nil>, 0x).
func TestEveryOrganiserMailFits(t *testing.T) {
	names := definedIn(t, "org.tmpl", `\{\{define "org\.([a-z_]+)"\}\}`, 20)
	profiles := []orgProfile{
		{id: "c", names: []string{"Al", "Bo"}, address: []string{"a@b.it", "c@d.nl"}, num: 1},
		{id: "abcdefghijklmnop", names: []string{`Maximiliana "Max" D'Alessandro-Ørsted`, `Bartholomew O'Neil "the Elder"`,
			"Ђорђе Петровић-Јовановић", "山田 太郎", "Σωκράτης Παπαδόπουλος-Αλεξανδρόπουλος"},
			address: []string{"maximiliana.dalessandro-orsted@mail.example-university.org",
				"bartholomew.oneil.the.elder@correo.example-provider.co.uk"}, num: 123456},
		{id: "t2026", names: []string{"Zoë", `"quoted"`, "O'Brien", "Ana-María"}, address: []string{"z@x.test", "q@x.test"}, num: 2048},
	}
	at := time.Date(2026, 9, 16, 18, 0, 0, 0, time.UTC)
	for _, lang := range templates.Languages {
		// The longest date the organiser may read in lang.
		longest := ""
		for _, z := range []string{"UTC", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Pacific/Chatham", "Europe/Amsterdam"} {
			for m := range 12 {
				for day := range 7 {
					s := templates.FormatTime(lang, time.Date(2026, time.Month(m+1), 20+day, 23, 59, 0, 0, time.UTC).In(templates.Zone(z)))
					if len([]rune(s)) > len([]rune(longest)) {
						longest = s
					}
				}
			}
		}
		for _, p := range profiles {
			p.date = longest
			tr := &tournament.Tournament{ID: p.id, Settings: tournament.Settings{Format: "swiss", Table: 2, OrgLang: lang,
				Calendar: tournament.Calendar{TZ: "America/Argentina/Buenos_Aires"}}}
			for i, n := range p.names {
				tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Name: n, Address: fmt.Sprintf("p%d@x.test", i)})
			}
			d := newDesk(newTestHost(t, at))
			datas := orgMailData(d, tr, p)
			for _, name := range names {
				data, ok := datas[name]
				if !ok {
					t.Fatalf("org.%s: no data in this test: add it to orgMailData", name)
				}
				text := d.orgText(tr, name, data)
				if name == "help" { // not a tournament's: rendered as it is (orgHelp)
					text = d.tourText(lang, "org.help", data)
				}
				what := fmt.Sprintf("%s org.%s (%s)", lang, name, p.id)
				fits(t, what, text)
				for _, v := range goValue {
					if strings.Contains(text, v) {
						t.Errorf("%s shows %q:\n%s", what, v, text)
					}
				}
			}
		}
	}
}

// definedIn lists the names an English tournament template file defines
// (the pattern's first group), failing when fewer than least are found:
// a pattern that stopped matching would otherwise check nothing.
func definedIn(t *testing.T, file, pattern string, least int) []string {
	t.Helper()
	raw, err := os.ReadFile("../../../templates/tournament/en/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(string(raw), -1) {
		names = append(names, m[1])
	}
	if len(names) < least {
		t.Fatalf("%d templates found in %s: the pattern no longer matches", len(names), file)
	}
	return names
}
