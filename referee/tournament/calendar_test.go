package tournament

import (
	"errors"
	"testing"
	"time"
)

func day(s string) time.Time {
	t, err := ParseDate(s, time.UTC)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCalendarRoundDates(t *testing.T) {
	t.Parallel()
	c := Calendar{Start: day("2026-12-01"), Every: 7 * 24 * time.Hour}
	for n, want := range map[int]string{0: "", 1: "2026-12-01", 2: "2026-12-08", 4: "2026-12-22"} {
		got := c.RoundDate(n)
		if (want == "" && !got.IsZero()) || (want != "" && !got.Equal(day(want))) {
			t.Errorf("round %d: %v, want %s", n, got, want)
		}
	}
	// Dates one by one, then every 7 days after the last.
	c.Dates = []time.Time{day("2026-12-03"), day("2026-12-20")}
	if !c.RoundDate(2).Equal(day("2026-12-20")) || !c.RoundDate(3).Equal(day("2026-12-27")) {
		t.Errorf("dates then every: %v %v", c.RoundDate(2), c.RoundDate(3))
	}
	// Dates alone say nothing past the last.
	c.Every = 0
	if !c.RoundDate(3).IsZero() || !c.OnSchedule() {
		t.Errorf("round 3 of two dates: %v", c.RoundDate(3))
	}
	c.Dates = []time.Time{day("2026-12-20"), day("2026-12-03")}
	if err := c.CheckCalendar(); !errors.Is(err, ErrFormat) {
		t.Errorf("dates going back: %v", err)
	}
	if err := (Calendar{Open: OpenSchedule}).CheckCalendar(); err == nil {
		t.Error("open=schedule without dates accepted")
	}
	if (Calendar{}).OnSchedule() || (Calendar{Start: day("2026-12-01"), Open: OpenComplete}).OnSchedule() {
		t.Error("no calendar, or open=complete, is on schedule")
	}
}

func TestCalendarDueWarnWake(t *testing.T) {
	t.Parallel()
	tr := &Tournament{Status: StatusRunning, Settings: Settings{Format: Swiss, NumRounds: 3, Table: 2,
		Calendar: Calendar{Start: day("2026-12-01"), Every: 7 * 24 * time.Hour}}}
	tr.Entrants = []Entrant{{ID: 0}, {ID: 1}}
	opened := day("2026-12-01")
	// Without a round time, a round is due when the next one opens.
	if due := tr.RoundDue(1, opened); !due.Equal(day("2026-12-08")) {
		t.Errorf("due %v", due)
	}
	// The last round: one interval after its opening.
	if due := tr.RoundDue(3, day("2026-12-16")); !due.Equal(day("2026-12-23")) {
		t.Errorf("last round due %v", due)
	}
	// A round time wins.
	tr.Deadline = 5 * 24 * time.Hour
	if due := tr.RoundDue(1, opened); !due.Equal(day("2026-12-06")) {
		t.Errorf("due with deadline=5d: %v", due)
	}
	tr.Deadline = 0
	rd := Round{N: 1, Opened: opened, Due: tr.RoundDue(1, opened), Matches: []Match{{Seats: []int{0, 1}, State: MatchPlaying}}}
	// Warned a quarter of the round before, at most a day.
	if w := tr.WarnAt(rd); !w.Equal(day("2026-12-07")) {
		t.Errorf("warn at %v", w)
	}
	tr.Warn = 48 * time.Hour
	if w := tr.WarnAt(rd); !w.Equal(day("2026-12-06")) {
		t.Errorf("warn=48h at %v", w)
	}
	tr.Rounds = []Round{rd}
	if w := tr.Wake(opened); !w.Equal(day("2026-12-06")) {
		t.Errorf("wake %v", w)
	}
	tr.Rounds[0].Warned = true
	if w := tr.Wake(opened); !w.Equal(day("2026-12-08")) {
		t.Errorf("wake after the warning %v", w)
	}
	tr.Warn = -1
	tr.Rounds[0].Warned = false
	if w := tr.WarnAt(rd); !w.IsZero() {
		t.Errorf("warn=off at %v", w)
	}
	// Round 1 complete early: round 2 waits for its date.
	tr.Rounds[0].Matches[0].State = MatchDone
	tr.Rounds[0].Matches[0].Rank = []int{1, 2}
	if at, ok := tr.Waiting(day("2026-12-04")); !ok || !at.Equal(day("2026-12-08")) {
		t.Errorf("waiting %v %v", at, ok)
	}
	if _, ok := tr.Waiting(day("2026-12-08")); ok {
		t.Error("still waiting on the date")
	}
	if w := tr.Wake(day("2026-12-04")); !w.Equal(day("2026-12-08")) {
		t.Errorf("wake while waiting %v", w)
	}
	tr.Open = OpenComplete
	if _, ok := tr.Waiting(day("2026-12-04")); ok {
		t.Error("open=complete waits")
	}
	// Sign-up closed before round 1's date: waiting for it.
	early := &Tournament{Status: StatusRunning, Settings: Settings{Format: Swiss, Table: 2, Calendar: Calendar{Start: day("2026-12-01")}}}
	if at, ok := early.Waiting(day("2026-11-28")); !ok || !at.Equal(day("2026-12-01")) {
		t.Errorf("before round 1: %v %v", at, ok)
	}
	// Sign-up closes at round 1's date unless a closing date is set.
	su := &Tournament{Status: StatusSignup, Settings: Settings{Calendar: Calendar{Start: day("2026-12-01")}}}
	if !su.Wake(opened).Equal(day("2026-12-01")) {
		t.Errorf("sign-up wake %v", su.Wake(opened))
	}
	su.Close = day("2026-11-28")
	if !su.SignupCloses().Equal(day("2026-11-28")) {
		t.Error("closing date ignored")
	}
}

func TestCalendarParse(t *testing.T) {
	t.Parallel()
	dur := func(v string) (time.Duration, error) { return time.ParseDuration(v) }
	var c Calendar
	for _, kv := range [][2]string{{"tz", "Europe/Rome"}, {"start", "2026-12-01T18:00"}, {"every", "168h"}, {"warn", "off"}, {"open", "complete"}} {
		if ok, err := c.ParseCalendar(kv[0], kv[1], dur); !ok || err != nil {
			t.Fatalf("%s=%s: %v %v", kv[0], kv[1], ok, err)
		}
	}
	if want := time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC); !c.Start.Equal(want) || c.Warn != -1 || c.Open != OpenComplete {
		t.Errorf("%+v", c)
	}
	if ok, err := c.ParseCalendar("dates", "2026-12-01,2026-12-09", dur); !ok || err != nil || len(c.Dates) != 2 {
		t.Errorf("dates: %v %v", c.Dates, err)
	}
	for _, kv := range [][2]string{{"tz", "Mars/Olympus"}, {"start", "1 December"}, {"every", "-1h"}, {"open", "sometimes"}, {"dates", "2026-12-01,soon"}} {
		if _, err := c.ParseCalendar(kv[0], kv[1], dur); err == nil {
			t.Errorf("%s=%s accepted", kv[0], kv[1])
		}
	}
	if ok, _ := c.ParseCalendar("rounds", "3", dur); ok {
		t.Error("rounds= taken as a calendar setting")
	}
}

// TestStandingsOfNoEntrants: a tournament nobody joined yet has empty
// standings (its page during sign-up must not fail).
func TestStandingsOfNoEntrants(t *testing.T) {
	t.Parallel()
	tr := &Tournament{Settings: Settings{Format: Swiss, Table: 2, Tiebreaks: []string{Buchholz, SonnebornBerger, GameScore, HeadToHead}}}
	if st := tr.Standings(); len(st) != 0 {
		t.Fatalf("%+v", st)
	}
}
