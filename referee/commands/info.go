package commands

import (
	"strconv"
	"strings"
)

// The info family: what a seat asks to be told; it changes nothing in the
// game.

func seatHelp(c *SeatCall) error {
	h := c.Host
	topic := ""
	if len(c.Args) > 0 {
		topic = strings.ToUpper(c.Args[0])
		// HELP <card code or name> (issue 22): HELP HEADBREWER, HELP Head
		// Brewer, AIUTO Mastro birraio. A code that is also a command
		// (REROLL, the Dice Brewing command and action token) gets both.
		text, ok := h.CardHelp(strings.Join(c.Args, " "))
		if len(c.Args) == 1 {
			// A word of a menu line in the reader's language: AIUTO
			// LAVORA is HELP PROCESS, AIDE SAUTER is HELP SKIP.
			if w := h.HelpWord(topic); w != topic {
				topic = w
				if !ok {
					text, ok = h.CardHelp(w)
				}
			}
		}
		if base := strings.TrimRight(topic, "0123456789+"); !ok && len(c.Args) == 1 && base != topic && base != "" && !h.HasHelp(topic) {
			// A code with a slot number or a die value (Dice Brewing's
			// MH1+, Y6) names its building or die.
			text, ok = h.CardHelp(base)
		}
		if ok {
			if h.HasHelp(topic) {
				text = h.Help(topic) + "\n\n" + text
			}
			h.Say(text)
			return nil
		}
	}
	h.Say(h.Help(topic))
	return nil
}

func seatStatus(c *SeatCall) error {
	// STATUS FULL in any language: the words of templates/referee/*/args.txt.
	c.Host.Status(len(c.Args) > 0 && c.Host.Arg(c.Args[0]) == "FULL")
	return nil
}

func seatRule(c *SeatCall) error {
	if len(c.Args) == 0 {
		return c.UsageError()
	}
	id := strings.ToUpper(c.Args[0])
	t, ok, err := c.Host.Rule(id)
	if err != nil || !ok {
		if err == nil {
			return c.Fail("no_rule", map[string]any{"rule": id})
		}
		return err
	}
	if !strings.HasPrefix(t, id+" ") && !strings.HasPrefix(t, id+":") {
		t = id + ": " + t // the game's text does not name its rule: say which
	}
	c.Host.Say(t)
	return nil
}

// MaxLog is the most entries LOG n shows; DefaultLog what LOG shows.
const (
	MaxLog     = 500
	DefaultLog = 20
)

func seatLog(c *SeatCall) error {
	n := DefaultLog
	if len(c.Args) > 0 {
		if v, err := strconv.Atoi(c.Args[0]); err == nil && v > 0 && v <= MaxLog {
			n = v
		}
	}
	text, err := c.Host.LogText(n)
	if err != nil {
		return err
	}
	c.Host.Say(text)
	return nil
}

func seatObserve(c *SeatCall) error {
	if len(c.Args) != 1 {
		return c.UsageError()
	}
	return c.Host.Observe(strings.ToLower(c.Args[0]))
}

func seatList(c *SeatCall) error {
	text, err := c.Host.ListOpen()
	if err != nil {
		return err
	}
	c.Host.Say(text)
	return nil
}
