package bymail

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// goValue are the marks of a Go value or error shown as it is: a map, a
// bad verb, a nil, a pointer.
var goValue = []string{"map[", "%!", "<nil>", "0x", "{{", "}}", "<no value>"}

// TestBatchFailedToldInWords (issue 24): a later batch of a round opening
// that fails tells the organiser, in their language, the table and the
// failure's class in words (package failure: a passing one, or one that
// will not pass by itself), never the error itself: the raw error goes to
// the log only. Generated: the organiser's four languages x a passing and
// a permanent error x the batch that fails x fields of 8 and 11.
func TestBatchFailedToldInWords(t *testing.T) {
	raw := "bbolt: tx closed: map[cup:1] %!d(string=x) <nil> 0xc000123456"
	stuck := map[string]string{"en": "round 2 is stuck while opening", "it": "il turno 2 è bloccato in apertura",
		"fr": "la ronde 2 est bloquée à l'ouverture", "nl": "ronde 2 blijft steken bij het openen"}
	class := map[string][2]string{ // passing, permanent
		"en": {"usually goes away by itself", "will not pass by itself"},
		"it": {"di solito sparisce da sola", "non passerà da sola"},
		"fr": {"disparaît d'habitude d'elle-même", "ne passera pas d'elle-même"},
		"nl": {"meestal gaat ze vanzelf over", "gaat niet vanzelf over"},
	}
	tableWord := map[string]string{"en": "table %d could", "it": "tavolo %d non", "fr": "table %d n'a", "nl": "tafel %d kon"}
	for _, lang := range templates.Languages {
		for _, permanent := range []bool{false, true} {
			for _, n := range []int{8, 11} {
				for failAt := 2; failAt <= 3; failAt++ {
					t.Run(fmt.Sprintf("%s/permanent=%v/%d/batch%d", lang, permanent, n, failAt), func(t *testing.T) {
						h := newBatchHost(t, 1)
						calls := 0
						h.fail = func(string) error {
							if calls++; calls < failAt {
								return nil
							}
							if permanent {
								return failure.Permanent("%s", raw)
							}
							return errors.New(raw)
						}
						h.openRoundTwo(t, roundMailCase{format: "swiss", n: n, table: 2, lang: lang}, 0)
						tr := loadTourT(t, h.rec)
						if tr.Stuck == nil || tr.Stuck.Tries != 1 || !tr.Opening {
							t.Fatalf("not stuck: %+v", tr.Stuck)
						}
						if len(h.org) != 1 {
							t.Fatalf("%d organiser mails:\n%s", len(h.org), strings.Join(h.org, "\n---\n"))
						}
						mail := h.org[0]
						fits(t, "org.batch_failed", mail)
						flat := strings.Join(strings.Fields(mail), " ")
						table := tr.Rounds[1].Matches[failAt-1].Table
						k := 0
						if permanent {
							k = 1
						}
						if !strings.Contains(flat, stuck[lang]) || !strings.Contains(flat, class[lang][k]) ||
							strings.Contains(flat, class[lang][1-k]) || !strings.Contains(flat, fmt.Sprintf(tableWord[lang], table)) {
							t.Errorf("the mail does not say, in words, the table %d and the class:\n%s", table, mail)
						}
						for _, v := range append(goValue, "bbolt", "tx closed", "permanent:") {
							if strings.Contains(mail, v) {
								t.Errorf("the organiser's mail shows %q of the raw error:\n%s", v, mail)
							}
						}
						if len(h.warned) == 0 || !strings.Contains(h.warned[0], raw) {
							t.Errorf("the raw error is not in the log: %q", h.warned)
						}
					})
				}
			}
		}
	}
}

// TestBatchFailedFitsEveryLength (issue 24): the stuck round's mail and
// the one that says it opened wrap within 80 columns for every length of
// tournament id, round, table and counts, and every retry date the
// organiser may read (every month and weekday, zones with long names and
// odd offsets), in four languages, both classes: by their own paragraphs,
// rendered here without orgText's fold (the safety net).
func TestBatchFailedFitsEveryLength(t *testing.T) {
	zones := []string{"UTC", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Pacific/Chatham", "Europe/Amsterdam"}
	var dates []time.Time
	for m := range 12 {
		for d := range 7 {
			dates = append(dates, time.Date(2026, time.Month(m+1), 20+d, 23, 59, 0, 0, time.UTC))
		}
	}
	ids := []string{"c", "cup2026", "abcdefghijklmnop"}
	nums := []int{1, 12, 999, 123456}
	for _, lang := range templates.Languages {
		d := newDesk(newTestHost(t, dates[0]))
		// The longest date of each zone, then every date with the longest values.
		longest := map[string]string{}
		for _, z := range zones {
			for _, at := range dates {
				tr := &tournament.Tournament{ID: ids[2], Settings: tournament.Settings{OrgLang: lang, Calendar: tournament.Calendar{TZ: z}}}
				s := d.orgTime(tr, at)
				if len(s) > len(longest[z]) {
					longest[z] = s
				}
				for _, cause := range []string{"transient", "permanent"} {
					fits(t, lang+" org.batch_failed", unfolded(d, tr, "batch_failed", map[string]any{"round": 999, "table": 123456,
						"cause": cause, "open": 123456, "games": 123456, "retry": s}))
				}
			}
		}
		for _, id := range ids {
			tr := &tournament.Tournament{ID: id, Settings: tournament.Settings{OrgLang: lang}}
			for _, n := range nums {
				for _, m := range nums {
					for _, retry := range longest {
						for _, cause := range []string{"transient", "permanent"} {
							text := unfolded(d, tr, "batch_failed", map[string]any{"round": n, "table": m, "cause": cause,
								"open": m, "games": n, "retry": retry})
							fits(t, lang+" org.batch_failed", text)
							for _, v := range goValue {
								if strings.Contains(text, v) {
									t.Errorf("%s org.batch_failed shows %q:\n%s", lang, v, text)
								}
							}
						}
					}
					fits(t, lang+" org.batch_recovered", unfolded(d, tr, "batch_recovered", map[string]any{"round": n, "tries": m}))
				}
			}
		}
	}
}

// unfolded is orgText without its fold: the template's own layout.
func unfolded(d *desk, t *tournament.Tournament, name string, data map[string]any) string {
	data["id"] = t.ID
	return d.tourText(orgLang(t), "org."+name, data)
}
