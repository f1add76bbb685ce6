package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// englishDayWord finds an English day name in a mail (the abbreviations
// capitalised, as English mails write them; the full names in any case).
var englishDayWord = regexp.MustCompile(`\b(Sun|Mon|Tue|Wed|Thu|Fri|Sat)\b|(?i)\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b`)

// Rule (issue 25, date words in templates; referee/deadline's doc): a
// deadline shown in a mail names its day in the reader's language only,
// whatever language the organiser wrote the allowed days in. Generated:
// the organiser's day words of every language x every reader's language x
// time zones; through the invitation (the policy), the start (the
// deadline) and a reminder.
func TestDeadlineMailsInTheReadersLanguage(t *testing.T) {
	organiser := map[string]string{"en": "mon-fri", "it": "lun-ven", "fr": "lun.-ven.", "nl": "ma-vr"}
	zones := []string{"Europe/Rome", "America/New_York"}
	checked := 0
	for olang, days := range organiser {
		for _, lang := range templates.Languages {
			for zi, tz := range zones {
				h := newHarness(t)
				id := fmt.Sprintf("d%s%s%d", olang, lang, zi)
				h.org(fmt.Sprintf("NEW toy id=%s rounds=2 deadline=30h,days=%s,at=20:00,remind=50%%\n"+
					"PLAYER ann@p.test Ann %s %s\nPLAYER bob@p.test Bob %s %s", id, days, lang, tz, lang, tz))
				invites := h.mails()
				h.send(id, "ann@p.test", "JOIN", -1)
				h.send(id, "bob@p.test", "JOIN", -1)
				started := h.mails()
				g := h.game(id)
				var due time.Time
				for _, s := range g.Seats {
					if s.Deadline != nil && !s.Deadline.Due.IsZero() {
						due = s.Deadline.Due
					}
				}
				if due.IsZero() {
					t.Fatalf("%s: no deadline started", id)
				}
				if wd := due.In(templates.Zone(tz)).Weekday(); wd == time.Saturday || wd == time.Sunday {
					t.Errorf("%s: due on a %v", id, wd)
				}
				for _, s := range g.Seats {
					if s.Deadline != nil && len(s.Deadline.Reminders) > 0 {
						h.clock.T = s.Deadline.Reminders[0].Add(time.Minute)
					}
				}
				h.tick()
				reminded := h.mails()
				dueWord := strings.TrimSuffix(strings.Fields(templates.FormatShort(lang, due.In(templates.Zone(tz))))[0], ".")
				sawDue := false
				for _, ms := range [][]*Outgoing{invites, started, reminded} {
					for _, m := range ms {
						if m.To == org {
							continue
						}
						text := m.Subject + "\n" + m.Body
						if lang != "en" && englishDayWord.MatchString(text) {
							t.Errorf("%s reader (%s days by the organiser): %q in %s mail %q:\n%s", lang, olang, englishDayWord.FindString(text), m.Kind, m.Subject, m.Body)
						}
						if strings.Contains(m.Body, dueWord) {
							sawDue = true
						}
						checked++
					}
				}
				if !sawDue {
					t.Errorf("%s: no mail names the due day %q", id, dueWord)
				}
				if len(reminded) == 0 {
					t.Errorf("%s: no reminder at %v", id, h.clock.T)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d mails", checked)
	}
}
