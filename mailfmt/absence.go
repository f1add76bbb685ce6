package mailfmt

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Date is a calendar date without time of day or zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// IsZero reports whether the date is unset.
func (d Date) IsZero() bool { return d == Date{} }

// String formats the date as YYYY-MM-DD ("" for the zero date).
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// Before reports whether d is before e.
func (d Date) Before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// monthNames maps the month names and abbreviations recognised, in
// English, Italian, French, Dutch, German and Spanish (words/reply.txt,
// sections month-1 to month-12), to their month.
var monthNames = func() map[string]time.Month {
	m := map[string]time.Month{}
	for month := time.January; month <= time.December; month++ {
		for _, n := range words(fmt.Sprintf("month-%d", int(month))) {
			m[n] = month
		}
	}
	return m
}()

// monthAlt is the regexp alternation of the month names, longest first (so
// that "sept" wins over "sep").
var monthAlt = func() string {
	names := make([]string, 0, len(monthNames))
	for n := range monthNames {
		names = append(names, regexp.QuoteMeta(n))
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return strings.Join(names, "|")
}()

var (
	isoDateRe     = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	numDateRe     = regexp.MustCompile(`\b(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})\b`)
	dmDotRe       = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.(?:\s|$|,)`)
	dayMonthRe    = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th|er|e|\.|º)?\s+(?:of\s+|de\s+)?(` + monthAlt + `)\.?(?:\s+(\d{4}))?\b`)
	monthDayRe    = regexp.MustCompile(`\b(` + monthAlt + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`)
	returnTrigger = regexp.MustCompile(`(?:until|till|through|thru|back\s(?:on|in\sthe\soffice\son)?|return(?:ing)?\s(?:on|to\sthe\soffice\son)?|returns\son|after|\bto|` +
		`fino\sal(?:l')?|fino\sa|sino\sal|\bal|rientr\S*(?:\sil)?|di\sritorno\s(?:il|dal)?|torner\S*(?:\sil)?|` +
		`jusqu'(?:au|à|a)|\bau|de\sretour\s(?:le|à\spartir\sdu)?|retour\s(?:prévu\s)?le|à\spartir\sdu|` +
		`tot\sen\smet|t/m|\btot|terug\sop|weer\s(?:aanwezig|bereikbaar|op\skantoor)\sop|vanaf|` +
		`bis\szum|bis\s(?:einschließlich|einschl\.)?|\bbis|zurück\sam|wieder\s\S+\s(?:am|ab)|\bab(?:\sdem)?|` +
		`hasta\sel|hasta|-)\s*(?:the|le|il|lo|el|den|dem|de|op|on|am|mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|gio|ven|sab|dom|jeu|sam|dim|ma|di|wo|do|vr|za|zo|mo|mi|fr|sa|so|monday|tuesday|wednesday|thursday|friday|saturday|sunday|` +
		`luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|` +
		`maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|[,.\s])*$`)
)

type dateMatch struct {
	start, end int
	d          Date
	hasYear    bool
	rank       int // pattern order: on overlaps of equal length, the lower wins
}

// ReturnDate finds, best effort, the date an out-of-office text names as
// the end of the absence: a date right after "until", "back on", "fino al",
// "rientro il", "jusqu'au", "de retour le", "tot en met", "terug op",
// "bis zum", "zurück am" and similar (and the end of a range such as
// "10-20 December" or "dal 10 al 20 dicembre"), written as 2026-12-20,
// 20/12/2026, 20.12.2026, 20.12., "20 December [2026]", "December 20[,
// 2026]" or the same in Italian, French, Dutch, German and Spanish. A date
// without year takes ref's year, or the next one when it would be more
// than a week before ref. Numeric dates are read day first unless that is
// impossible. It returns the zero Date when no date follows such a phrase,
// or when a year is needed and ref is zero.
func ReturnDate(text string, ref time.Time) (Date, string) {
	if len(text) > 8000 {
		text = text[:8000]
	}
	low := lowerSameLen(text)
	var found []dateMatch
	rank := 0
	addAll := func(re *regexp.Regexp, f func(sm []string) (Date, bool, bool)) {
		rank++
		for _, loc := range re.FindAllStringSubmatchIndex(low, 32) {
			sm := make([]string, len(loc)/2)
			for i := range sm {
				if loc[2*i] >= 0 {
					sm[i] = low[loc[2*i]:loc[2*i+1]]
				}
			}
			d, hasYear, ok := f(sm)
			if !ok {
				continue
			}
			found = append(found, dateMatch{start: loc[0], end: loc[1], d: d, hasYear: hasYear, rank: rank})
		}
	}
	addAll(isoDateRe, func(sm []string) (Date, bool, bool) {
		return mkDate(atoi(sm[1]), atoi(sm[2]), atoi(sm[3]))
	})
	addAll(numDateRe, func(sm []string) (Date, bool, bool) {
		y := atoi(sm[3])
		if y < 100 {
			y += 2000
		}
		if d, hy, ok := mkDate(y, atoi(sm[2]), atoi(sm[1])); ok {
			return d, hy, ok
		}
		return mkDate(y, atoi(sm[1]), atoi(sm[2]))
	})
	addAll(dmDotRe, func(sm []string) (Date, bool, bool) {
		d, _, ok := mkDate(2000, atoi(sm[2]), atoi(sm[1]))
		return d, false, ok
	})
	addAll(dayMonthRe, func(sm []string) (Date, bool, bool) {
		y := atoi(sm[3])
		d, _, ok := mkDate(max(y, 2000), int(monthNames[sm[2]]), atoi(sm[1]))
		return d, y > 0, ok
	})
	addAll(monthDayRe, func(sm []string) (Date, bool, bool) {
		y := atoi(sm[3])
		d, _, ok := mkDate(max(y, 2000), int(monthNames[sm[1]]), atoi(sm[2]))
		return d, y > 0, ok
	})
	// Overlapping matches: keep the longest, and day-first forms over
	// month-first ones ("mar 12 mag" is Tuesday 12 May, not 12 March).
	var dates []dateMatch
	for _, f := range found {
		keep := true
		for _, g := range found {
			if g == f || g.start >= f.end || f.start >= g.end {
				continue
			}
			gl, fl := g.end-g.start, f.end-f.start
			if gl > fl || (gl == fl && (g.rank < f.rank || (g.rank == f.rank && g.start < f.start))) {
				keep = false
				break
			}
		}
		if keep {
			dates = append(dates, f)
		}
	}
	var best *dateMatch
	for i := range dates {
		f := &dates[i]
		window := low[max(0, f.start-40):f.start]
		if !returnTrigger.MatchString(window) {
			continue
		}
		if best == nil || f.start < best.start {
			best = f
		}
	}
	if best == nil {
		return Date{}, ""
	}
	d := best.d
	phraseStart := max(0, best.start-40)
	if loc := returnTrigger.FindStringIndex(low[phraseStart:best.start]); loc != nil {
		phraseStart += loc[0]
	}
	phrase := strings.Join(strings.Fields(text[phraseStart:best.end]), " ")
	if !best.hasYear {
		if ref.IsZero() {
			return Date{}, phrase
		}
		d.Year = ref.Year()
		week := ref.AddDate(0, 0, -7)
		if d.Before(Date{week.Year(), week.Month(), week.Day()}) {
			d.Year++
		}
		if _, _, ok := mkDate(d.Year, int(d.Month), d.Day); !ok {
			return Date{}, phrase
		}
	}
	return d, phrase
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

func mkDate(y, m, d int) (Date, bool, bool) {
	if y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return Date{}, false, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return Date{}, false, false
	}
	return Date{y, time.Month(m), d}, true, true
}

// lowerSameLen lower-cases s without changing any byte offset: runes whose
// lower case has another UTF-8 length, and invalid bytes, are kept as they
// are (strings.ToLower would turn an invalid byte into a 3-byte U+FFFD).
func lowerSameLen(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			i++
			continue
		}
		if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == n {
			utf8.EncodeRune(b[i:], l)
		}
		i += n
	}
	return string(b)
}
