package deadline_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/templates"
)

// englishDay finds an English day name as a word (the abbreviations
// capitalised, as English mails write them; the full names in any case).
var englishDay = regexp.MustCompile(`\b(Sun|Mon|Tue|Wed|Thu|Fri|Sat)\b|(?i)\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b`)

// The day words of each language as an organiser may type them.
var organiserDays = map[string][2]string{
	"en": {"mon", "fri"}, "en-caps": {"MON", "Fri"},
	"it": {"lun", "ven"}, "fr": {"lun.", "ven."}, "nl": {"ma", "vr"}, "mixed": {"Lun", "vr"},
}

// Rule (issue 25, date words in templates): a deadline setting reads the
// day words of every language, and a deadline shown to a reader names its
// days in the reader's language only. Generated: the day words of every
// language x settings with and without a fixed hour x every reader's
// language x time zones x start days.
func TestDeadlineWordsInEveryLanguage(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	zones := []string{"UTC", "Europe/Rome", "America/New_York", "Asia/Tokyo"}
	start := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC) // a Friday
	checked := 0
	for form, days := range organiserDays {
		for _, extra := range []string{"", " at=20:00", " place=24h at=07:15 remind=50%+4h"} {
			text := fmt.Sprintf("36h days=%s-%s%s", days[0], days[1], extra)
			p, err := deadline.ParsePolicy(text)
			if err != nil {
				t.Fatalf("%s: %q: %v", form, text, err)
			}
			if want := []time.Weekday{1, 2, 3, 4, 5}; !slices.Equal(p.Weekdays, want) {
				t.Fatalf("%s: %q: weekdays %v, want %v", form, text, p.Weekdays, want)
			}
			if back, err := deadline.ParsePolicy(p.String()); err != nil || back.String() != p.String() {
				t.Errorf("%q does not read back: %q, %v", p.String(), back.String(), err)
			}
			for _, lang := range set.Languages() {
				policy, err := set.Render("referee", lang, "policy", p.View())
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range p.Weekdays {
					if day := strings.TrimSuffix(dayName(lang, d), "."); !strings.Contains(policy, day) {
						t.Errorf("%s: the policy does not name %v as %q: %s", lang, d, day, policy)
					}
				}
				for _, tz := range zones {
					loc := templates.Zone(tz)
					for shift := 0; shift < 7; shift++ {
						s := start.AddDate(0, 0, shift)
						due := p.Due("place", s, loc)
						if wd := due.In(loc).Weekday(); wd == time.Saturday || wd == time.Sunday {
							t.Errorf("%q from %v in %s: due on a %v", text, s, tz, wd)
						}
						mail := policy + "\n" + templates.FormatTime(lang, due.In(loc)) + "\n" + templates.FormatShort(lang, due.In(loc))
						for _, r := range p.Remind(s, due) {
							mail += "\n" + templates.FormatTime(lang, r.In(loc))
						}
						if lang != "en" && englishDay.MatchString(mail) {
							t.Errorf("%s reader, %q: an English day name (%q) in:\n%s", lang, text, englishDay.FindString(mail), mail)
						}
						if lang == "en" && !englishDay.MatchString(mail) {
							t.Errorf("en reader: no day name in:\n%s", mail)
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("checked %d mails", checked)
	}
	if _, err := deadline.ParsePolicy("days=mon-fry"); err == nil {
		t.Error("a day that is no day was read")
	}
}

// dayOf returns a date on weekday d.
func dayOf(d time.Weekday) time.Time { return time.Date(2026, 11, 22+int(d), 12, 0, 0, 0, time.UTC) }

// dayName is the name of day d in lang, as FormatShort writes it.
func dayName(lang string, d time.Weekday) string {
	return strings.Fields(templates.FormatShort(lang, dayOf(d)))[0]
}
