package bymail

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// entrantHost is a desk's host that keeps the entrants' mails and gives
// each entrant a reply address and a time zone.
type entrantHost struct {
	*testHost
	sent        []Mail
	replyTo, tz string
}

func (h *entrantHost) MailEntrant(m Mail) error { h.sent = append(h.sent, m); return nil }
func (h *entrantHost) ReplyTo(a string) Reply {
	return Reply{To: a, Address: h.replyTo, TZ: h.tz}
}

// entrantZones are zones whose dates read longest (long names, odd
// offsets).
var entrantZones = []string{"UTC", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Pacific/Chatham", "Europe/Amsterdam"}

// entrantTour is a tournament for profile p read in lang: p's names as
// entrants (one place handed on by REPLACE), a calendar of 12 rounds
// from at, its first round drawn and played, the second open.
func entrantTour(t *testing.T, p orgProfile, lang string, at time.Time) *tournament.Tournament {
	t.Helper()
	s := tournament.Settings{Game: "toy", Format: "swiss", Table: 2, NumRounds: 12, OrgLang: lang, Public: true,
		Deadline: 168 * time.Hour, Tiebreaks: []string{"buchholz", "sb", "score", "h2h"}, Points: []float64{1, 0},
		Calendar: tournament.Calendar{Start: at, Every: 7 * 24 * time.Hour, TZ: "America/Argentina/Buenos_Aires"}}
	tr := &tournament.Tournament{ID: p.id, Organiser: "org@x.test", Settings: s, Seed: strings.Repeat("5eed", 16),
		Status: tournament.StatusRunning, Key: "0123456789abcdef0123", Created: at, Started: at, SeedGiven: true}
	tr.Commitment = strings.Repeat("ab", 32)
	for i := range 6 {
		n := p.names[i%len(p.names)]
		if i >= len(p.names) {
			n = fmt.Sprintf("%s %d", n, i)
		}
		tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Name: n, Address: fmt.Sprintf("p%d@x.test", i), Lang: lang})
	}
	for r := range 2 {
		rd, err := tr.NextRound()
		if err != nil {
			t.Fatal(err)
		}
		rd.Opened, rd.Due = at.Add(time.Duration(r)*7*24*time.Hour), at.Add(time.Duration(r+1)*7*24*time.Hour)
		tr.Rounds = append(tr.Rounds, rd)
		for k := range tr.Rounds[r].Matches {
			m := &tr.Rounds[r].Matches[k]
			if m.State == tournament.MatchBye {
				continue
			}
			m.GameID = fmt.Sprintf("%sr%dt%dx%d", tr.ID, rd.N, m.Table, p.num)
			if r == 0 {
				if _, _, err := tr.Record(m.GameID, tournament.MatchDone, []int{1, 2}, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return tr
}

// TestEveryEntrantMailFits (issue 24; the house rule: a player decides
// from the mail alone, every line within 80 columns): every template of
// an entrant's tournament mail or answer (each define of
// templates/tournament/<lang>/tournament.tmpl, found in the file, so a
// new one is covered or fails here) renders in four languages, for
// generated readers' worlds (short and the longest ids; long names with
// stray quotes, Cyrillic, Greek and CJK; long reply addresses; 6-digit
// numbers; dates in zones whose dates read longest), within 80 columns,
// with no template code and no Go value format (map[, %!, <nil>, 0x).
// The mails go through the desk's own path (tourMailAs: the data every
// mail shares, the dates in the reader's zone and language).
func TestEveryEntrantMailFits(t *testing.T) {
	names := definedIn(t, "tournament.tmpl", `\{\{define "([a-z_.]+)"\}\}`, 25)
	profiles := []orgProfile{
		{id: "c", names: []string{"Al", "Bo"}, address: []string{"a@b.it"}, num: 1},
		{id: "abcdefghijklmnop", names: []string{`Maximiliana "Max" D'Alessandro-Ørsted`, `Bartholomew O'Neil "the Elder"`,
			"Ђорђе Петровић-Јовановић", "山田 太郎 山田 太郎 山田 太郎", "Σωκράτης Παπαδόπουλος-Αλεξανδρόπουλος"},
			address: []string{"referee+p.0123456789abcdef0123456789abcdef@mail.example-university.org"}, num: 123456},
		{id: "t2026", names: []string{"Zoë", `"quoted"`, "O'Brien", "Ana-María"}, address: []string{"z@x.test"}, num: 2048},
	}
	at := time.Date(2026, 9, 23, 23, 59, 0, 0, time.UTC) // a Wednesday in September
	seen := map[string]bool{}
	for _, lang := range templates.Languages {
		for _, p := range profiles {
			for _, tz := range entrantZones {
				h := &entrantHost{testHost: newTestHost(t, at), replyTo: p.address[0], tz: tz}
				d := newDesk(h)
				tr := entrantTour(t, p, lang, at)
				e := tr.Entrants[len(tr.Entrants)-1]
				e.Name = p.names[0]
				st := d.newStandings(tr)
				excerpt := d.excerpt(st, 0, lang)
				audit := d.tourText(lang, "audit.swap", map[string]any{"round": p.num, "a": p.names[0],
					"b": p.names[len(p.names)-1], "game_a": tr.ID + "r2t1x1", "game_b": tr.ID + "r2t3x1"})
				var round mailData
				d.roundDataAt(&round, tr, 1, 0, matchAt(tr.Rounds[1], 0))
				round.Opponents = p.names
				round.Standings, round.Audit = excerpt, audit
				datas := map[string]mailData{
					"confirm":    {Late: d.tourText(lang, "audit.late", map[string]any{"name": p.names[0], "from": p.num})},
					"round":      round,
					"standings":  {Round: p.num, nextAt: at.Add(time.Hour), Standings: excerpt},
					"final":      {Standings: excerpt, Seed: tr.Seed},
					"correction": {Audit: audit},
					"waitlist":   {Place: p.num, Cap: p.num},
				}
				for kind, data := range datas {
					d.tourMailAs(tr, e, kind, &data, d.newMailBase(tr))
					seen["mail."+kind] = true
				}
				var byeData mailData
				d.roundDataAt(&byeData, tr, 1, 0, matchAt(tr.Rounds[1], 0))
				byeData.Bye = true
				d.tourMailAs(tr, e, "round", &byeData, d.newMailBase(tr))
				// The mails, in the order sent: the kinds (map order), then the bye.
				texts := map[string]string{}
				for i, m := range h.sent {
					texts[fmt.Sprintf("mail %d %s", i, m.Subject)] = m.Body
				}
				if len(h.sent) != len(datas)+1 {
					t.Fatalf("%d mails sent, %d asked", len(h.sent), len(datas)+1)
				}
				// The answers and the parts, rendered as the desk renders them.
				rows := d.tourStandingRows(tr)
				for i := range rows {
					rows[i].Sub, rows[i].Adjudicated, rows[i].Withdrawn, rows[i].Rating = true, true, i%2 == 0, "1523"
				}
				rows[len(rows)-1].Place, rows[len(rows)-1].Points = p.num, fmt.Sprint(p.num)
				subs := []map[string]any{{"name": p.names[0], "old": p.names[len(p.names)-1], "from": p.num, "played": true,
					"first": 1, "through": p.num}}
				// Games handed on after a move (issue 24): every holder, the
				// substitutes marked, in a result and under the standings.
				var names []heldName
				for i, nm := range p.names {
					names = append(names, heldName{Name: nm, Sub: i > 0})
				}
				var held []resultPlace
				for i := range p.names {
					held = append(held, resultPlace{Place: p.num + i, Names: names})
				}
				handed := []map[string]any{{"round": p.num, "names": names}}
				// tour.row is "standings"'s line a row, rendered with it.
				seen["tour.played"], seen["tour.result"], seen["tour.row"] = true, true, true
				parts := map[string]map[string]any{
					"standings": {"id": tr.ID, "round": p.num, "rows": rows, "tiebreaks": strings.Join(tr.Tiebreaks, " "),
						"status": "over", "adjudicated": true, "subs": subs, "parts": handed},
					"standings.head": {"id": tr.ID, "round": p.num, "tiebreaks": strings.Join(tr.Tiebreaks, " "), "status": "over"},
					"standings.row":  {"row": rows[len(rows)-1]},
					"rating": {"game": "toy", "rows": []map[string]any{{"title": "Heaven & Ale", "duels": p.num, "r": "1523.4",
						"rd": "312.9", "tables": p.num, "ordinal": "12.34", "mu": "25.123", "sigma": "8.333", "adjudicated": p.num}}},
					"info.joined":           {"id": tr.ID, "entrants": p.num},
					"info.withdrawn":        {"id": tr.ID},
					"error.no_tournament":   {"id": tr.ID, "command": h.Word(lang, "WITHDRAW")},
					"error.closed":          {"id": tr.ID},
					"error.already":         {"id": tr.ID},
					"error.full":            {"id": tr.ID, "max": p.num},
					"error.not_entered":     {"id": tr.ID},
					"error.withdraw_other":  {"id": tr.ID, "command": h.Word(lang, "WITHDRAW")},
					"error.already_waiting": {"id": tr.ID, "place": p.num},
					"error.failed": {"why": d.tourText(lang, "err.already_in", map[string]any{"address": p.address[0],
						"id": tr.ID})},
					"ics.round": {"id": tr.ID, "round": p.num, "title": "Heaven & Ale"},
					"audit.result": {"game": tr.ID + "r2t1x1", "round": p.num, "result": held,
						"was": held},
					"audit.doubleforfeit": {"game": tr.ID + "r2t1x1", "round": p.num},
					"audit.swap": {"round": p.num, "a": p.names[0], "b": p.names[len(p.names)-1], "game_a": tr.ID + "r2t1x1",
						"game_b": tr.ID + "r2t3x1"},
					"audit.bye":    {"round": p.num, "name": p.names[0], "points": "0.5"},
					"audit.late":   {"name": p.names[0], "from": p.num},
					"audit.repair": {"round": p.num},
				}
				for name, data := range parts {
					texts[name] = d.tourText(lang, name, data)
				}
				// Standings, whole or an excerpt, are laid out as the desk
				// lays them out (tourStandingsText, excerpt).
				texts["standings"] = fitLines(texts["standings"])
				for _, name := range []string{"audit.result", "standings"} {
					flat := strings.Join(strings.Fields(texts[name]), " ")
					for _, nm := range p.names {
						if !strings.Contains(flat, strings.Join(strings.Fields(nm), " ")) {
							t.Errorf("%s %s: a game handed on does not name %q:\n%s", lang, name, nm, texts[name])
						}
					}
				}
				for name, text := range texts {
					seen[name] = true
					what := fmt.Sprintf("%s %s (%s, %s)", lang, name, p.id, tz)
					fits(t, what, text)
					if !utf8.ValidString(text) {
						t.Errorf("%s: not UTF-8 (a name cut inside a letter?):\n%q", what, text)
					}
					for _, v := range goValue {
						if strings.Contains(text, v) {
							t.Errorf("%s shows %q:\n%s", what, v, text)
						}
					}
				}
			}
		}
	}
	// The parts every mail renders (rules, calendar, commands) and the
	// subject are read through the mails; every other define is rendered
	// above.
	for _, n := range names {
		if !seen[n] && n != "subject" && n != "rules" && n != "calendar" && n != "commands" {
			t.Errorf("%s: not rendered in this test: add its data", n)
		}
	}
}

// matchAt is the index of entrant e's match in round rd (-1: none).
func matchAt(rd tournament.Round, e int) int {
	if k, ok := seats(rd)[e]; ok {
		return k
	}
	return -1
}
