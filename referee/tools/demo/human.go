package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
)

// A newcomer's first ten minutes (issue 22): with --human the demo seats
// the person in Dice Brewing unless they chose a game (--game), prints the
// mail settings again whenever the person's seat is waiting for them (the
// first print scrolls away under the progress lines), and prints the text
// of the first mails that ask something of them (the invitation, the first
// move) in the terminal as well, so that a person without a mail client
// set up yet sees what the game asks.

// DefaultHumanGame is the game a person plays when they choose none: the
// one with the shortest rules.
const DefaultHumanGame = "dicebrewing"

// humanGame is the game the person plays: the one chosen, else
// DefaultHumanGame when it is played, else the first game.
func humanGame(games []engine.Game, chosen string) string {
	if chosen != "" || len(games) == 0 {
		return chosen
	}
	for _, g := range games {
		if g.Info().Name == DefaultHumanGame {
			return DefaultHumanGame
		}
	}
	return games[0].Info().Name
}

// humanShown is how many of the person's waiting mails are printed in
// full (the invitation and the first move).
const humanShown = 2

// humanWatch follows the person's seat for watch.
type humanWatch struct {
	out  io.Writer
	acc  Account
	game string // game id
	ref  string // the referee's address
	// key names the wait last told ("" none); seen counts the referee's
	// mails in the person's INBOX when it was told; shown the mails
	// printed in full.
	key   string
	seen  int
	shown int
	next  time.Time
}

// waitKey names what the person's seat waits for now ("" when nothing):
// the invitation (JOIN) or the open prompt of the table's token.
func waitKey(site *Site, game, addr string) string {
	g, err := site.Daemon.Referee.GameRecord(game)
	if err != nil || (g.Status != referee.StatusForming && g.Status != referee.StatusRunning) {
		return ""
	}
	for i, s := range g.Seats {
		if !strings.EqualFold(s.Address, addr) {
			continue
		}
		if s.State == referee.SeatInvited {
			return "invited"
		}
		tb, err := site.Tables()(game)
		if err != nil || i >= len(tb.Prompts) || tb.Prompts[i] == nil || tb.Prompts[i].Complete {
			return ""
		}
		return fmt.Sprintf("move %d", tb.Token())
	}
	return ""
}

// check tells the person, once per wait, that their seat waits, with the
// settings and (for the first ones) the mail's text. It looks at most
// once a second.
func (hw *humanWatch) check(ctx context.Context, site *Site) {
	if hw == nil || time.Now().Before(hw.next) {
		return
	}
	hw.next = time.Now().Add(time.Second)
	key := waitKey(site, hw.game, hw.acc.Addr)
	if key == "" || key == hw.key {
		return
	}
	// The mail that asks goes out just after the change: tell the wait
	// once it is in the INBOX.
	msgs, err := FetchAll(ctx, hw.acc, "INBOX")
	if err != nil {
		return
	}
	var last *mailmsg.Message
	n := 0
	for _, m := range msgs {
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
		if err == nil && strings.EqualFold(pm.From.Addr, hw.ref) {
			last, n = pm, n+1
		}
	}
	if last == nil || n == hw.seen {
		return
	}
	hw.key, hw.seen = key, n
	fmt.Fprintf(hw.out, "\n>> Your seat in %s is waiting for you: mail %d in your INBOX, %q.\n", hw.game, n, last.Subject)
	printSettings(hw.out, &hw.acc)
	if hw.shown < humanShown {
		hw.shown++
		fmt.Fprintf(hw.out, "   Its text (answer it from your mail client):\n")
		for _, l := range strings.Split(strings.TrimRight(last.Text, "\n"), "\n") {
			fmt.Fprintf(hw.out, "   | %s\n", l)
		}
	}
	fmt.Fprintln(hw.out)
}
