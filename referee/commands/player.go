package commands

import (
	"maps"
	"slices"
	"strings"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// The player family: a registered player's commands at their own address,
// outside any game's thread.

func playerTour(c *PlayerCall) (bool, error) {
	t, ok, err := c.Host.Tournament(c.Keyword, c.Words)
	if err != nil || !ok {
		return ok, err
	}
	if t == "" {
		c.Acted = true // the tournament's own mail answers
	} else {
		c.Lines = append(c.Lines, t)
	}
	return true, nil
}

func playerList(c *PlayerCall) (bool, error) {
	t, err := c.Host.ListOpen()
	if err != nil {
		return true, err
	}
	c.Lines = append(c.Lines, t)
	return true, nil
}

func playerJoin(c *PlayerCall) (bool, error) {
	if len(c.Words) < 2 {
		c.usage()
		return true, nil
	}
	t, err := c.Host.JoinOpen(strings.ToLower(c.Words[1]))
	if err != nil {
		return true, err
	}
	if t != "" {
		c.Lines = append(c.Lines, t)
	} else {
		c.Acted = true // the game's own mail confirms
	}
	return true, nil
}

func playerObserve(c *PlayerCall) (bool, error) {
	if len(c.Words) < 2 {
		c.usage()
		return true, nil
	}
	id := strings.ToLower(c.Words[1])
	if !c.Host.HasGame(id) {
		c.text("error.no_game", map[string]any{"game": c.Words[1]})
		return true, nil
	}
	if err := c.Host.Observe(id); err != nil {
		return true, err
	}
	c.Acted = true
	return true, nil
}

func playerLang(c *PlayerCall) (bool, error) {
	if len(c.Words) == 2 && templates.IsLanguage(strings.ToLower(c.Words[1])) {
		if err := c.Host.SetLang(strings.ToLower(c.Words[1])); err != nil {
			return true, err
		}
	}
	c.text("info.lang", nil)
	return true, nil
}

func playerHelp(c *PlayerCall) (bool, error) {
	c.text("help.player", nil)
	return true, nil
}

// MaxUnread is how many lines not acted on an answer quotes (issue 25);
// the rest are counted. The organiser's door quotes by the same rule
// (QuoteUnread).
const MaxUnread = 5

// QuoteWidth is a quoted line's width: the template's prefix "  > " and
// the line fit the mail's 80 columns.
const QuoteWidth = 76

// QuoteUnread is the rule of every answer that names the lines it did not
// act on (issue 25; the player's Unread, the organiser's org.unread): each
// line quoted as written (mailmsg.QuoteLine: cleaned, cut to QuoteWidth),
// in the order given, once, none empty; shown are the first MaxUnread, n
// how many in all.
func QuoteUnread(lines []string) (shown []string, n int) {
	var q []string
	for _, l := range lines {
		if l = mailmsg.QuoteLine(l, QuoteWidth); l != "" && !slices.Contains(q, l) {
			q = append(q, l)
		}
	}
	return q[:min(len(q), MaxUnread)], len(q)
}

// Unread ends a player's answer (lines, so far) for the lines of the mail
// that no command acted on and that are not chat (issue 25): the words
// info.unread quote each (QuoteUnread), in the mail's order (unread: by
// line number), then say how many more; then the help, unless the answer
// already has it. With none, only the help is added.
func Unread(text func(name string, data map[string]any) string, lines []string, unread map[int]string) []string {
	var raw []string
	for _, n := range slices.Sorted(maps.Keys(unread)) {
		raw = append(raw, unread[n])
	}
	if shown, n := QuoteUnread(raw); n > 0 {
		lines = append(lines, text("info.unread", map[string]any{"n": n, "lines": shown, "more": n - len(shown)}))
	}
	if help := text("help.player", nil); !slices.Contains(lines, help) {
		lines = append(lines, help)
	}
	return lines
}
