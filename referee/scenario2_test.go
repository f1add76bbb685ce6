package referee

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/enginetest"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/store"
)

// VACATION pushes the player's deadlines past the absence, within the
// game's budget of days.
func TestScenarioVacation(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob) // policy: 24h, vacation budget 3 days
	h.mails()
	ai := h.game("g1").SeatOfAddress(ann)
	before := h.game("g1").Seats[ai].Deadline.Due
	h.send("g1", ann, "VACATION 2026-11-23 2026-11-24", -1)
	ms := h.mails()
	contains(t, h.mailTo(ms, ann).Body, "Absence registered from 2026-11-23 to 2026-11-24")
	s := h.game("g1").Seats[ai]
	// The absence (23rd 00:00 to 25th 00:00) covers the whole deadline
	// window (09:00 23rd to 09:00 24th) and beyond: ann gets her 24 hours
	// after she is back, so the deadline moves by the 39 hours of absence
	// from the window's start.
	if got := s.Deadline.Due.Sub(before); got != 39*time.Hour {
		t.Fatalf("deadline pushed by %v (due %v)", got, s.Deadline.Due)
	}
	if s.VacationUsed != 39.0/24 {
		t.Fatalf("vacation used %v", s.VacationUsed)
	}
	out := h.send("g1", ann, "VACATION 2026-12-01 2026-12-20", -1)
	if out.Status != "answered" {
		t.Fatalf("second vacation: %+v", out)
	}
	h.mails()
	h.send("g1", ann, "VACATION 2026-01-01 2026-01-02", -1)
	contains(t, h.mailTo(h.mails(), ann).Body, "REFUSED")
}

// Every organiser command, logged and announced.
func TestScenarioOrganiserCommands(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	h.send("g1", ann, "BID 2", -1)
	h.send("g1", bob, "BID 1", -1) // bids resolve: ann rolls first
	h.mails()
	tokenAfterBids := h.table("g1").Token()

	// STATUS and LIST.
	h.org("STATUS g1\nLIST")
	body := h.mailTo(h.mails(), org).Body
	contains(t, body, "STATUS g1: Bid & Roll (contract test game), running", "ann@example.test", "to move, due ", "LIST:", "g1")

	// PAUSE stops deadlines; RESUME moves them by the pause.
	ai := h.game("g1").SeatOfAddress(ann)
	due := h.game("g1").Seats[ai].Deadline.Due
	h.org("PAUSE g1")
	ms := h.mails()
	contains(t, h.mailTo(ms, bob).Body, "The organiser paused the game")
	out := h.send("g1", ann, "ROLL", -1)
	if out.Status != "rejected" {
		t.Fatalf("move while paused: %+v", out)
	}
	contains(t, h.mailTo(h.mails(), ann).Body, "paused by the organiser")
	h.clock.Advance(30 * time.Hour)
	h.tick()
	if h.game("g1").Seats[ai].Missed != 0 {
		t.Fatal("a deadline ran while paused")
	}
	h.org("RESUME g1")
	h.mails()
	if got := h.game("g1").Seats[ai].Deadline.Due; !got.Equal(due.Add(30 * time.Hour)) {
		t.Fatalf("resume: due %v, want %v", got, due.Add(30*time.Hour))
	}

	// EXTEND.
	h.org("EXTEND g1 ann 12h")
	ms = h.mails()
	contains(t, h.mailTo(ms, bob).Body, "extended ann's deadline by 12 hours")
	if got := h.game("g1").Seats[ai].Deadline.Due; !got.Equal(due.Add(42 * time.Hour)) {
		t.Fatalf("extend: due %v", got)
	}

	// ROLLBACK to before the bids.
	h.send("g1", ann, "ROLL", -1)
	h.mails()
	h.org("ROLLBACK g1 0")
	ms = h.mails()
	contains(t, h.mailTo(ms, ann).Body, "rolled the game back to move 0", "WHAT YOU NEED TO DO NOW")
	if tb := h.table("g1"); tb.Token() != 0 || tokenAfterBids == 0 {
		t.Fatalf("token after rollback %d", tb.Token())
	}

	// REPLACE bob by dan: dan gets a hand-over brief, bob a farewell, and
	// bob's old token stops working.
	oldSecret := h.game("g1").Seats[h.game("g1").SeatOfAddress(bob)].Secret
	h.org("REPLACE g1 bob dan@example.test Dan en")
	ms = h.mails()
	contains(t, h.mailTo(ms, dan).Body, "Welcome! You take over the seat")
	contains(t, h.mailTo(ms, bob).Body, "gave your seat")
	out = h.sendAs(Request{From: bob, Kind: "seat", Game: "g1", Secret: oldSecret, Token: -1, Text: "BID 1"})
	if out.Status != "ignored" {
		t.Fatalf("old token still works: %+v", out)
	}
	if out := h.send("g1", dan, "BID 1", -1); out.Status != "queued" {
		t.Fatalf("newcomer's move: %+v", out)
	}
	h.mails()

	// ERRATUM: a corrected data file applies from now on; one that does
	// not fit the position is refused.
	good := strings.Replace(string(toyData(t)), `version = "1"`, `version = "1.1"`, 1)
	good = strings.Replace(good, "max_rolls = 3", "max_rolls = 4", 1)
	h.org("ERRATUM g1\n" + good)
	ms = h.mails()
	contains(t, h.mailTo(ms, org).Body, "now running on data version 1.1")
	contains(t, h.mailTo(ms, ann).Body, "corrected the game's data (version 1.1)")
	bad := strings.Replace(string(toyData(t)), "chips = 10", "chips = 1", 1)
	h.org("ERRATUM g1\n" + bad)
	contains(t, h.mailTo(h.mails(), org).Body, "ERRATUM:", "does not fit")

	// POLICY and KICK.
	h.org("POLICY g1 12h misses=5")
	contains(t, h.mailTo(h.mails(), ann).Body, "New deadline policy")
	h.org("KICK g1 dan@example.test")
	ms = h.mails()
	// The note names who is removed: Dan, who holds bob's seat (issue 24).
	contains(t, h.mailTo(ms, ann).Body, "removed Dan from the game")
	g := h.game("g1")
	if s := g.Seats[g.SeatOfAddress(dan)]; s.State != SeatKicked || s.Bot == "" {
		t.Fatalf("kicked seat: %+v", s)
	}

	// ABORT reveals the seed.
	h.org("ABORT g1")
	contains(t, h.mailTo(h.mails(), ann).Body, "ended the game without a result", g.Seed)

	// Every organiser action is in the log, in order.
	var cmds []string
	for _, e := range h.logEntries("g1") {
		if e.Kind == EntryOrg {
			cmds = append(cmds, e.Params["command"].(string))
		}
	}
	if got := strings.Join(cmds, " "); got != "PAUSE RESUME EXTEND ROLLBACK REPLACE ERRATUM POLICY KICK ABORT" {
		t.Fatalf("logged organiser actions: %s", got)
	}
	// Another organiser's mail is ignored; a wrong secret too.
	if out := h.sendAs(Request{From: "eve@example.test", Kind: "org", Secret: "orgsecretorgsecret", Text: "ABORT g1"}); out.Status != "ignored" {
		t.Fatalf("foreign organiser: %+v", out)
	}
}

func (h *harness) logEntries(id string) []Entry {
	h.t.Helper()
	var out []Entry
	err := h.db.View(func(tx *store.Tx) error {
		var err error
		out, err = entries(tx, id, 1)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

func toyData(t *testing.T) []byte {
	t.Helper()
	g, err := engine.Lookup("toy")
	if err != nil {
		t.Fatal(err)
	}
	return g.DefaultRuleset()
}

// SAY relays messages without revealing addresses; HELP, RULE, LOG, LANG,
// NOTIFY and FORMAT answer the player.
func TestScenarioCommonCommands(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob, cat)
	h.mails()
	h.send("g1", ann, "SAY bob: shall we share the lead?", -1)
	ms := h.mails()
	m := h.mailTo(ms, bob)
	contains(t, m.Body, "ann says (to bob): shall we share the lead?")
	lacks(t, m.Body, ann)
	h.noMailTo(ms, cat)
	h.send("g1", bob, "SAY all: no", -1)
	ms = h.mails()
	contains(t, h.mailTo(ms, cat).Body, "bob says (to ", "): no")

	h.send("g1", cat, "HELP\nLOG 5\nRULE XX-1", -1)
	body := h.mailTo(h.mails(), cat).Body
	contains(t, body, "COMMANDS OF EVERY GAME", "THE LOG (last 5 lines)", "bob said: no", "There is no rule XX-1")
	lacks(t, body, "shall we share") // ann's message to bob is not cat's

	h.send("g1", cat, "LANG it\nNOTIFY turn\nFORMAT json", -1)
	ms = h.mails()
	m = h.mailTo(ms, cat)
	if m.Lang != "it" || len(m.JSON) == 0 {
		t.Fatalf("lang %s, json %d bytes", m.Lang, len(m.JSON))
	}
	// Aliases in other languages are understood.
	if out := h.send("g1", cat, "STATO", -1); out.Status != "answered" {
		t.Fatalf("STATO: %+v", out)
	}
	h.mails()
	// With NOTIFY turn, cat hears nothing when others only move.
	h.send("g1", ann, "BID 1", -1)
	ms = h.mails()
	h.noMailTo(ms, cat)
}

// Open games: a registered player lists them and joins; REGISTER gives a
// player token; OBSERVE sends the public view.
func TestScenarioOpenGamesAndObservers(t *testing.T) {
	h := newHarness(t)
	out := h.sendAs(Request{From: dan, FromName: "Dan", Text: "REGISTER Dan en"})
	if out.Status != "applied" {
		t.Fatalf("register: %+v", out)
	}
	ms := h.mails()
	welcome := h.mailTo(ms, dan)
	if welcome.Tag.Kind != mailmsg.TagPlayer || welcome.Tag.String() != "p."+welcome.Tag.Secret {
		t.Fatalf("no player tag: %q", welcome.Tag)
	}
	secret := welcome.Tag.Secret
	h.org("NEW toy id=open1 players=2 open\nPLAYER ann@example.test Ann")
	h.mails()
	h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: "LIST"})
	contains(t, h.mailTo(h.mails(), dan).Body, "OPEN GAMES", "open1", "1 of 2 seats taken")
	h.send("open1", ann, "JOIN", -1)
	h.mails()
	h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: "JOIN open1"})
	g := h.game("open1")
	if g.Status != StatusRunning {
		t.Fatalf("open game did not start: %s %+v", g.Status, g.Seats)
	}
	h.mails()
	h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: "OBSERVE open1"})
	contains(t, h.mailTo(h.mails(), dan).Body, "public view")
	// An untagged mail from a stranger is ignored; from a player, help once a day.
	if out := h.sendAs(Request{From: "who@nowhere.test", Text: "PLACE MH1 SEED"}); out.Status != "ignored" {
		t.Fatalf("stranger: %+v", out)
	}
	if out := h.sendAs(Request{From: dan, Text: "hello?"}); out.Status != "answered" {
		t.Fatalf("untagged player: %+v", out)
	}
	if out := h.sendAs(Request{From: dan, Text: "hello again?"}); out.Status != "ignored" {
		t.Fatalf("untagged player twice: %+v", out)
	}
}

// NOTIFY digest: one mail a day with everything since the last one.
func TestScenarioDigest(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.send("g1", bob, "NOTIFY digest", -1)
	h.mails()
	h.send("g1", ann, "BID 1", -1)
	out := h.send("g1", bob, "BID 2\nROLL", -1)
	ms := h.mails()
	if out.Status != "applied" {
		t.Fatalf("bob: %+v", out)
	}
	contains(t, h.mailTo(ms, bob).Body, "YOUR MESSAGE")
	h.send("g1", ann, "HOLD", -1)
	h.noMailTo(h.mails(), bob)
	h.clock.Advance(25 * time.Hour)
	h.tick()
	ms = h.mails()
	contains(t, h.mailTo(ms, bob).Body, "SINCE YOUR LAST MAIL")
}

// HOOK queues signed calls with public events only; UNHOOK stops them.
func TestScenarioOutgoingHooks(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	h.org("HOOK g1 https://hooks.example.test/x discord moves,turn,chat")
	body := h.mailTo(h.mails(), org).Body
	if !strings.Contains(body, "hook ") || !strings.Contains(body, "(discord)") {
		t.Fatalf("HOOK answer:\n%s", body)
	}
	h.send("g1", ann, "BID 3", -1) // sealed: nothing public yet
	h.send("g1", bob, "SAY ann: secret plan", -1)
	h.send("g1", bob, "BID 1", -1) // reveals the bids
	var items []store.Item
	h.db.View(func(tx *store.Tx) error {
		return tx.Items(HooksQueue, func(it store.Item) error { items = append(items, it); return nil })
	})
	if len(items) != 1 {
		t.Fatalf("%d hook calls queued, want 1 (the reveal)", len(items))
	}
	it := items[0]
	if it.To != "https://hooks.example.test/x" || it.Meta[MetaHookFormat] != "discord" || len(it.Meta[MetaHookSecret]) != 32 {
		t.Fatalf("hook item: %+v", it)
	}
	p := string(it.Payload)
	for _, want := range []string{`"game":"g1"`, "toy.order", `"waiting"`} {
		if !strings.Contains(p, want) {
			t.Errorf("payload lacks %s: %s", want, p)
		}
	}
	for _, leak := range []string{"secret plan", "amount", "@example.test"} {
		if strings.Contains(p, leak) {
			t.Errorf("payload leaks %q: %s", leak, p)
		}
	}
	id := it.Meta[MetaHookID]
	h.org("UNHOOK g1 " + id)
	if g := h.game("g1"); len(g.Hooks) != 0 {
		t.Fatalf("hooks left: %+v", g.Hooks)
	}
}

// Commands on a game created earlier in the same organiser mail work.
func TestScenarioNewThenCommandsInOneMail(t *testing.T) {
	h := newHarness(t)
	h.org("NEW toy id=t1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\nHOOK t1 https://hooks.example.test/y\nPOLICY t1 12h")
	body := h.mailTo(h.mails(), org).Body
	contains(t, body, "NEW: created game t1", "HOOK t1: hook ", "POLICY t1: policy now 12h")
	if g := h.game("t1"); len(g.Hooks) != 1 || g.Policy.Hours["*"] != 12 {
		t.Fatalf("hooks %d, policy %v", len(g.Hooks), g.Policy)
	}
}

// NEW by mail may carry an organiser's data file (RULESET, then the file).
func TestScenarioNewWithRuleset(t *testing.T) {
	h := newHarness(t)
	data := strings.Replace(string(toyData(t)), `version = "1"`, `version = "house-2"`, 1)
	data = strings.Replace(data, "chips = 10", "chips = 4", 1)
	h.org("NEW toy id=h1\nPLAYER ann@example.test Ann\nPLAYER bob@example.test Bob\nRULESET\n" + data)
	if body := h.mailTo(h.mails(), org).Body; !strings.Contains(body, "NEW: created game h1") {
		t.Fatalf("answer:\n%s", body)
	}
	h.send("h1", ann, "JOIN", -1)
	h.send("h1", bob, "JOIN", -1)
	tb := h.table("h1")
	if v := tb.State.Head().RulesetVersion; v != "house-2" {
		t.Fatalf("ruleset %q", v)
	}
	if c := tb.State.View(0).(enginetest.ToyView).Chips[0]; c != 4 {
		t.Fatalf("chips %d", c)
	}
	h.org("NEW toy id=h2\nPLAYER ann@example.test Ann\nRULESET\ngame = \"toy\"\nversion = \"x\"\nchips = -3\n")
	if body := h.mailTo(h.mails(), org).Body; !strings.Contains(body, "NEW toy: ") || h.r.db == nil {
		t.Fatalf("a bad data file was accepted:\n%s", body)
	}
}
