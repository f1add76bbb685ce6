package commands

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/templates"
)

// The seat family: what a seat changes about itself in a game (its queue,
// its messages, its absences, its settings, its seat).

func seatClear(c *SeatCall) error {
	if n, ok := c.Host.Clear(); ok {
		c.Host.Info("info.cleared", map[string]any{"n": n})
	}
	return nil
}

func seatUndo(c *SeatCall) error {
	line, ok := c.Host.Undo()
	if !ok {
		return c.Fail("nothing_to_undo", nil)
	}
	c.Host.Info("info.undone", map[string]any{"line": line})
	return nil
}

func seatResign(c *SeatCall) error {
	if !c.Host.Playing() {
		return c.Fail("not_playing", nil)
	}
	return c.Host.Resign()
}

// seatSay relays a message to other players without revealing addresses:
// "SAY all: text" or "SAY ann, bob: text" (names or seat numbers).
func seatSay(c *SeatCall) error {
	c.Text = c.Line
	f := strings.Fields(c.Line)
	rest := ""
	if len(f) > 0 {
		rest = strings.TrimSpace(c.Line[len(f[0]):])
	}
	to, text, ok := strings.Cut(rest, ":")
	text = strings.TrimSpace(text)
	if !ok || text == "" {
		return c.UsageError()
	}
	if utf8.RuneCountInString(text) > guard.MaxSayRunes { // issue 23: bounded
		return c.Fail("say_too_long", map[string]any{"max": guard.MaxSayRunes})
	}
	me, seats := c.Host.Index(), c.Host.Seats()
	var to2 []int
	all := false
	for _, t := range strings.Split(to, ",") {
		t = strings.TrimSpace(t)
		if strings.EqualFold(t, "all") || c.Host.Arg(t) == "ALL" { // TUTTI, TOUS, IEDEREEN: templates/common/<lang>/args.txt
			to2, all = nil, true
			for i := range seats {
				if i != me && !seats[i].Declined {
					to2 = append(to2, i)
				}
			}
			break
		}
		k := -1
		for i, s := range seats {
			if strings.EqualFold(s.Name, t) || s.Player != "" && strings.EqualFold(s.Player, t) || fmt.Sprint(i+1) == t {
				k = i
			}
		}
		if k < 0 || k == me {
			return c.Fail("no_player", map[string]any{"name": t})
		}
		if !slices.Contains(to2, k) {
			to2 = append(to2, k)
		}
	}
	return c.Host.Relay(to2, all, text)
}

// seatVacation registers "VACATION <from> <to>" (dates YYYY-MM-DD in the
// player's time zone, inclusive).
func seatVacation(c *SeatCall) error {
	c.Text = "VACATION " + strings.Join(c.Args, " ")
	if len(c.Args) != 2 {
		return c.UsageError()
	}
	loc := c.Host.Zone()
	from, err1 := time.ParseInLocation("2006-01-02", c.Args[0], loc)
	to, err2 := time.ParseInLocation("2006-01-02", c.Args[1], loc)
	if err1 != nil || err2 != nil || to.Before(from) {
		return c.UsageError()
	}
	end := to.AddDate(0, 0, 1).UTC()
	if !end.After(c.Host.Now()) {
		return c.Fail("vacation_past", nil)
	}
	rerr, err := c.Host.AddVacation(from.UTC(), end)
	if rerr != nil {
		c.Errors = append(c.Errors, rerr)
	}
	return err
}

func seatYes(c *SeatCall) error {
	ok, rerr, err := c.Host.ConfirmAbsence()
	if !ok {
		return c.Fail("nothing_to_confirm", nil)
	}
	if rerr != nil {
		c.Errors = append(c.Errors, rerr)
	}
	return err
}

func seatNotify(c *SeatCall) error {
	if len(c.Args) != 1 {
		return c.UsageError()
	}
	mode := strings.ToLower(c.Args[0])
	switch mode {
	case "every", "turn", "digest":
		c.Host.Set(SetNotify, mode)
	case "receipts", "none", "fold":
		// How receipts reach the seat (issue 22); a receipt held so far
		// rides in the next mail, or goes at its time.
		c.Host.Set(SetReceipts, mode)
	default:
		return c.UsageError()
	}
	c.Host.Info("info.notify", map[string]any{"mode": mode})
	return nil
}

func seatLang(c *SeatCall) error {
	if len(c.Args) != 1 || !templates.IsLanguage(strings.ToLower(c.Args[0])) {
		return c.UsageError()
	}
	c.Host.Set(SetLang, strings.ToLower(c.Args[0]))
	c.Host.Info("info.lang", nil)
	return nil
}

func seatFormat(c *SeatCall) error {
	format := ""
	if len(c.Args) == 1 {
		format = strings.ToLower(c.Args[0])
	}
	if format != "text" && format != "json" {
		return c.UsageError()
	}
	c.Host.Set(SetFormat, format)
	c.Host.Info("info.format", map[string]any{"format": format})
	return nil
}

func seatJoin(c *SeatCall) error {
	if len(c.Args) > 0 && !strings.EqualFold(c.Args[0], c.Host.GameID()) {
		return c.UsageError()
	}
	return c.Host.Join()
}

func seatDecline(c *SeatCall) error { return c.Host.Decline() }

func seatRegister(c *SeatCall) error {
	c.Host.Info("info.registered_already", nil)
	return nil
}
