package referee

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 11, item 2: mail that does not authenticate spends its sender's own
// budget, never the seat's; the seat's genuine mail is processed and
// answered.
func TestRateLimitForgedMailNeverSilencesTheSeat(t *testing.T) {
	h := newHarness(t)
	h.r.opt.RateLimit = 5
	h.r.rate, h.r.anon = newRateLimiter(5, time.Hour), newRateLimiter(5, time.Hour)
	h.newToyGame("g1", ann, bob)
	h.mails()
	g := h.game("g1")
	seat := g.SeatOfAddress(ann)
	for i := 0; i < 20; i++ {
		// A forger who knows nothing: a made-up secret, and the real
		// secret from the wrong address.
		h.sendAs(Request{From: ann, Kind: "seat", Game: "g1", Seat: seat, Secret: "aaaaaaaaaaaaaaaa", Token: -1, Text: "BID 1"})
		out := h.sendAs(Request{From: "eve@example.test", Kind: "seat", Game: "g1", Seat: seat, Secret: g.Seats[seat].Secret,
			Token: -1, Text: "BID 1"})
		if out.Status == "applied" || out.Status == "queued" {
			t.Fatalf("a forged mail was applied: %+v", out)
		}
	}
	ms := h.mails()
	spoofs := 0
	for _, m := range ms {
		if m.To == ann {
			spoofs++
		}
	}
	if spoofs > 2 { // one "not from your address", one "unknown token"
		t.Errorf("40 forged mails brought ann %d warnings", spoofs)
	}
	out := h.send("g1", ann, "BID 2", -1)
	if out.Status != "queued" {
		t.Fatalf("ann's genuine bid after the forgeries: %+v", out)
	}
	if m := h.mailTo(h.mails(), ann); m == nil {
		t.Fatal("ann's genuine bid was not answered")
	}
}

// Beyond the seat's own budget its mail is still processed; one mail says
// the answers stop for a while, the later ones are not answered.
func TestRateLimitSeatOverBudgetStillProcessed(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	h.r.opt.RateLimit = 3
	h.r.rate = newRateLimiter(3, time.Hour)
	for i := 0; i < 3; i++ {
		h.send("g1", ann, fmt.Sprintf("SAY bob: hello %d", i), -1)
	}
	h.mails()
	out := h.send("g1", ann, "SAY bob: over the budget", -1)
	if out.Status != "answered" {
		t.Fatalf("over budget: %+v", out)
	}
	ms := h.mails()
	contains(t, h.mailTo(ms, ann).Body, "more than 3 mails")
	contains(t, h.mailTo(ms, bob).Body, "over the budget")
	out = h.send("g1", ann, "BID 2", -1)
	if out.Status != "queued" || !strings.Contains(out.Detail, "not answered") {
		t.Fatalf("further over budget: %+v", out)
	}
	h.noMailTo(h.mails(), ann)
	if q := h.table("g1").Queued(h.game("g1").SeatOfAddress(ann)); len(q) != 1 {
		t.Fatalf("the bid over budget was not processed: %+v", q)
	}
}

// Issue 11, item 1: informational commands are answered once each, at most
// MaxInfo of them; too many orders are all refused; no mail grows past
// MaxReplyBytes.
func TestCapsPerMail(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	out := h.send("g1", ann, strings.Repeat("HELP\n", 5000)+"STATUS\nSTATUS\nRULE X\nLOG 5\nLIST\nLOG 6\nLOG 7", -1)
	if out.Status != "answered" {
		t.Fatalf("HELP bomb: %+v", out)
	}
	m := h.mailTo(h.mails(), ann)
	if n := strings.Count(m.Body, "HELP lists"); n > 2 {
		t.Errorf("HELP answered %d times", n)
	}
	contains(t, m.Body, "5000 repeated commands were answered once", "2 more questions were not answered")
	out = h.send("g1", ann, strings.Repeat("BID 1\n", DefaultMaxOrders+1), -1)
	if out.Status != "rejected" {
		t.Fatalf("too many orders: %+v", out)
	}
	contains(t, h.mailTo(h.mails(), ann).Body, "at most 100")
	if q := h.table("g1").Queued(h.game("g1").SeatOfAddress(ann)); len(q) != 0 {
		t.Fatalf("orders of a mail over the cap were queued: %+v", q)
	}
	h.r.opt.MaxReplyBytes = 600
	h.send("g1", ann, "LOG 500", -1)
	m = h.mailTo(h.mails(), ann)
	if len(m.Body) > 600 {
		t.Errorf("body of %d bytes", len(m.Body))
	}
	if !strings.HasSuffix(m.Body, "This mail was cut at 0 KB. Ask for less at a time, for example LOG 50.)\n") {
		t.Errorf("the cut is not told at the end:\n%s", m.Body[max(0, len(m.Body)-300):])
	}
}

// Issue 11, item 4: a mail with no line that looks like a command gets no
// error reply; issue 20: a player's first tries of a day are all answered
// (proseAnswers), the rest, an auto-responder's, are not.
func TestProseOnlyMailGetsNoErrorReply(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	for i := 0; i < proseAnswers+2; i++ {
		out := h.send("g1", ann, "Ik ben afwezig tot maandag.\nMet vriendelijke groet", -1)
		if out.Status != "ignored" {
			t.Fatalf("prose: %+v", out)
		}
	}
	ms := h.mails()
	n := 0
	for _, m := range ms {
		if m.To == ann {
			n++
			contains(t, m.Body, "No line of your mail reads as a command")
			lacks(t, m.Body, "REFUSED")
		}
	}
	if n != proseAnswers {
		t.Fatalf("%d prose mails got %d answers, want %d", proseAnswers+2, n, proseAnswers)
	}
}

// Prune forgets de-duplication records older than KeepInbound (issue 11,
// item 9), and keeps the recent ones.
func TestPruneOldRecords(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	h.send("g1", ann, "STATUS", -1)
	h.clock.Advance(100 * 24 * time.Hour)
	h.send("g1", ann, "SAY bob: recent", -1)
	n, err := h.r.Prune(context.Background())
	if err != nil || n == 0 {
		t.Fatalf("pruned %d, %v", n, err)
	}
	// The recent mail is still known: sending it again is a duplicate.
	req := Request{From: ann, Kind: "seat", Game: "g1", Seat: h.game("g1").SeatOfAddress(ann),
		Secret: h.game("g1").Seats[h.game("g1").SeatOfAddress(ann)].Secret, Token: -1, Text: "SAY bob: recent",
		MessageID: fmt.Sprintf("<m%d@players.test>", h.n)}
	if out := h.sendAs(req); out.Status != "duplicate" {
		t.Errorf("a recent record was pruned: %+v", out)
	}
}

// A sealed bid resent after the group was resolved is a duplicate, not a
// bid for the next round (issue 11, item 3).
func TestStaleResendOfSealedBidIsDuplicate(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	tok := h.table("g1").Token()
	g := h.game("g1")
	seat := g.SeatOfAddress(ann)
	req := Request{From: ann, Kind: "seat", Game: "g1", Seat: seat, Secret: g.Seats[seat].Secret, Token: tok, Text: "BID 2"}
	if out := h.sendAs(req); out.Status != "queued" {
		t.Fatalf("bid: %+v", out)
	}
	h.send("g1", bob, "BID 1", -1)
	if h.table("g1").Token() == tok {
		t.Fatal("the bids were not resolved")
	}
	before := h.table("g1").Token()
	req.MessageID = "" // a fresh Message-ID: the mail client sent it again
	if out := h.sendAs(req); out.Status != "duplicate" {
		t.Fatalf("resent sealed bid: %+v", out)
	}
	if h.table("g1").Token() != before || len(h.table("g1").Queued(seat)) != 0 {
		t.Fatal("the resent bid was used again")
	}
}

// A REGISTER from a forged From makes no player: the address gets one mail
// asking it to confirm, nothing else, until a mail with the player's token
// comes back from it (issue 11, item 9).
func TestRegisterNeedsConfirmation(t *testing.T) {
	h := newHarness(t)
	if out := h.sendAs(Request{From: dan, FromName: "Mallory", Text: "REGISTER Mallory en"}); out.Detail != "registration pending confirmation" {
		t.Fatalf("register: %+v", out)
	}
	m := h.mailTo(h.mails(), dan)
	contains(t, m.Body, "If it was not you, ignore this mail")
	secret := m.Tag.Secret
	// More forged mail from that address: no more mail to it.
	h.sendAs(Request{From: dan, Text: "REGISTER Mallory en"})
	h.sendAs(Request{From: dan, Text: "hello?"})
	h.sendAs(Request{From: dan, Kind: "seat", Game: "g9", Secret: "nosuchsecretxxxx", Token: -1, Text: "PASS"})
	h.noMailTo(h.mails(), dan)
	// Dan answers from his address with the token: confirmed.
	h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: "LIST"})
	h.mails()
	if out := h.sendAs(Request{From: dan, Text: "REGISTER Dan en"}); out.Detail != "already registered" {
		t.Fatalf("after confirmation: %+v", out)
	}
	h.mails()
	// An auto-responder answering a mail to the player address: no reply.
	if out := h.sendAs(Request{From: dan, Kind: "player", Secret: secret, Text: "Ik ben afwezig tot maandag."}); out.Status != "ignored" {
		t.Fatalf("prose to the player address: %+v", out)
	}
	h.noMailTo(h.mails(), dan)
}

// Issue 23, no backscatter: 1,000 forged REGISTERs (before: 1,000
// confirmation mails to third parties in 8 seconds) make no mail at all
// when the sender is not authenticated; authenticated ones are answered
// at most once a day per address and within the global hourly budget.
func TestRegisterNoBackscatter(t *testing.T) {
	h := newHarness(t)
	h.r.opt.RegisterNeedsAuth = true
	h.mails()
	for i := 0; i < 1000; i++ {
		from := fmt.Sprintf("victim%d@example.org", i)
		if out := h.sendAs(Request{From: from, Text: "REGISTER Mallory en"}); out.Status != OutcomeIgnored {
			t.Fatalf("forged REGISTER %d: %+v", i, out)
		}
	}
	if ms := h.mails(); len(ms) != 0 {
		t.Fatalf("1000 unauthenticated REGISTERs sent %d mails", len(ms))
	}
	// Authenticated: one answer per address a day, the global budget
	// caps the hour.
	for i := 0; i < 3; i++ {
		h.sendAs(Request{From: "pat@example.org", FromName: `Pat O"Brien\`, Text: `REGISTER "Pat O\"Brien" en`, Authenticated: true})
	}
	if ms := h.mails(); len(ms) != 1 {
		t.Fatalf("3 authenticated REGISTERs from one address sent %d mails, want 1", len(ms))
	}
	for i := 0; i < 200; i++ {
		h.sendAs(Request{From: fmt.Sprintf("real%d@example.org", i), Text: "REGISTER", Authenticated: true})
	}
	if ms, want := h.mails(), DefaultConfirmsPerHour-1; len(ms) != want {
		t.Fatalf("200 authenticated REGISTERs in an hour sent %d mails, want the budget's %d", len(ms), want)
	}
	h.clock.Advance(61 * time.Minute)
	h.sendAs(Request{From: "later@example.org", Text: "REGISTER", Authenticated: true})
	if ms := h.mails(); len(ms) != 1 {
		t.Fatalf("after the hour: %d mails, want 1", len(ms))
	}
}

// Issue 23, authority: a player's "WITHDRAW <t> <address>" names whom to
// withdraw and is refused unless it is the sender's own address; PUBLISH
// off revokes the page address for good, and the next PUBLISH draws a new
// one.
func TestAuthorityWithdrawAndPublish(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT open game=toy rounds=1")
	for _, p := range []string{"ann@p.test", "bob@p.test", "cat@p.test"} {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
		h.asPlayer(p, "JOIN open")
	}
	h.mails()
	h.asPlayer("bob@p.test", "WITHDRAW open ann@p.test")
	if n := len(h.tour("open").Entrants); n != 3 {
		t.Fatalf("bob's WITHDRAW of ann left %d entrants, want 3", n)
	}
	contains(t, h.mailTo(h.mails(), "bob@p.test").Body, "Only the organiser can withdraw someone else")
	h.asPlayer("bob@p.test", "WITHDRAW open <BOB@p.test>")
	if n := len(h.tour("open").Entrants); n != 2 || h.tour("open").Entrant("ann@p.test") == nil {
		t.Fatalf("bob's WITHDRAW of himself: %d entrants", n)
	}

	page := func(text string) string {
		t.Helper()
		lines, err := h.r.Organise(org, text)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`/t/(\S+)`).FindStringSubmatch(strings.Join(lines, " "))
		if m == nil {
			t.Fatalf("%s: no page address in %v", text, lines)
		}
		return strings.TrimRight(m[1], ".,)")
	}
	first := page("PUBLISH open")
	if _, err := h.r.TournamentPage(first, "en"); err != nil {
		t.Fatalf("the published page: %v", err)
	}
	if _, err := h.r.Organise(org, "PUBLISH open off"); err != nil {
		t.Fatal(err)
	}
	second := page("PUBLISH open")
	if second == first {
		t.Fatalf("PUBLISH after off showed the old address %s again", first)
	}
	if _, err := h.r.TournamentPage(first, "en"); !errors.Is(err, ErrNoPage) {
		t.Errorf("the revoked address still serves a page: %v", err)
	}
	if _, err := h.r.TournamentPage(second, "en"); err != nil {
		t.Errorf("the new address: %v", err)
	}
}

// Issue 23, sizes bounded: a tournament takes at most MaxEntrants (JOIN
// and ENTER refused beyond, in the reader's words); an organiser mail's
// command lines beyond MaxOrgLines are not read and said so; the JSON part
// counts towards the reply cap.
func TestSizesBounded(t *testing.T) {
	h := newHarness(t)
	h.r.opt.MaxEntrants = 3
	h.org("NEW TOURNAMENT cap game=toy rounds=1")
	for _, p := range []string{"ann@p.test", "bob@p.test", "cat@p.test", "dan@p.test"} {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0]})
	}
	h.mails()
	for _, p := range []string{"ann@p.test", "bob@p.test", "cat@p.test", "dan@p.test"} {
		h.asPlayer(p, "JOIN cap")
	}
	if n := len(h.tour("cap").Entrants); n != 3 {
		t.Fatalf("%d entrants, the cap is 3", n)
	}
	contains(t, h.mailTo(h.mails(), "dan@p.test").Body, "is full: it takes at most 3 entrants")
	lines, err := h.r.Organise(org, "ENTER cap eve@p.test Eve")
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "is full") || len(h.tour("cap").Entrants) != 3 {
		t.Fatalf("ENTER past the cap: %v %v, %d entrants", lines, err, len(h.tour("cap").Entrants))
	}

	// 600 command lines in one organiser mail (ENTER or any other): the
	// first MaxOrgLines are read, the organiser is told about the rest.
	// (STANDINGS lines here: the harness's deterministic secrets would run
	// out over 500 new players.)
	var b strings.Builder
	for i := 0; i < 600; i++ {
		b.WriteString("STANDINGS cap\n")
	}
	lines, err = h.r.Organise(org, b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != MaxOrgLines+1 {
		t.Fatalf("%d results from 600 lines, want the first %d and a note", len(lines), MaxOrgLines)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "the 100 after them were not") {
		t.Fatalf("the organiser is not told what was not read: %q", last)
	}
	h.mails()

	// The JSON part counts towards the reply cap.
	h.r.opt.MaxReplyBytes = 8 << 10
	for _, c := range []struct{ body, json int }{{20 << 10, 3 << 10}, {2 << 10, 7 << 10}, {20 << 10, 0}} {
		m := &Outgoing{Seat: -1, Kind: "test", To: "ann@p.test", Subject: "x", Body: strings.Repeat("line of text\n", c.body/13),
			JSON: []byte(`"` + strings.Repeat("j", c.json) + `"`), Lang: "en", Date: h.clock.Now()}
		if c.json == 0 {
			m.JSON = nil
		}
		if _, err := h.r.update(func(w *work) error { m.MessageID = w.messageID(nil, -1, 0); return w.enqueue(m) }); err != nil {
			t.Fatal(err)
		}
		got := h.mailTo(h.mails(), "ann@p.test")
		if total := len(got.Body) + (len(got.JSON)+2)/3*4; total > h.r.opt.MaxReplyBytes {
			t.Errorf("body %d + JSON %d: the mail carries %d bytes, the cap is %d", c.body, c.json, total, h.r.opt.MaxReplyBytes)
		}
	}
}

// Issue 23, sizes bounded: a SAY longer than MaxSayRunes is refused with
// the reason, not relayed; an option key or value longer than
// MaxOptionBytes makes NEW fail with the reason.
func TestSayAndOptionsBounded(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", ann, bob)
	h.mails()
	h.send("g1", ann, "SAY all: "+strings.Repeat("é", MaxSayRunes+1), -1)
	ms := h.mails()
	for _, m := range ms {
		if m.To == bob {
			t.Errorf("a SAY over the cap was relayed to bob:\n%.200s", m.Body)
		}
	}
	contains(t, h.mailTo(ms, ann).Body, fmt.Sprintf("at most %d characters", MaxSayRunes))
	h.send("g1", ann, "SAY all: "+strings.Repeat("é", MaxSayRunes), -1)
	if ms := h.mails(); len(ms) != 2 {
		t.Errorf("a SAY at the cap: %d mails, want ann's and bob's", len(ms))
		for _, m := range ms {
			t.Logf("%s: %.300s", m.To, m.Body)
		}
	}
	lines, _ := h.r.Organise(org, "NEW toy id=g2 colour="+strings.Repeat("x", MaxOptionBytes+1)+"\nPLAYER ann@p.test Ann")
	if !strings.Contains(strings.Join(lines, "\n"), fmt.Sprintf("longer than %d characters", MaxOptionBytes)) {
		t.Errorf("NEW with a long option: %v", lines)
	}
	lines, _ = h.r.Organise(org, "NEW TOURNAMENT t2 game=toy "+strings.Repeat("k", MaxOptionBytes+1)+"=1")
	if !strings.Contains(strings.Join(lines, "\n"), fmt.Sprintf("longer than %d characters", MaxOptionBytes)) {
		t.Errorf("NEW TOURNAMENT with a long option: %v", lines)
	}
}
