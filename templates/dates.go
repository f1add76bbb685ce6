package templates

import (
	"fmt"
	"strconv"
	"time"
)

// The names of days and months in each language (abbreviated, as mails show
// deadlines: "Tue 24 Nov 2026 20:00 CET").
var (
	dayNames = map[string][7]string{
		"en": {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
		"it": {"dom", "lun", "mar", "mer", "gio", "ven", "sab"},
		"fr": {"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."},
		"nl": {"zo", "ma", "di", "wo", "do", "vr", "za"},
	}
	monthNames = map[string][12]string{
		"en": {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
		"it": {"gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"},
		"fr": {"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."},
		"nl": {"jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"},
	}
)

// FormatTime writes a time for a reader: day, date, time of day and zone,
// in the reader's language ("Tue 24 Nov 2026 20:00 CET", "mar 24 nov 2026
// 20:00 CET"). The time is shown in its own location.
func FormatTime(lang string, t time.Time) string {
	days, ok := dayNames[lang]
	if !ok {
		lang, days = "en", dayNames["en"]
	}
	months := monthNames[lang]
	zone, _ := t.Zone()
	return fmt.Sprintf("%s %d %s %d %02d:%02d %s", days[t.Weekday()], t.Day(), months[t.Month()-1], t.Year(), t.Hour(), t.Minute(), zone)
}

// FormatShort writes a time in short for a subject line: day, date and
// time of day, no year nor zone ("Tue 24 Nov 20:00").
func FormatShort(lang string, t time.Time) string {
	days, ok := dayNames[lang]
	if !ok {
		lang, days = "en", dayNames["en"]
	}
	return fmt.Sprintf("%s %d %s %02d:%02d", days[t.Weekday()], t.Day(), monthNames[lang][t.Month()-1], t.Hour(), t.Minute())
}

// dayName returns the name of weekday d (0 = Sunday) in lang.
func dayName(lang string, d any) string {
	days, ok := dayNames[lang]
	if !ok {
		days = dayNames["en"]
	}
	n := toInt(d)
	if n < 0 || n > 6 {
		return "?"
	}
	return days[n]
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
