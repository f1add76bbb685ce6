package e2e_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// thunderbirdReply is testkit.ThunderbirdReply with Ann's signature and a
// bare From, in muttReply's shape.
func thunderbirdReply(t *testing.T, orig []byte, from, id, text string) (to string, raw []byte) {
	t.Helper()
	return testkit.ThunderbirdReply(t, orig, from, "", id, text, "Ann Example\nhttps://ann.example.test")
}

// menuLine finds option n of a mail's numbered menu as a person copies it
// (one or two columns; the description after '#' included).
func menuLine(text string, n int) string {
	re := regexp.MustCompile(`(?:^|\s{2,})` + fmt.Sprint(n) + `\) (.+?)(?:\s{2,}\d+\) |$)`)
	for _, l := range strings.Split(text, "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

// startAnnAndBob has the organiser start a Dice Brewing game id (seed
// seed) for ann and bob, who join by mutt-shaped replies, and waits until
// it runs.
func startAnnAndBob(t *testing.T, ms *mailstack.Stack, d *daemon.Daemon, orgTo, id, seed string) {
	t.Helper()
	organise(t, ms, orgTo, "e2e-"+id, "NEW dicebrewing id="+id+" deadline=none seed="+seed+"\r\nPLAYER ann@example.test Ann\r\nPLAYER bob@example.test Bob\r\n")
	ms.WaitCount(t, "ann", "INBOX", 1, 20*time.Second)
	ms.WaitCount(t, "bob", "INBOX", 1, 20*time.Second)
	for _, p := range []string{"ann", "bob"} {
		inv := ms.Messages(t, p, "INBOX")[0].Raw
		to, raw := muttReply(t, inv, ms.Address(p), id+"-join-"+p, "JOIN")
		ms.Send(t, ms.Address(p), []string{to}, raw)
	}
	waitFor(t, "the game to start", func() bool {
		g, err := d.Referee.GameRecord(id)
		return err == nil && g.Status == referee.StatusRunning
	})
}

// waitingSeat is game id's table and the user name of the first seat it
// waits for; a nil table when the game no longer runs.
func waitingSeat(t *testing.T, d *daemon.Daemon, id string) (*engine.Table, string) {
	t.Helper()
	g, err := d.Referee.GameRecord(id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != referee.StatusRunning {
		return nil, ""
	}
	tb, err := engine.LoadTable(g.Table, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tb, strings.TrimSuffix(g.Seats[tb.Waiting()[0].Seat].Address, "@example.test")
}

// waitMoved waits until game id's state token is no longer before: the
// move what sent was played.
func waitMoved(t *testing.T, d *daemon.Daemon, id string, before int, what string) {
	t.Helper()
	waitFor(t, what+" to be played", func() bool {
		g, err := d.Referee.GameRecord(id)
		if err != nil {
			return false
		}
		tb, err := engine.LoadTable(g.Table, nil)
		return err == nil && tb.Token() != before
	})
}

// Issue 20 end to end: through Postfix and Dovecot, mutt-shaped
// (top-posted above the attribution) and Thunderbird-shaped (bottom-posted
// under the quote, format=flowed, with a signature) replies answer a
// numbered menu in several forms, with chat around them, a copied menu
// line and a mistyped keyword: each is played, and the echo says how a
// typo was read and lists the chat as ignored.
func TestAnswerFormsThroughDovecotAndPostfix(t *testing.T) {
	ms, d, orgTo := startReferee(t, "ann", "bob")
	startAnnAndBob(t, ms, d, orgTo, "a1", "answers1")
	// The answer forms, each as a function of the option chosen and its
	// menu line; the chat each leaves in the echo's ignored lines.
	forms := []struct {
		name, chat string
		make       func(n int, line string) string
	}{
		{"dot", "", func(n int, _ string) string { return fmt.Sprintf("%d.", n) }},
		{"greeting, option word, thanks", "Hi!", func(n int, _ string) string { return fmt.Sprintf("Hi! option %d - thanks", n) }},
		{"copied menu line", "", func(n int, line string) string { return fmt.Sprintf("%d) %s", n, line) }},
		{"brackets", "", func(n int, _ string) string { return fmt.Sprintf("(%d)", n) }},
		{"smart quotes", "", func(n int, _ string) string { return fmt.Sprintf("“%d”", n) }},
		{"hash", "", func(n int, _ string) string { return fmt.Sprintf("#%d", n) }},
		{"please", "please", func(n int, _ string) string { return fmt.Sprintf("%d please", n) }},
		{"greeting glued to a command", "Hallo,", func(_ int, line string) string {
			c, _, _ := strings.Cut(line, "#")
			return "Hallo," + strings.TrimSpace(c)
		}},
		{"typo in the keyword", "", func(_ int, line string) string {
			c, _, _ := strings.Cut(line, "#")
			kw, rest, _ := strings.Cut(strings.TrimSpace(c), " ")
			if len(kw) >= 4 {
				kw = kw[:1] + kw[2:3] + kw[1:2] + kw[3:]
			} else if len(kw) > 1 {
				kw = kw[:2] + kw[1:] // a doubled letter: BUY -> BUUY
			}
			return strings.TrimSpace(strings.ToLower(kw) + " " + rest)
		}},
	}
	seen := map[string]int{}
	for i := 0; i < 2*len(forms); i++ {
		tb, p := waitingSeat(t, d, "a1")
		if tb == nil {
			break
		}
		prompt, m := latestMenu(t, ms, p, "WHAT YOU NEED TO DO NOW")
		text := m.Text
		f := forms[i%len(forms)]
		// Option 1, or the menu's last option (under its last group's
		// heading, in columns when the group asks: issue 22's grouped
		// menus), in turns.
		opt := 1
		if i/2%2 == 1 {
			for menuLine(text, opt+1) != "" {
				opt++
			}
		}
		line := menuLine(text, opt)
		answer := f.make(opt, line)
		client := "mutt"
		reply := muttReply
		if i%2 == 1 {
			client, reply = "thunderbird", thunderbirdReply
		}
		before, n := tb.Token(), ms.Count(t, p, "INBOX")
		to, raw := reply(t, prompt, ms.Address(p), fmt.Sprintf("ans-%d", i), answer)
		ms.Send(t, ms.Address(p), []string{to}, raw)
		waitMoved(t, d, "a1", before, fmt.Sprintf("%s %s %q", client, f.name, answer))
		_, echo := newMail(t, ms, p, n, "YOUR MESSAGE")
		if f.chat != "" && !strings.Contains(echo, "  "+f.chat) {
			t.Errorf("%s %s %q: the echo does not list %q as ignored:\n%s", client, f.name, answer, f.chat, echo)
		}
		if strings.HasPrefix(f.name, "typo") {
			typo, _, _ := strings.Cut(answer, " ")
			if !strings.Contains(echo, `I read "`+typo+`" as`) {
				t.Errorf("%s %q: the echo does not say how the typo was read:\n%s", client, answer, echo)
			}
		}
		for _, bad := range []string{"REFUSED", "Nothing of this message"} {
			if strings.Contains(echo, bad) {
				t.Errorf("%s %s %q: %q in the echo:\n%s", client, f.name, answer, bad, echo)
			}
		}
		seen[client+"/"+f.name]++
		if opt > 1 {
			seen["last option"]++
		}
	}
	if seen["last option"] == 0 {
		t.Error("no answer chose a later option than the first")
	}
	if len(seen) < len(forms) {
		t.Errorf("only %d answers played: %v", len(seen), seen)
	}
	t.Logf("played: %v", seen)
}
