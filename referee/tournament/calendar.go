package tournament

import (
	"strings"
	"time"
)

// How rounds open.
const (
	// OpenSchedule: a round opens on its date in the calendar (or, when
	// the previous round is still playing then, as soon as it completes).
	OpenSchedule = "schedule"
	// OpenComplete: a round opens as soon as the previous one completes;
	// the calendar's dates only set the rounds' deadlines.
	OpenComplete = "complete"
)

// Calendar is the organiser's schedule of the rounds: per-round dates, or
// a first date and an interval (the dates given first, then every Every).
type Calendar struct {
	// Start is when round 1 opens (and sign-up closes, when no closing
	// date is set).
	Start time.Time `json:"start,omitempty"`
	// Every is the time between two rounds' openings.
	Every time.Duration `json:"every,omitempty"`
	// Dates are the openings of rounds 1, 2, ... one by one; they win
	// over Start, and Every continues after the last.
	Dates []time.Time `json:"dates,omitempty"`
	// Open is OpenSchedule or OpenComplete ("": OpenSchedule when there
	// is a calendar, else OpenComplete).
	Open string `json:"open,omitempty"`
	// Warn is how long before a round's deadline the organiser is sent
	// the games not yet over (0: a quarter of the round, at most a day;
	// negative: never).
	Warn time.Duration `json:"warn,omitempty"`
	// TZ is the organiser's time zone (IANA name): dates without a zone
	// are read in it, and the pages show dates in it ("": UTC).
	TZ string `json:"tz,omitempty"`
}

// HasCalendar reports whether the organiser set any round date.
func (c Calendar) HasCalendar() bool { return !c.Start.IsZero() || len(c.Dates) > 0 }

// OnSchedule reports whether rounds wait for their date to open.
func (c Calendar) OnSchedule() bool {
	return c.Open == OpenSchedule || (c.Open == "" && c.HasCalendar())
}

// RoundDate is the scheduled opening of round n (1-based), zero when the
// calendar says nothing about it.
func (c Calendar) RoundDate(n int) time.Time {
	if n < 1 {
		return time.Time{}
	}
	if n <= len(c.Dates) {
		return c.Dates[n-1]
	}
	base, k := c.Start, n-1
	if len(c.Dates) > 0 {
		base, k = c.Dates[len(c.Dates)-1], n-len(c.Dates)
	}
	if base.IsZero() || (k > 0 && c.Every <= 0) {
		return time.Time{}
	}
	return base.Add(time.Duration(k) * c.Every)
}

// CheckCalendar refuses a calendar whose dates do not go forward.
func (c Calendar) CheckCalendar() error {
	if c.Every < 0 {
		return fault(ErrFormat, FaultEvery, "every", c.Every.String())
	}
	for i := 1; i < len(c.Dates); i++ {
		if !c.Dates[i].After(c.Dates[i-1]) {
			return fault(ErrFormat, FaultDateOrder, "round", i+1, "prev", i)
		}
	}
	switch c.Open {
	case "", OpenSchedule, OpenComplete:
	default:
		return fault(ErrFormat, FaultOpen, "open", c.Open)
	}
	if c.Open == OpenSchedule && !c.HasCalendar() {
		return fault(ErrFormat, FaultOpenSchedule)
	}
	return nil
}

// SignupCloses is when sign-up closes by itself: the closing date, else
// the opening of round 1 in the calendar (zero: when the organiser starts
// the tournament).
func (t *Tournament) SignupCloses() time.Time {
	if !t.Close.IsZero() {
		return t.Close
	}
	return t.RoundDate(1)
}

// RoundDue is the deadline of round n opened at opened: opened plus the
// round time when the organiser set one, else the next round's date in
// the calendar (for the last round, one interval after its opening); zero
// when there is none.
func (t *Tournament) RoundDue(n int, opened time.Time) time.Time {
	if t.Deadline > 0 {
		return opened.Add(t.Deadline)
	}
	if next := t.RoundDate(n + 1); n < t.PlannedRounds() && !next.IsZero() && next.After(opened) {
		return next
	}
	if t.Every > 0 && t.HasCalendar() {
		return opened.Add(t.Every)
	}
	return time.Time{}
}

// WarnAt is when the organiser is sent the games of round rd not yet over,
// before its deadline (zero: never).
func (t *Tournament) WarnAt(rd Round) time.Time {
	if rd.Due.IsZero() || t.Warn < 0 {
		return time.Time{}
	}
	w := t.Warn
	if w == 0 {
		w = min(24*time.Hour, rd.Due.Sub(rd.Opened)/4)
	}
	if w <= 0 {
		return time.Time{}
	}
	return rd.Due.Add(-w)
}

// Waiting reports whether the tournament waits for the calendar: the last
// round is complete (or sign-up closed before round 1's date), more are to
// come, and the next one's date is after now. It returns that date.
func (t *Tournament) Waiting(now time.Time) (time.Time, bool) {
	if t.Status != StatusRunning || !t.OnSchedule() {
		return time.Time{}, false
	}
	if len(t.Rounds) > 0 && (!t.Rounds[len(t.Rounds)-1].Complete() || t.Finished()) {
		return time.Time{}, false
	}
	at := t.RoundDate(len(t.Rounds) + 1)
	if at.IsZero() || !at.After(now) {
		return time.Time{}, false
	}
	return at, true
}

// Wake is when the tournament next needs the clock after now: sign-up
// closing, the next round's date, the warning before the deadline, or the
// deadline (zero: never).
func (t *Tournament) Wake(now time.Time) time.Time {
	var at time.Time
	soonest := func(x time.Time) {
		if !x.IsZero() && (at.IsZero() || x.Before(at)) {
			at = x
		}
	}
	switch t.Status {
	case StatusSignup:
		soonest(t.SignupCloses())
	case StatusRunning:
		if t.Opening {
			// Nothing else is due before the round is open: now, or when
			// a stuck opening is tried again.
			if t.Stuck != nil && t.Stuck.Retry.After(now) {
				return t.Stuck.Retry
			}
			return now
		}
		if d, ok := t.Waiting(now); ok {
			soonest(d)
		}
		if n := len(t.Rounds); n > 0 && !t.Rounds[n-1].Complete() {
			rd := t.Rounds[n-1]
			if !rd.Warned {
				soonest(t.WarnAt(rd))
			}
			if !rd.LateSent {
				soonest(rd.Due)
			}
		}
	}
	return at
}

// ParseCalendar reads the calendar settings of NEW TOURNAMENT and SCHEDULE:
// start=<date>, every=<duration>, dates=<date>,<date>..., open=schedule|
// complete, warn=<duration>|off, tz=<Area/City>. It reports whether key
// is one of them; dates without a zone are read in c.TZ (set tz= first, or
// on the same line: ParseCalendar is called for tz before the others).
func (c *Calendar) ParseCalendar(key, v string, dur func(string) (time.Duration, error)) (bool, error) {
	loc := time.UTC
	if c.TZ != "" {
		l, err := time.LoadLocation(c.TZ)
		if err != nil {
			return true, fault(ErrFormat, FaultZone, "tz", c.TZ)
		}
		loc = l
	}
	var err error
	switch key {
	case "tz":
		if _, err := time.LoadLocation(v); err != nil || !strings.Contains(v, "/") && v != "UTC" {
			return true, fault(ErrFormat, FaultZone, "tz", v)
		}
		c.TZ = v
	case "start":
		c.Start, err = ParseDate(v, loc)
	case "every":
		c.Every, err = dur(v)
		if err == nil && c.Every <= 0 {
			err = fault(ErrFormat, FaultDuration, "value", v)
		}
	case "dates":
		c.Dates = nil
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d == "" {
				continue
			}
			x, derr := ParseDate(d, loc)
			if derr != nil {
				return true, derr
			}
			c.Dates = append(c.Dates, x)
		}
	case "open":
		c.Open = strings.ToLower(v)
		if c.Open != OpenSchedule && c.Open != OpenComplete {
			err = fault(ErrFormat, FaultOpen, "open", v)
		}
	case "warn":
		if strings.EqualFold(v, "off") || v == "0" {
			c.Warn = -1
			break
		}
		c.Warn, err = dur(v)
	default:
		return false, nil
	}
	return true, err
}

// ParseDate reads 2026-12-01, 2026-12-01T18:00 (both in loc) or an RFC 3339
// time.
func ParseDate(v string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fault(ErrFormat, FaultDate, "value", v)
}
