package referee

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
)

// Issue 22, "fewer mails, none wasted" (receipts.go): a receipt that
// asks nothing waits for the player's next mail within the receipt
// window, goes alone when the window ends, survives a restart, and NOTIFY
// receipts|none|fold choose. The rule is checked over whole games of every
// game, in every language, with answers that come quickly and slowly:
// every order a player sends is echoed exactly once in a later mail to
// them (nothing lost, nothing twice), and receipts stay a small share.

// echoHeads are the heads of the echo of a player's message.
var echoHeads = []string{"YOUR MESSAGE", "IL TUO MESSAGGIO", "VOTRE MESSAGE", "JOUW BERICHT"}

// echoed returns the order texts echoed in a mail body (the lines under
// an echo head, up to the first blank line).
func echoed(body string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(body, "\n") {
		switch {
		case in && strings.TrimSpace(l) == "":
			in = false
		case in && strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "         "):
			out = append(out, strings.TrimSpace(l))
		default:
			for _, h := range echoHeads {
				if strings.HasPrefix(l, h) {
					in = true
				}
			}
		}
	}
	return out
}

// echoErrors reports whether the echo in a mail body explains an error (a
// line indented by 9 spaces under it): such a mail tells something.
func echoErrors(body string) bool {
	in := false
	for _, l := range strings.Split(body, "\n") {
		switch {
		case in && strings.TrimSpace(l) == "":
			in = false
		case in && strings.HasPrefix(l, "         "):
			return true
		default:
			for _, h := range echoHeads {
				if strings.HasPrefix(l, h) {
					in = true
				}
			}
		}
	}
	return false
}

// receiptRig plays a game through the referee, the game's sensible bot
// choosing every answer, and counts the mails each player gets.
type receiptRig struct {
	t     *testing.T
	h     *harness
	id    string
	bot   engine.Bot
	rng   *rand.Rand
	sent  map[string][]string // address -> orders sent
	echo  map[string][]string // address -> echoed lines
	mails map[string]int
	rcpts map[string]int
	// atOnce counts the receipts sent by a player's own message (not by
	// the tick at the end of a window); ticking is set during a tick.
	atOnce  map[string]int
	ticking bool
}

func newReceiptRig(t *testing.T, game string, langs [2]string, window time.Duration, notify string) *receiptRig {
	t.Helper()
	h := newHarness(t)
	h.r.opt.ReceiptWindow = window
	id := "rc1"
	h.org(fmt.Sprintf("NEW %s id=%s deadline=48h seed=receipts-%s\nPLAYER %s Ann %s\nPLAYER %s Bob %s\n",
		game, id, game, ann, langs[0], bob, langs[1]))
	join := "JOIN"
	if notify != "" {
		join += "\nNOTIFY " + notify
	}
	h.send(id, ann, join, -1)
	h.send(id, bob, join, -1)
	eg, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	bot, err := eg.(engine.BotMaker).NewBot(eg.Info().BestBot())
	if err != nil {
		t.Fatal(err)
	}
	rg := &receiptRig{t: t, h: h, id: id, bot: bot, rng: rand.New(rand.NewPCG(3, 4)), sent: map[string][]string{},
		echo: map[string][]string{}, mails: map[string]int{}, rcpts: map[string]int{}, atOnce: map[string]int{}}
	rg.drain()
	// JOIN and NOTIFY are not counted.
	rg.echo, rg.mails, rg.rcpts, rg.atOnce = map[string][]string{}, map[string]int{}, map[string]int{}, map[string]int{}
	return rg
}

// drain reads the queued mails: counts them, their receipts and echoes.
func (rg *receiptRig) drain() []*Outgoing {
	ms := rg.h.mails()
	g := rg.h.game(rg.id)
	tb := rg.h.table(rg.id)
	for _, m := range ms {
		if m.To == org {
			continue
		}
		rg.mails[m.To]++
		seat := g.SeatOfAddress(m.To)
		if m.Kind == "reply" && g.Status == StatusRunning && tb != nil && (tb.Prompts[seat] == nil || tb.Prompts[seat].Complete) &&
			!echoErrors(m.Body) {
			rg.rcpts[m.To]++
			if !rg.ticking {
				rg.atOnce[m.To]++
			}
		}
		rg.echo[m.To] = append(rg.echo[m.To], echoed(m.Body)...)
	}
	return ms
}

// move has the seat the game waits for answer, after gap.
func (rg *receiptRig) move(gap time.Duration) {
	rg.t.Helper()
	rg.h.clock.Advance(gap)
	rg.h.tick()
	rg.ticking = true
	rg.drain()
	rg.ticking = false
	tn := rg.h.botTurn(rg.id, rg.bot, rg.rng)
	if out := rg.h.send(rg.id, tn.Addr, tn.Line, tn.Table.Token()); out.Status != "applied" && out.Status != "queued" {
		rg.t.Fatalf("%q: %+v", tn.Line, out)
	}
	rg.sent[tn.Addr] = append(rg.sent[tn.Addr], tn.Line)
	rg.drain()
}

// play plays to the end, each answer after gap(n).
func (rg *receiptRig) play(gap func(n int) time.Duration) {
	rg.t.Helper()
	for n := 0; rg.h.game(rg.id).Status == StatusRunning; n++ {
		if n > 5000 {
			rg.t.Fatal("no end")
		}
		rg.move(gap(n))
	}
	rg.drain()
}

// checkEchoes fails unless every order sent was echoed exactly once to its
// sender, in order.
func (rg *receiptRig) checkEchoes(label string) {
	rg.t.Helper()
	for addr, sent := range rg.sent {
		echo := rg.echo[addr]
		if h := rg.heldOf(addr); h != nil {
			// Still held (the game goes on): in the next mail.
			for _, l := range h.Lines {
				echo = append(echo, "held "+l.Text)
			}
		}
		k := 0
		for _, cmd := range sent {
			for k < len(echo) && !strings.HasSuffix(echo[k], " "+cmd) && !strings.Contains(echo[k], " "+cmd+"  =>") {
				k++
			}
			if k == len(echo) {
				rg.t.Errorf("%s: %s sent %q; no later mail echoes it (echoes: %d, sent: %d)", label, addr, cmd, len(echo), len(sent))
				return
			}
			k++
		}
		if len(echo) != len(sent) {
			rg.t.Errorf("%s: %s sent %d orders, %d echoed", label, addr, len(sent), len(echo))
		}
	}
}

func (rg *receiptRig) share(addr string) float64 {
	return receiptShareOf(rg.mails[addr], rg.rcpts[addr])
}

func receiptShareOf(mails, receipts int) float64 {
	if mails == 0 {
		return 0
	}
	return 100 * float64(receipts) / float64(mails)
}

// heldOf is the receipt held for addr in the rig's game (nil: none).
func (rg *receiptRig) heldOf(addr string) *HeldReceipt {
	g := rg.h.game(rg.id)
	return g.Seats[g.SeatOfAddress(addr)].Held
}

// untilHeld plays quick answers until a receipt is held for somebody, and
// returns that player's address.
func (rg *receiptRig) untilHeld() string {
	rg.t.Helper()
	for n := 0; n < 200; n++ {
		rg.move(10 * time.Second)
		for _, a := range []string{ann, bob} {
			if rg.heldOf(a) != nil {
				return a
			}
		}
	}
	rg.t.Fatal("no receipt was ever held")
	return ""
}

var receiptGames = []string{"dicebrewing", "heavenale", "brewcrafters", "fromage"}

// Whole games of every game, in every language, with answers 10 s to 30
// min apart (one in eight slower than the window): every order is echoed
// exactly once, fewer mails go out than with receipts sent at once, and a
// receipt that tells nothing goes alone only when its window ended.
func TestReceiptsWholeGamesNothingLost_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gaps := []time.Duration{10 * time.Second, time.Minute, 2 * time.Minute, 20 * time.Second, 4 * time.Minute,
		30 * time.Second, 3 * time.Minute, 30 * time.Minute}
	for k, game := range receiptGames {
		langs := [][2]string{{"en", "it"}, {"fr", "nl"}}[k%2]
		gap := func(n int) time.Duration { return gaps[(n*5+n/7)%len(gaps)] }
		before := newReceiptRig(t, game, langs, 0, "")
		before.play(gap)
		before.checkEchoes(game + " at once")
		after := newReceiptRig(t, game, langs, DefaultReceiptWindow, "")
		after.play(gap)
		after.checkEchoes(game + " folded")
		for _, a := range []string{ann, bob} {
			t.Logf("%s %v %s: at once %d mails, %d receipts (%.0f%%); folded %d mails, %d receipts (%.0f%%, %d of them at once)",
				game, langs, a, before.mails[a], before.rcpts[a], before.share(a), after.mails[a], after.rcpts[a], after.share(a),
				after.atOnce[a])
			if after.atOnce[a] > 0 {
				t.Errorf("%s: %s got %d receipts at once, not at the end of their window", game, a, after.atOnce[a])
			}
			if after.mails[a] >= before.mails[a] {
				t.Errorf("%s: %s gets %d mails folded, %d at once", game, a, after.mails[a], before.mails[a])
			}
		}
	}
}

// Figures (issue 22: at most 15% receipts): whole games of every game at
// a quick pace (every answer within 10 s to 2 min, as in the demo, where
// bots answer in seconds),
// receipts as a share of each player's mails with receipts at once
// (before) and folded (after).
func TestReceiptShareFigures_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	gaps := []time.Duration{10 * time.Second, time.Minute, 20 * time.Second, 2 * time.Minute, 30 * time.Second}
	for k, game := range receiptGames {
		langs := [][2]string{{"nl", "fr"}, {"it", "en"}}[k%2]
		gap := func(n int) time.Duration { return gaps[(n*3+n/5)%len(gaps)] }
		before := newReceiptRig(t, game, langs, 0, "")
		before.play(gap)
		after := newReceiptRig(t, game, langs, DefaultReceiptWindow, "")
		after.play(gap)
		after.checkEchoes(game)
		for _, a := range []string{ann, bob} {
			t.Logf("%s %v %s: before %d mails, %d receipts (%.0f%%); after %d mails, %d receipts (%.0f%%)", game, langs, a,
				before.mails[a], before.rcpts[a], before.share(a), after.mails[a], after.rcpts[a], after.share(a))
			if after.share(a) > 15 {
				t.Errorf("%s: receipts are %.0f%% of %s's mails (at most 15%%)", game, after.share(a), a)
			}
		}
	}
}

// NOTIFY receipts|none|fold in every language: receipts at once, never
// alone, or folded; in each, nothing is lost.
func TestReceiptsNotifyModes_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	words := map[string]map[string]string{
		"en": {"receipts": "receipts", "none": "none", "fold": "fold"},
		"it": {"receipts": "ricevute", "none": "nessuna", "fold": "raggruppa"},
		"fr": {"receipts": "reçus", "none": "aucun", "fold": "regrouper"},
		"nl": {"receipts": "bevestigingen", "none": "geen", "fold": "bundel"},
	}
	langs := []string{"en", "it", "fr", "nl"}
	for k, mode := range []string{"receipts", "none", "fold"} {
		for _, lang := range langs {
			// Every language's word sets the mode (after the other one).
			h := newHarness(t)
			h.org("NEW dicebrewing id=w1 deadline=48h\nPLAYER " + ann + " Ann " + lang + "\nPLAYER " + bob + " Bob " + lang + "\n")
			h.mails()
			other := map[string]string{"receipts": "none", "none": "receipts", "fold": "none"}[mode]
			h.send("w1", ann, "JOIN\nNOTIFY "+words[lang][other]+"\nNOTIFY "+words[lang][mode], -1)
			if got, want := h.game("w1").Seats[h.game("w1").SeatOfAddress(ann)].Receipts,
				map[string]string{"receipts": ReceiptsEach, "none": ReceiptsNone, "fold": ReceiptsFold}[mode]; got != want {
				t.Fatalf("%s NOTIFY %s: receipts mode %q, want %q", lang, words[lang][mode], got, want)
			}
			m := h.mailTo(h.mails(), ann)
			lacks(t, m.Body, "NOTIFY every|turn|digest:")
		}
		{
			// A whole game in one language per mode.
			lang := langs[k%len(langs)]
			rg := newReceiptRig(t, "dicebrewing", [2]string{lang, lang}, DefaultReceiptWindow, words[lang][mode])
			rg.play(func(n int) time.Duration { return []time.Duration{20 * time.Second, 10 * time.Minute}[n%2] })
			label := lang + " NOTIFY " + mode
			rg.checkEchoes(label)
			for _, a := range []string{ann, bob} {
				switch mode {
				case "receipts":
					if rg.rcpts[a] == 0 {
						t.Errorf("%s: %s got no receipt alone", label, a)
					}
				case "none":
					if rg.rcpts[a] != 0 {
						t.Errorf("%s: %s got %d receipts alone", label, a, rg.rcpts[a])
					}
				}
			}
		}
	}
}

// A held receipt rides in the next mail when it comes within the window:
// no mail of its own, the echo first in the next mail, which answers the
// player's message.
func TestReceiptFoldedIntoNextMail_Issue22(t *testing.T) {
	rg := newReceiptRig(t, "dicebrewing", [2]string{"en", "en"}, DefaultReceiptWindow, "")
	a := rg.untilHeld()
	h := rg.heldOf(a)
	if want := rg.h.clock.Now().Add(DefaultReceiptWindow); !h.Due.Equal(want) {
		t.Errorf("held until %v, want %v", h.Due, want)
	}
	if at, ok, err := rg.h.r.NextWake(); err != nil || !ok || at.After(h.Due) {
		t.Errorf("next wake %v %v %v; the receipt is due %v", at, ok, err, h.Due)
	}
	before := rg.mails[a]
	for rg.heldOf(a) != nil {
		rg.move(time.Minute)
	}
	if rg.mails[a] != before+1 {
		t.Errorf("%s got %d mails while the receipt was held, want 1 (the next mail)", a, rg.mails[a]-before)
	}
	if n := rg.rcpts[a]; n != 0 {
		t.Errorf("%s got %d receipts alone", a, n)
	}
	rg.checkEchoes("folded")
}

// A held receipt goes alone when the window ends with nothing else
// coming, from a referee restarted on the same store in between.
func TestReceiptSentAloneAfterRestart_Issue22(t *testing.T) {
	rg := newReceiptRig(t, "dicebrewing", [2]string{"fr", "fr"}, DefaultReceiptWindow, "")
	a := rg.untilHeld()
	due := rg.heldOf(a).Due
	// Restart: a new referee on the same store.
	r2, err := New(Options{DB: rg.h.db, Clock: rg.h.clock, Domain: "example.test", Organisers: map[string]string{org: "orgsecretorgsecret"},
		Compose: func(m *Outgoing) ([]byte, error) { return json.Marshal(m) }, Random: &counterReader{}, ReceiptWindow: DefaultReceiptWindow})
	if err != nil {
		t.Fatal(err)
	}
	rg.h.r = r2
	rg.h.clock.T = due.Add(-time.Second)
	rg.h.tick()
	for _, m := range rg.drain() {
		if m.To == a {
			t.Fatalf("mail to %s before the window ended:\n%s", a, m.Body)
		}
	}
	rg.h.clock.T = due
	rg.h.tick()
	ms := rg.drain()
	m := rg.h.mailTo(ms, a)
	if m.Kind != "reply" || len(echoed(m.Body)) == 0 || m.InReplyTo == "" {
		t.Errorf("the receipt alone: kind %s, in reply to %q:\n%s", m.Kind, m.InReplyTo, m.Body)
	}
	if rg.heldOf(a) != nil {
		t.Error("the receipt is still held after it was sent")
	}
	rg.checkEchoes("alone")
}

// A refused line, an answer to HELP or a changed setting never waits.
func TestReceiptNotHeldWhenItTellsSomething_Issue22(t *testing.T) {
	rg := newReceiptRig(t, "dicebrewing", [2]string{"en", "en"}, DefaultReceiptWindow, "")
	a := rg.untilHeld()
	for _, text := range []string{"HELP", "NOTIFY every", "PLACE NOWHERE"} {
		rg.h.clock.Advance(time.Second)
		rg.h.send(rg.id, a, text, -1)
		ms := rg.drain()
		m := rg.h.mailTo(ms, a)
		if rg.heldOf(a) != nil {
			t.Errorf("%q: a receipt is still held after mail:\n%s", text, m.Body)
		}
		rg.h.send(rg.id, a, "NOTIFY turn", -1)
		rg.drain()
	}
}

// A refused message while a receipt is held gets its own echo ("nothing
// of this message was applied" stays true); the held receipt waits on
// and rides in the next mail.
func TestReceiptHeldThroughRefusedMessage_Issue22(t *testing.T) {
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		rg := newReceiptRig(t, "dicebrewing", [2]string{lang, lang}, DefaultReceiptWindow, "")
		a := rg.untilHeld()
		held := rg.heldOf(a).Lines[0].Text
		rg.h.clock.Advance(time.Second)
		rg.h.send(rg.id, a, "PLACE NOWHERE", -1)
		m := rg.h.mailTo(rg.drain(), a)
		for _, e := range echoed(m.Body) {
			if strings.HasSuffix(e, " "+held) {
				t.Errorf("%s: the refused message's echo carries the held line %q:\n%s", lang, held, m.Body)
			}
		}
		if rg.heldOf(a) == nil {
			t.Fatalf("%s: the held receipt went away with the refusal:\n%s", lang, m.Body)
		}
		from := len(rg.echo[a])
		for n := 0; rg.heldOf(a) != nil && n < 50; n++ {
			rg.move(time.Minute)
		}
		found := false
		for _, e := range rg.echo[a][from:] {
			found = found || strings.HasSuffix(e, " "+held)
		}
		if !found {
			t.Errorf("%s: the held line %q never reached %s", lang, held, a)
		}
	}
}

// Nothing else coming is what sends a receipt alone (tell/receipts.go,
// keepHolding): a Dice Brewing player who passes while the other places on,
// a move every two minutes for longer than the window, gets no receipt
// alone: it rides in their next mail; once the game stands still for a
// whole window, it goes alone. In every language. (Seed 12 in French: the
// player who passed early got a receipt alone at every window's end, 17%
// of their mails.)
func TestReceiptWaitsWhileTheOthersPlayOn_Issue22(t *testing.T) {
	for _, lang := range templates.Languages {
		rg := newReceiptRig(t, "dicebrewing", [2]string{lang, lang}, DefaultReceiptWindow, "")
		waited := false
		for n := 0; rg.h.game(rg.id).Status == StatusRunning && !waited; n++ {
			if n > 3000 {
				t.Fatalf("%s: no end", lang)
			}
			tb := rg.h.table(rg.id)
			d := tb.Prompts[tb.Waiting()[0].Seat].Decision
			if rg.h.game(rg.id).Seats[d.Seat].Address != ann || !slices.ContainsFunc(tb.State.Legal(d),
				func(o engine.Option) bool { return o.Cmd == "PASS" }) || len(tb.Waiting()) != 1 {
				rg.move(10 * time.Second)
				continue
			}
			rg.h.clock.Advance(10 * time.Second)
			rg.h.send(rg.id, ann, "PASS", tb.Token())
			rg.sent[ann] = append(rg.sent[ann], "PASS")
			rg.drain()
			seat := rg.h.game(rg.id).SeatOfAddress(ann)
			asked := func() bool { p := rg.h.table(rg.id).Prompts[seat]; return p != nil && !p.Complete }
			if rg.heldOf(ann) == nil || asked() {
				continue // Bob had passed already: Ann is asked again
			}
			before, mails, echoes, start := rg.rcpts[ann], rg.mails[ann], len(rg.echo[ann]), rg.h.clock.Now()
			for rg.h.game(rg.id).Status == StatusRunning && !asked() {
				rg.move(2 * time.Minute)
			}
			played := rg.h.clock.Now().Sub(start)
			if played <= DefaultReceiptWindow {
				continue // Bob stopped within the window: nothing to see
			}
			waited = true
			if rg.rcpts[ann] != before {
				t.Errorf("%s: Ann got %d receipts alone while Bob played on for %v", lang, rg.rcpts[ann]-before, played)
			}
			if rg.mails[ann] != mails+1 || rg.heldOf(ann) != nil {
				t.Errorf("%s: Ann got %d mails while Bob played on (want 1: the next one, with the receipt), held %v",
					lang, rg.mails[ann]-mails, rg.heldOf(ann))
			}
			if !slices.ContainsFunc(rg.echo[ann][echoes:], func(e string) bool { return strings.HasSuffix(e, "PASS") }) {
				t.Errorf("%s: Ann's PASS is echoed in no later mail: %q", lang, rg.echo[ann][echoes:])
			}
		}
		if !waited {
			t.Fatalf("%s: Ann never passed while Bob played on past the window", lang)
		}
	}
	// The game stands still: the window ends and the receipt goes alone
	// (the tick), the seat asked nothing all along.
	rg := newReceiptRig(t, "dicebrewing", [2]string{"en", "en"}, DefaultReceiptWindow, "")
	a := rg.untilHeld()
	due := rg.heldOf(a).Due
	rg.h.clock.T = due
	rg.h.tick()
	rg.ticking = true
	rg.drain()
	if rg.heldOf(a) != nil || rg.rcpts[a] != 1 {
		t.Errorf("the game stood still for the window: held %v, %d receipts alone", rg.heldOf(a), rg.rcpts[a])
	}
}
