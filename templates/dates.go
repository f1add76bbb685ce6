package templates

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// dateWords are the abbreviated names of days (Sunday first) and months of
// one language, as mails show deadlines ("Tue 24 Nov 2026 20:00 CET"):
// common/<lang>/dates.txt, "days: Sun, Mon, ..." and "months: Jan, ...".
type dateWords struct {
	days   [7]string
	months [12]string
}

func parseDates(fsys fs.FS, p string) (dateWords, error) {
	var d dateWords
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return d, err
	}
	seen := map[string]bool{}
	err = dataLines(b, func(n int, line string) error {
		kind, list, _ := strings.Cut(line, ":")
		kind = strings.TrimSpace(kind)
		var words []string
		for _, w := range strings.Split(list, ",") {
			words = append(words, strings.TrimSpace(w))
		}
		switch {
		case kind == "days" && len(words) == 7:
			copy(d.days[:], words)
		case kind == "months" && len(words) == 12:
			copy(d.months[:], words)
		default:
			return fmt.Errorf("templates: %s:%d: want \"days: <7 names>\" or \"months: <12 names>\"", p, n)
		}
		seen[kind] = true
		return nil
	})
	if err == nil && !(seen["days"] && seen["months"]) {
		err = fmt.Errorf("templates: %s: days and months are both needed", p)
	}
	return d, err
}

// datesOf returns the date words of lang, English's when lang has none.
func (s *Set) datesOf(lang string) dateWords {
	if d, ok := s.dates[lang]; ok {
		return d
	}
	return s.dates["en"]
}

// dateSet is the Set whose date words the package functions use.
func dateSet() *Set {
	s, err := Load()
	if err != nil {
		panic(err) // the embedded templates are tested to load
	}
	return s
}

// FormatTime writes a time for a reader: day, date, time of day and zone,
// in the reader's language ("Tue 24 Nov 2026 20:00 CET", "mar 24 nov 2026
// 20:00 CET"). The time is shown in its own location.
func FormatTime(lang string, t time.Time) string {
	d := dateSet().datesOf(lang)
	zone, _ := t.Zone()
	return fmt.Sprintf("%s %d %s %d %02d:%02d %s", d.days[t.Weekday()], t.Day(), d.months[t.Month()-1], t.Year(), t.Hour(), t.Minute(), zone)
}

// FormatShort writes a time in short for a subject line: day, date and
// time of day, no year nor zone ("Tue 24 Nov 20:00").
func FormatShort(lang string, t time.Time) string {
	d := dateSet().datesOf(lang)
	return fmt.Sprintf("%s %d %s %02d:%02d", d.days[t.Weekday()], t.Day(), d.months[t.Month()-1], t.Hour(), t.Minute())
}

// dayName returns the name of weekday d (0 = Sunday) in lang: the
// template function dayname.
func (s *Set) dayName(lang string, d any) string {
	n := toInt(d)
	if n < 0 || n > 6 {
		return "?"
	}
	return s.datesOf(lang).days[n]
}

// ParseDay reads a day as an organiser writes it in a setting such as
// days=mon-fri: the abbreviated name of the day in any of our languages
// (common/<lang>/dates.txt: "mon", "lun", "lun.", "ma"), whatever the case.
// A word that names two different days in two languages is refused by the
// templates' tests (TestDayWordsAreUnambiguous).
func ParseDay(word string) (time.Weekday, bool) {
	d, ok := dateSet().days[dayKey(word)]
	return d, ok
}

// DayCode is the day as the settings write it back (Policy.String): the
// English abbreviation in lower case ("mon"), which ParseDay reads.
func DayCode(d time.Weekday) string {
	return dayKey(dateSet().datesOf("en").days[d%7])
}

func dayKey(w string) string { return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(w)), ".") }

// dayWords maps every language's day words (dayKey) to their weekday;
// a word of two days keeps the first language's (the test refuses it).
func (s *Set) dayWords() map[string]time.Weekday {
	m := map[string]time.Weekday{}
	for _, lang := range s.langs {
		for i, w := range s.datesOf(lang).days {
			if _, dup := m[dayKey(w)]; !dup {
				m[dayKey(w)] = time.Weekday(i)
			}
		}
	}
	return m
}

// num writes a number without a useless fraction: 48, 1.5.
func num(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	}
	return fmt.Sprint(v)
}

// Zone returns a reader's time zone by its IANA name (UTC when unset or
// unknown): the zone every date of a mail to them is written in.
func Zone(tz string) *time.Location {
	if tz == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return time.UTC
	}
	return loc
}
