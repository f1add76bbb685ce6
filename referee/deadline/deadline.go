package deadline

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	// Players' time zones must resolve on a host without a zoneinfo
	// database (a minimal container): the binary carries its own copy.
	_ "time/tzdata"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// Error is a policy that does not read: a code (policy_at, policy_remind,
// policy_misses, policy_vacation, policy_duration, policy_day) and its
// parameters (value: the setting as written; day: the word not a day), no
// prose. The core words it for the organiser from the template
// "org.error.<Code>" in the organiser's language (issue 22).
type Error struct {
	Code   string
	Params map[string]any
}

// Error names the code and the value (for logs and the command line).
func (e *Error) Error() string {
	s := "deadline: " + e.Code + " " + fmt.Sprint(e.Params["value"])
	if d, ok := e.Params["day"]; ok {
		s += " day=" + fmt.Sprint(d)
	}
	return s
}

func fail(code string, kv ...any) *Error {
	return &Error{Code: code, Params: engine.Params(kv...)}
}

// Policy is a game's deadline policy, set by the organiser.
type Policy struct {
	// Hours is the time allowed per decision kind; "*" is the default for
	// kinds not listed. 0 (or no entry at all) means no deadline.
	Hours map[string]float64 `json:"hours,omitempty"`
	// AtTime, "HH:MM", moves each deadline forward to the next such time of
	// day in the player's time zone (so deadlines fall at a fixed hour).
	AtTime string `json:"at_time,omitempty"`
	// Weekdays, if set, are the days a deadline may fall on (in the player's
	// time zone); a deadline on another day moves to the next allowed day.
	Weekdays []time.Weekday `json:"weekdays,omitempty"`
	// Reminders are fractions of the allowed time after which a reminder is
	// sent (0.5 = at half time); HoursBefore are hours before the deadline.
	Reminders   []float64 `json:"reminders,omitempty"`
	HoursBefore []float64 `json:"hours_before,omitempty"`
	// MissLimit is the number of consecutive missed moves after which the
	// seat is played by the engine's bot (0: never).
	MissLimit int `json:"miss_limit"`
	// VacationDays is each seat's budget of vacation days in this game.
	VacationDays float64 `json:"vacation_days"`
}

// DefaultPolicy is 48 hours per decision, reminders at half time and 4 hours
// before, a bot after 3 consecutive missed moves, 14 vacation days.
func DefaultPolicy() Policy {
	return Policy{
		Hours:        map[string]float64{"*": 48},
		Reminders:    []float64{0.5},
		HoursBefore:  []float64{4},
		MissLimit:    3,
		VacationDays: 14,
	}
}

// ParsePolicy reads a compact policy text, as organisers write it in a NEW
// mail or on the command line: space- or comma-separated settings
//
//	48h  place=24h  brew=12h  at=20:00  days=mon-fri  remind=50%,4h  misses=3  vacation=14
//
// A bare duration sets the default; kind=duration sets one decision kind;
// "none" means no deadlines.
func ParsePolicy(s string) (Policy, error) {
	p := DefaultPolicy()
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' }) {
		k, v, kv := strings.Cut(f, "=")
		if !kv {
			if strings.EqualFold(f, "none") {
				p.Hours = map[string]float64{}
				continue
			}
			h, err := ParseHours(f)
			if err != nil {
				return p, err
			}
			p.Hours["*"] = h
			continue
		}
		switch strings.ToLower(k) {
		case "at":
			if _, err := time.Parse("15:04", v); err != nil {
				return p, fail("policy_at", "value", v)
			}
			p.AtTime = v
		case "days":
			days, err := parseWeekdays(v)
			if err != nil {
				return p, err
			}
			p.Weekdays = days
		case "remind":
			p.Reminders, p.HoursBefore = nil, nil
			for _, r := range strings.Split(v, "+") {
				if strings.HasSuffix(r, "%") {
					x, err := strconv.ParseFloat(strings.TrimSuffix(r, "%"), 64)
					if err != nil || x <= 0 || x >= 100 {
						return p, fail("policy_remind", "value", r)
					}
					p.Reminders = append(p.Reminders, x/100)
				} else {
					h, err := ParseHours(r)
					if err != nil {
						return p, err
					}
					p.HoursBefore = append(p.HoursBefore, h)
				}
			}
		case "misses":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return p, fail("policy_misses", "value", v)
			}
			p.MissLimit = n
		case "vacation":
			n, err := strconv.ParseFloat(v, 64)
			if err != nil || n < 0 {
				return p, fail("policy_vacation", "value", v)
			}
			p.VacationDays = n
		default:
			h, err := ParseHours(v)
			if err != nil {
				return p, err
			}
			p.Hours[strings.ToLower(k)] = h
		}
	}
	return p, nil
}

// ParseHours reads a duration as organisers write it: 48h, 2d, 90m, or a
// bare number of hours.
func ParseHours(s string) (float64, error) {
	s = strings.ToLower(s)
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "d"):
		mult, s = 24, strings.TrimSuffix(s, "d")
	case strings.HasSuffix(s, "h"):
		s = strings.TrimSuffix(s, "h")
	case strings.HasSuffix(s, "m"):
		mult, s = 1.0/60, strings.TrimSuffix(s, "m")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fail("policy_duration", "value", s)
	}
	return x * mult, nil
}

func parseWeekdays(s string) ([]time.Weekday, error) {
	set := map[time.Weekday]bool{}
	for _, part := range strings.Split(s, "+") {
		a, b, rng := strings.Cut(part, "-")
		da, ok := templates.ParseDay(a)
		if !ok {
			return nil, fail("policy_day", "value", s, "day", a)
		}
		if !rng {
			set[da] = true
			continue
		}
		db, ok := templates.ParseDay(b)
		if !ok {
			return nil, fail("policy_day", "value", s, "day", b)
		}
		for d := da; ; d = (d + 1) % 7 {
			set[d] = true
			if d == db {
				break
			}
		}
	}
	var out []time.Weekday
	for d := range set {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// String renders the policy in the syntax ParsePolicy reads.
func (p Policy) String() string {
	var parts []string
	kinds := make([]string, 0, len(p.Hours))
	for k := range p.Hours {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	if len(kinds) == 0 {
		parts = append(parts, "none")
	}
	for _, k := range kinds {
		h := strconv.FormatFloat(p.Hours[k], 'f', -1, 64) + "h"
		if k == "*" {
			parts = append([]string{h}, parts...)
		} else {
			parts = append(parts, k+"="+h)
		}
	}
	if p.AtTime != "" {
		parts = append(parts, "at="+p.AtTime)
	}
	if len(p.Weekdays) > 0 {
		var ds []string
		for _, d := range p.Weekdays {
			ds = append(ds, templates.DayCode(d))
		}
		parts = append(parts, "days="+strings.Join(ds, "+"))
	}
	var rs []string
	for _, r := range p.Reminders {
		rs = append(rs, strconv.FormatFloat(r*100, 'f', -1, 64)+"%")
	}
	for _, h := range p.HoursBefore {
		rs = append(rs, strconv.FormatFloat(h, 'f', -1, 64)+"h")
	}
	if len(rs) > 0 {
		parts = append(parts, "remind="+strings.Join(rs, "+"))
	}
	parts = append(parts, fmt.Sprintf("misses=%d", p.MissLimit), "vacation="+strconv.FormatFloat(p.VacationDays, 'f', -1, 64))
	return strings.Join(parts, " ")
}

// PolicyView is a policy as templates show it (template "policy").
type PolicyView struct {
	None     bool        // no deadlines at all
	Default  float64     // hours per decision
	Kinds    []KindHours // decision kinds with their own time
	AtTime   string      // "HH:MM" deadlines fall at, or ""
	Days     []int       // weekdays deadlines may fall on (0 = Sunday)
	Percents []float64   // reminders after these percentages of the time
	Before   []float64   // reminders these hours before the deadline
	Misses   int         // missed moves in a row before the bot plays
	Vacation float64     // vacation days per seat
}

// KindHours is the time allowed for one decision kind.
type KindHours struct {
	Kind  string
	Hours float64
}

// View returns the policy for templates.
func (p Policy) View() PolicyView {
	v := PolicyView{Default: p.Hours["*"], AtTime: p.AtTime, Misses: p.MissLimit, Vacation: p.VacationDays, Before: p.HoursBefore}
	kinds := make([]string, 0, len(p.Hours))
	for k := range p.Hours {
		if k != "*" {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		v.Kinds = append(v.Kinds, KindHours{Kind: k, Hours: p.Hours[k]})
	}
	v.None = v.Default <= 0 && len(v.Kinds) == 0
	for _, d := range p.Weekdays {
		v.Days = append(v.Days, int(d))
	}
	for _, r := range p.Reminders {
		v.Percents = append(v.Percents, r*100)
	}
	return v
}

// HoursFor returns the time allowed for a decision kind (0: no deadline).
func (p Policy) HoursFor(kind string) float64 {
	if h, ok := p.Hours[kind]; ok {
		return h
	}
	return p.Hours["*"]
}

// Due computes a deadline started at start for a decision kind, in the
// player's time zone: start + the allowed time, moved forward to the next
// AtTime and allowed weekday. The zero time means no deadline.
func (p Policy) Due(kind string, start time.Time, loc *time.Location) time.Time {
	h := p.HoursFor(kind)
	if h <= 0 {
		return time.Time{}
	}
	d := start.Add(time.Duration(h * float64(time.Hour))).In(loc)
	if p.AtTime != "" {
		at, _ := time.Parse("15:04", p.AtTime)
		c := time.Date(d.Year(), d.Month(), d.Day(), at.Hour(), at.Minute(), 0, 0, loc)
		if c.Before(d) {
			c = c.AddDate(0, 0, 1)
		}
		d = c
	}
	if len(p.Weekdays) > 0 {
		for i := 0; i < 7 && !containsDay(p.Weekdays, d.Weekday()); i++ {
			d = d.AddDate(0, 0, 1)
		}
	}
	return d.UTC()
}

func containsDay(days []time.Weekday, d time.Weekday) bool {
	for _, x := range days {
		if x == d {
			return true
		}
	}
	return false
}

// Remind returns the reminder times of a deadline, in order, all strictly
// between start and due.
func (p Policy) Remind(start, due time.Time) []time.Time {
	if due.IsZero() {
		return nil
	}
	span := due.Sub(start)
	var out []time.Time
	for _, f := range p.Reminders {
		out = append(out, start.Add(time.Duration(float64(span)*f)))
	}
	for _, h := range p.HoursBefore {
		out = append(out, due.Add(-time.Duration(h*float64(time.Hour))))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	kept := out[:0]
	for i, t := range out {
		if t.After(start) && t.Before(due) && (i == 0 || !t.Equal(out[i-1])) {
			kept = append(kept, t)
		}
	}
	return kept
}

// VacationPush returns how far a deadline from start to due moves because
// of the seat's vacations (the overlap of each vacation with the deadline's
// window, which grows as it is pushed), limited by the remaining budget in
// days. It returns the push and the days it spends.
func VacationPush(vs []Span, start, due time.Time, budgetLeft float64) (time.Duration, float64) {
	if due.IsZero() || budgetLeft <= 0 {
		return 0, 0
	}
	var push time.Duration
	for _, v := range vs {
		lo, hi := v.From, v.To
		if lo.Before(start) {
			lo = start
		}
		end := due.Add(push)
		if !lo.Before(end) || !hi.After(lo) {
			continue
		}
		push += hi.Sub(lo)
	}
	max := time.Duration(budgetLeft * 24 * float64(time.Hour))
	if push > max {
		push = max
	}
	return push, push.Hours() / 24
}

// Span is a stretch of time a seat is away (a vacation), from From to To.
type Span struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}
