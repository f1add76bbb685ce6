package commands

import (
	"strings"
	"testing"
	"time"
)

// TestUsageFromTheRow: every row that answers a usage error lists it, and
// the error quotes the row's syntax, for every malformed form of the
// command's arguments (none, too many, a bad value, mixed case).
func TestUsageFromTheRow(t *testing.T) {
	bad := map[string][]string{
		"RULE":     {""},
		"OBSERVE":  {"", " g2 g3"},
		"SAY":      {"", " all", " all:", " all:   ", " Ann text"},
		"VACATION": {"", " 2026-04-01", " 2026-04-01 2026-04-02 2026-04-03", " 01/04/2026 02/04/2026", " 2026-04-05 2026-04-01", " tomorrow later"},
		"NOTIFY":   {"", " sometimes", " every turn", " EVERY, turn"},
		"LANG":     {"", " de", " en it", " english"},
		"FORMAT":   {"", " xml", " text json", " html"},
		"JOIN":     {" g9", " g9 g1"},
	}
	for kw, forms := range bad {
		if r := seatRow(t, kw); r.Usage == "" || !strings.HasPrefix(r.Usage, kw) {
			t.Errorf("%s: usage %q does not start with its keyword", kw, r.Usage)
		}
		for _, form := range forms {
			for _, k := range []string{kw, strings.ToLower(kw)} {
				f := newFakeSeat()
				c := runSeat(t, f, k+form)
				if codes(c) != "usage" {
					t.Errorf("%q: errors %q, want usage", k+form, codes(c))
				}
				if len(f.changed) > 0 || len(f.sets) > 0 {
					t.Errorf("%q: a usage error changed %v %v", k+form, f.changed, f.sets)
				}
			}
		}
	}
	for _, r := range SeatRows() {
		if r.Seat == nil || r.Player != nil || r.Anyone {
			t.Errorf("%s: a seat row has one handler, the seat's", r.Keyword)
		}
	}
}

// TestSeatSettingsAllOrNone: a setting changes only when its value is read
// whole, in any case; the note names the setting.
func TestSeatSettingsAllOrNone(t *testing.T) {
	good := []struct {
		line string
		set  Setting
		want string
	}{
		{"NOTIFY every", SetNotify, "every"}, {"NOTIFY Turn", SetNotify, "turn"}, {"notify DIGEST", SetNotify, "digest"},
		{"NOTIFY receipts", SetReceipts, "receipts"}, {"NOTIFY fold", SetReceipts, "fold"}, {"NOTIFY None", SetReceipts, "none"},
		{"FORMAT json", SetFormat, "json"}, {"FORMAT TEXT", SetFormat, "text"},
	}
	for _, lg := range []string{"en", "it", "fr", "nl"} {
		good = append(good, struct {
			line string
			set  Setting
			want string
		}{"LANG " + strings.ToUpper(lg), SetLang, lg})
	}
	for _, g := range good {
		f := newFakeSeat()
		c := runSeat(t, f, g.line)
		if len(c.Errors) > 0 || f.sets[g.set] != g.want || len(f.sets) != 1 || len(f.notes) != 1 {
			t.Errorf("%q: errors %q, settings %v, notes %v", g.line, codes(c), f.sets, f.notes)
		}
	}
}

// TestSaySeatsAndForms: SAY names seats by name (any case) or number, or
// all in any language (every seat but the sender's and the declined); an
// unknown name or the sender's own is refused, and nothing is relayed.
func TestSaySeatsAndForms(t *testing.T) {
	cases := map[string]string{
		"SAY Ann: hi":           "relay [0] false hi",
		"SAY ann, CY: hi there": "relay [0 2] false hi there",
		"SAY 1,3: hi":           "relay [0 2] false hi",
		"SAY 1, ann: a:b":       "relay [0] false a:b",
		"SAY Dee: hi":           "relay [3] false hi",
	}
	for _, w := range []string{"all", "tutti", "tous", "iedereen"} { // templates/common/<lang>/args.txt
		for _, form := range []string{w, strings.ToUpper(w), "Ann, " + w} {
			cases["SAY "+form+": hi"] = "relay [0 2] true hi"
		}
	}
	for line, want := range cases {
		f := newFakeSeat()
		c := runSeat(t, f, line)
		if len(c.Errors) > 0 || strings.Join(f.changed, ";") != want || c.Text != line {
			t.Errorf("%q: errors %q, changed %v (want %q), text %q", line, codes(c), f.changed, want, c.Text)
		}
	}
	for _, line := range []string{"SAY Bob: hi", "SAY 2: hi", "SAY Zed: hi", "SAY 9: hi", "SAY Ann, Zed: hi",
		"SAY all: " + strings.Repeat("é", 2001)} {
		f := newFakeSeat()
		c := runSeat(t, f, line)
		if len(c.Errors) != 1 || len(f.changed) > 0 {
			t.Errorf("%q: errors %q, changed %v", line, codes(c), f.changed)
		}
	}
}

// TestVacationDates: VACATION reads two dates in the seat's zone,
// inclusive; the end of the absence is the day after the last, at the
// zone's midnight; an absence over before now is refused, a spent budget
// is the core's refusal.
func TestVacationDates(t *testing.T) {
	for _, zone := range []string{"UTC", "Europe/Rome", "America/New_York", "Asia/Tokyo"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Skip(err)
		}
		for _, d := range [][2]string{{"2026-03-12", "2026-03-14"}, {"2026-03-10", "2026-03-10"}, {"2026-02-28", "2026-03-11"}} {
			f := newFakeSeat()
			f.zone = loc
			c := runSeat(t, f, "VACATION "+d[0]+" "+d[1])
			from, _ := time.ParseInLocation("2006-01-02", d[0], loc)
			to, _ := time.ParseInLocation("2006-01-02", d[1], loc)
			want := "vacation " + from.UTC().Format(time.RFC3339) + " " + to.AddDate(0, 0, 1).UTC().Format(time.RFC3339)
			if len(c.Errors) > 0 || strings.Join(f.changed, ";") != want {
				t.Errorf("%s %v: errors %q, changed %v, want %s", zone, d, codes(c), f.changed, want)
			}
			if c.Text != "VACATION "+d[0]+" "+d[1] {
				t.Errorf("%s %v: echoed %q", zone, d, c.Text)
			}
		}
		f := newFakeSeat()
		f.zone = loc
		if c := runSeat(t, f, "VACATION 2026-03-01 2026-03-05"); codes(c) != "vacation_past" || len(f.changed) > 0 {
			t.Errorf("%s: a past absence: errors %q, changed %v", zone, codes(c), f.changed)
		}
		f = newFakeSeat()
		f.budget = true
		if c := runSeat(t, f, "VACATION 2026-03-12 2026-03-14"); codes(c) != "vacation_budget" {
			t.Errorf("%s: a spent budget: errors %q", zone, codes(c))
		}
	}
}

// TestSeatActions: CLEAR, UNDO, RESIGN, YES, JOIN, DECLINE act only when
// the seat is in a state to, and say why when not.
func TestSeatActions(t *testing.T) {
	type tc struct {
		line    string
		prep    func(*fakeSeat)
		errs    string
		changed string
	}
	for _, c := range []tc{
		{"CLEAR", nil, "", "clear"},
		{"CLEAR", func(f *fakeSeat) { f.table = false }, "", ""},
		{"UNDO", nil, "", "undo"},
		{"UNDO", func(f *fakeSeat) { f.queued = nil }, "nothing_to_undo", ""},
		{"UNDO", func(f *fakeSeat) { f.table = false }, "nothing_to_undo", ""},
		{"RESIGN", nil, "", "resign"},
		{"RESIGN", func(f *fakeSeat) { f.playing = false }, "not_playing", ""},
		{"YES", nil, "nothing_to_confirm", ""},
		{"YES", func(f *fakeSeat) { f.offer = true }, "", "vacation 2026-03-10T12:00:00Z 2026-03-12T12:00:00Z"},
		{"YES", func(f *fakeSeat) { f.offer, f.budget = true, true }, "vacation_budget", ""},
		{"JOIN", nil, "", "join"},
		{"JOIN G1", nil, "", "join"},
		{"DECLINE", nil, "", "decline"},
		{"REGISTER", nil, "", ""},
		{"OBSERVE G2", nil, "", "observe g2"},
	} {
		f := newFakeSeat()
		if c.prep != nil {
			c.prep(f)
		}
		call := runSeat(t, f, c.line)
		if codes(call) != c.errs || strings.Join(f.changed, ";") != c.changed {
			t.Errorf("%s: errors %q changed %q, want %q %q", c.line, codes(call), strings.Join(f.changed, ";"), c.errs, c.changed)
		}
	}
}
