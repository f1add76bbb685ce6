package referee

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// The reader bot (issue 22, "decide from the mail alone"): a player that
// sees nothing but the mails it gets. It finds the numbered menu of the
// newest mail that asks it something, picks an option by its words (those
// that speak of brewing, buying, selling or scoring first, else any),
// answers by the number, the copied menu line or the command in turn, and
// now and then asks HELP about a code or name it read, checking that the
// answer is help (not "no help"). It replies to the mail it read (the
// Message-ID's token and the Reply-To tag, as a mail client does), through
// the referee's whole request path. Any refused line, any mail that asks
// without a menu or an example to copy, any HELP gap fails the test.

// readerOption is one numbered option as a reader sees it.
type readerOption struct {
	n     int
	line  string // what follows "n) " on its first line, as copied
	cmd   string // the line up to its "#" comment
	words string // the comment, its wrapped lines and its group heading
}

var (
	// optionStart finds "n) " at the start of a menu line or of its second
	// column.
	optionStart = regexp.MustCompile(`(?:^\s+|\s{2,})(\d+)\) `)
	menuLine    = regexp.MustCompile(`^\s+\d+\) `)
	// readerExample is a quoted answer in a prompt ("Reply e.g. "GO 3"").
	readerExample = regexp.MustCompile(`["«“]\s?([A-Z][^"»”]*?)\s?["»”]`)
)

// readMenu returns the numbered options of a mail's body, in number order
// (nil when the mail has no menu).
func readMenu(body string) []readerOption {
	var out []readerOption
	heading := ""
	var last *readerOption
	for _, l := range strings.Split(body, "\n") {
		switch {
		case menuLine.MatchString(l):
			locs := optionStart.FindAllStringSubmatchIndex(l, -1)
			for k, loc := range locs {
				end := len(l)
				if k+1 < len(locs) {
					end = locs[k+1][0]
				}
				n, _ := strconv.Atoi(l[loc[2]:loc[3]])
				text := strings.TrimSpace(l[loc[1]:end])
				cmd, words, _ := strings.Cut(text, "#")
				out = append(out, readerOption{n: n, line: text, cmd: strings.TrimSpace(cmd), words: strings.TrimSpace(words + " " + heading)})
			}
			last = &out[len(out)-1]
		case last != nil && strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "":
			last.words += " " + strings.TrimSpace(l) // a wrapped description
		case strings.HasSuffix(strings.TrimSpace(l), ":") && !strings.HasPrefix(l, " "):
			heading, last = strings.TrimSpace(l), nil
		case strings.TrimSpace(l) == "":
			if out != nil {
				return sortOptions(out)
			}
			last = nil
		default:
			last = nil
			if out != nil && !strings.HasPrefix(l, " ") && !strings.HasSuffix(l, ":") {
				// The legend or the next section: the menu is over.
				return sortOptions(out)
			}
		}
	}
	return sortOptions(out)
}

func sortOptions(o []readerOption) []readerOption {
	by := make([]readerOption, 0, len(o))
	for n := 1; n <= len(o); n++ {
		for _, x := range o {
			if x.n == n {
				by = append(by, x)
			}
		}
	}
	return by
}

// readerLikes are the words a reader looks for first, per language
// (stems: brew, buy, sell, score, reputation, points).
var readerLikes = map[string][]string{
	"en": {"brew", "buy", "sell", "scor", "rep", "vp", "ducat", "+"},
	"it": {"birr", "produ", "compr", "vend", "punt", "rep", "ducat", "+"},
	"fr": {"bras", "achet", "vend", "point", "rép", "ducat", "+"},
	"nl": {"brouw", "koop", "verko", "punt", "rep", "dukat", "+"},
}

// readerFears are the words of a loss, per language: an option whose
// words say it costs the reader a die it needs ("# costs a die R02 needs")
// is set aside while another option is left.
var readerFears = map[string]string{"en": "costs a die", "it": "toglie un dado", "fr": "coûte un dé", "nl": "kost een steen"}

// readerHelp is HELP in the reader's language, as the mails write it.
var readerHelp = map[string]string{"en": "HELP", "it": "AIUTO", "fr": "AIDE", "nl": "HULP"}

// reader is one seat played from its mails alone.
type reader struct {
	addr, lang string
	inbox      []*Outgoing
	next       int // first mail not read yet
	rng        *rand.Rand
	decisions  int
	helps      int
	forms      [3]int // answers by number, copied line, command
	receipts   int    // mails that asked nothing
	helpMails  int
	examples   int // answers copied from an example (no menu)
}

// pending returns the newest unread mail that asks something, with its
// menu, and marks everything before it read.
func (rb *reader) pending() (*Outgoing, []readerOption) {
	for i := len(rb.inbox) - 1; i >= rb.next; i-- {
		m := rb.inbox[i]
		if opts := readMenu(m.Body); len(opts) > 0 {
			rb.next = len(rb.inbox)
			return m, opts
		}
	}
	return nil, nil
}

// choose picks an option by its words: most often one of those whose
// words (its comment and its group's heading) speak the most of what the
// reader wants (readerLikes, counted where they occur: "Store a die (stored
// dice brew recipes)" once, its option "# helps brew R02" twice), now and
// then the first or any; never one whose words say it costs the reader
// a die it needs (readerFears) while another is left.
func (rb *reader) choose(opts []readerOption) readerOption {
	var safe []readerOption
	for _, o := range opts {
		if !strings.Contains(strings.ToLower(o.words), readerFears[rb.lang]) {
			safe = append(safe, o)
		}
	}
	if len(safe) > 0 {
		opts = safe
	}
	var liked []readerOption
	best := 0
	for _, o := range opts {
		w := strings.ToLower(o.words)
		n := 0
		for _, s := range readerLikes[rb.lang] {
			n += strings.Count(w, s)
		}
		switch {
		case n > best:
			best, liked = n, []readerOption{o}
		case n == best && n > 0:
			liked = append(liked, o)
		}
	}
	if len(liked) > 0 && rb.rng.IntN(4) > 0 {
		return liked[rb.rng.IntN(len(liked))]
	}
	if rb.rng.IntN(3) == 0 {
		return opts[0]
	}
	return opts[rb.rng.IntN(len(opts))]
}

// answer is the chosen option written in the next form in turn.
func (rb *reader) answer(o readerOption) string {
	k := rb.decisions % 3
	rb.forms[k]++
	switch k {
	case 0:
		return strconv.Itoa(o.n)
	case 1:
		return o.line
	}
	return o.cmd
}

// helpTopics are the codes and words of an option's command a reader may
// ask about: each word of two letters or more ("EA@T1" is EA and T1).
func helpTopics(o readerOption) []string {
	var out []string
	for _, f := range strings.FieldsFunc(o.cmd, func(r rune) bool { return r == ' ' || r == '@' || r == '>' || r == ',' }) {
		if topicWord.MatchString(f) {
			out = append(out, f)
		}
	}
	return out
}

var topicWord = regexp.MustCompile(`^\p{Lu}[\p{Lu}0-9]+$`)

// readerGame is a whole game played by two readers.
type readerGame struct {
	t       *testing.T
	h       *harness
	id      string
	game    string
	readers []*reader
	noHelp  map[string]string // the start of "no help on X" per language
	helped  map[string]bool
	// seen counts each player's mails; lines over 80 columns and internal
	// codes fail at once.
}

func newReaderGame(t *testing.T, game, lang string, seed uint64) *readerGame {
	t.Helper()
	h := newHarness(t)
	g := &readerGame{t: t, h: h, id: "rb1", game: game, noHelp: map[string]string{}, helped: map[string]bool{}}
	h.r.opt.ReceiptWindow = DefaultReceiptWindow
	h.org(fmt.Sprintf("NEW %s id=%s deadline=48h seed=reader%d\nPLAYER %s Ann %s\nPLAYER %s Bob %s\n", game, g.id, seed, ann, lang, bob, lang))
	for i, a := range []string{ann, bob} {
		g.readers = append(g.readers, &reader{addr: a, lang: lang, rng: rand.New(rand.NewPCG(seed, uint64(i)))})
	}
	for _, l := range []string{"en", "it", "fr", "nl"} {
		s, err := h.r.render.T.Render("referee", l, "info.no_help", h.r.render.ctx(Reader{Game: "referee", Lang: l}, map[string]any{"topic": "\x00"}))
		if err != nil {
			t.Fatal(err)
		}
		g.noHelp[l], _, _ = strings.Cut(s, "\x00")
	}
	h.send(g.id, ann, "JOIN", -1)
	h.send(g.id, bob, "JOIN", -1)
	g.deliver()
	for _, rb := range g.readers {
		rb.receipts = 0
	}
	return g
}

// deliver puts the queued mails in the readers' inboxes, checking each.
func (g *readerGame) deliver() {
	g.t.Helper()
	g.h.tick()
	for _, m := range g.h.mails() {
		for _, rb := range g.readers {
			if m.To != rb.addr {
				continue
			}
			rb.inbox = append(rb.inbox, m)
			g.checkMail(m)
			if m.Kind == "reply" && len(readMenu(m.Body)) == 0 && !readerExample.MatchString(m.Body) && g.h.game(g.id).Status == StatusRunning {
				rb.receipts++ // a mail that asks nothing
			}
		}
	}
}

// checkMail: no line over 80 columns, no internal code (issue 22).
func (g *readerGame) checkMail(m *Outgoing) {
	g.t.Helper()
	for _, l := range strings.Split(m.Body, "\n") {
		if n := len([]rune(l)); n > 80 {
			g.t.Errorf("%s: %d columns: %q", m.To, n, l)
		}
		if id := internalID.FindString(l); id != "" && !strings.Contains(l, "@") {
			g.t.Errorf("%s: internal code %s: %q", m.To, id, l)
		}
	}
}

// reply sends text as rb's reply to m (its token and tag).
func (g *readerGame) reply(rb *reader, m *Outgoing, text string) Outcome {
	g.t.Helper()
	ref, err := mailmsg.ParseMessageID(m.MessageID)
	if err != nil {
		g.t.Fatal(err)
	}
	if m.Tag.Kind != mailmsg.TagSeat {
		g.t.Fatalf("tag %v", m.Tag)
	}
	g.h.clock.Advance(time.Minute)
	return g.h.sendAs(Request{From: rb.addr, Kind: "seat", Game: m.Tag.Game, Seat: m.Tag.Seat, Secret: m.Tag.Secret, Token: int(ref.Token), Text: text})
}

// step has every reader with a mail that asks something answer it; it
// reports whether anyone did.
func (g *readerGame) step() bool {
	g.t.Helper()
	acted := false
	for _, rb := range g.readers {
		m, opts := rb.pending()
		if m == nil {
			continue
		}
		acted = true
		o := rb.choose(opts)
		g.askHelp(rb, m, opts)
		text := rb.answer(o)
		rb.decisions++
		out := g.reply(rb, m, text)
		if out.Status != "applied" && out.Status != "queued" {
			g.deliver()
			g.t.Fatalf("%s answered %q to:\n%s\nrefused: %+v\n%s", rb.addr, text, m.Body, out, rb.inbox[len(rb.inbox)-1].Body)
		}
		g.deliver()
	}
	return acted
}

// copyExample: when no mail has a menu (a decision with too many answers
// to number), each reader with an unread mail copies the first answer it
// quotes as an example; it reports whether anyone did.
func (g *readerGame) copyExample() bool {
	g.t.Helper()
	acted := false
	for _, rb := range g.readers {
		if rb.next >= len(rb.inbox) {
			continue
		}
		m := rb.inbox[len(rb.inbox)-1]
		rb.next = len(rb.inbox)
		ex := readerExample.FindStringSubmatch(m.Body)
		if ex == nil {
			continue
		}
		acted = true
		rb.examples++
		out := g.reply(rb, m, ex[1])
		if out.Status != "applied" && out.Status != "queued" {
			g.deliver()
			g.t.Fatalf("%s copied the example %q of:\n%s\nrefused: %+v\n%s", rb.addr, ex[1], m.Body, out, rb.inbox[len(rb.inbox)-1].Body)
		}
		g.deliver()
	}
	return acted
}

// askHelp sends HELP about the first word of a command the menu shows
// that was not asked about yet, and checks the answer helps.
func (g *readerGame) askHelp(rb *reader, m *Outgoing, opts []readerOption) {
	g.t.Helper()
	topic, o := "", readerOption{}
	for _, x := range opts {
		for _, w := range helpTopics(x) {
			if !g.helped[w] {
				topic, o = w, x
				break
			}
		}
		if topic != "" {
			break
		}
	}
	if topic == "" {
		return
	}
	g.helped[topic] = true
	rb.helps++
	g.reply(rb, m, readerHelp[rb.lang]+" "+topic)
	n := len(rb.inbox)
	g.deliver()
	if len(rb.inbox) == n {
		g.t.Fatalf("%s: no answer to HELP %s", rb.addr, topic)
	}
	ans := rb.inbox[len(rb.inbox)-1]
	rb.next = len(rb.inbox) // the answer is read, not played
	rb.helpMails++
	if ans.Kind == "reply" && len(readMenu(ans.Body)) == 0 && !readerExample.MatchString(ans.Body) {
		rb.receipts-- // an answer to a question is no receipt
	}
	if strings.Contains(ans.Body, g.noHelp[rb.lang]) {
		g.t.Errorf("%s %s: HELP %s (seen in %q) does not help:\n%s", g.game, rb.lang, topic, o.line, ans.Body)
	}
}

// play plays the game to its end.
func (g *readerGame) play(limit int) {
	g.t.Helper()
	for n := 0; g.h.game(g.id).Status == StatusRunning; n++ {
		if n > limit {
			g.t.Fatalf("no end after %d rounds of answers", limit)
		}
		if !g.step() && !g.copyExample() {
			var last []string
			for _, rb := range g.readers {
				if len(rb.inbox) > 0 {
					last = append(last, rb.addr+":\n"+rb.inbox[len(rb.inbox)-1].Body)
				}
			}
			g.t.Fatalf("the game waits but no mail asks anything:\n%s", strings.Join(last, "\n----\n"))
		}
	}
}

// Issue 22: whole Brew Crafters, Heaven & Ale, Fromage and Dice Brewing
// games, in English and in other languages, played by readers who see only
// their mails; each ends with no refused line, HELP answered for what the
// menus show, and receipts at most 15% of each player's mails. Dice Brewing
// was left out while a placement of more than 48 options had no menu, only
// "Example: PLACE MH1 SEED": the readers copied it, over and over, and their
// games never ended (176 rounds and more). With every option numbered and
// grouped under headings in words they end (the target reached, about 60
// to 280 rounds: readers who pick by words and not by the recipes on
// display; the greedy bot takes about 9, random play rarely ends at all).
// French was left out too: it ran past 2000 answers (170 rounds and
// more). Now every Dice Brewing option that stores a die, gives a new die
// or buys an ingredient says which recipes on display it helps brew, and
// every option that pays a die says which recipes it costs
// (dicebrewing/view/toward.go), and the reader takes the options whose words
// speak most of what it wants and sets aside those that say they cost it a
// die: the four languages end in 30 to 70 rounds (fr seeds 12-16: 22, 30,
// 31, 63, 63 rounds). Seed 12 in French found a missing receipt rule:
// one reader passes early while the other plays on a minute a turn, and
// its receipts reached 17%; a receipt now waits for the next mail while
// the game moves (tell/receipts.go keepHolding): 0% (seeds 1-20 in every
// language: TestReaderReceiptSeeds_Issue22).
func TestReaderBotPlaysWholeGames_Issue22(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("whole games in one goroutine: make check runs them without -race (make content)")
	}
	for _, c := range []struct {
		game, lang string
		seed       uint64
	}{
		{"brewcrafters", "en", 1}, {"brewcrafters", "it", 2}, {"brewcrafters", "fr", 3},
		{"heavenale", "en", 4}, {"heavenale", "nl", 5}, {"heavenale", "it", 6},
		{"fromage", "en", 7}, {"fromage", "fr", 8},
		{"dicebrewing", "en", 9}, {"dicebrewing", "it", 10}, {"dicebrewing", "nl", 11}, {"dicebrewing", "fr", 12},
	} {
		t.Run(c.game+"/"+c.lang, func(t *testing.T) {
			g := newReaderGame(t, c.game, c.lang, c.seed)
			g.play(2000)
			if res := g.h.table(g.id).State.Result(); res != nil {
				t.Logf("result: %v, moves %d", res.Params, g.h.table(g.id).Token())
			}
			for _, rb := range g.readers {
				total := len(rb.inbox)
				share := 100 * float64(rb.receipts) / float64(max(total, 1))
				t.Logf("%s: %d decisions (by number %d, line %d, command %d), %d HELP, %d examples copied; %d mails, %d receipts (%.0f%%)",
					rb.addr, rb.decisions, rb.forms[0], rb.forms[1], rb.forms[2], rb.helps, rb.examples, total, rb.receipts, share)
				if rb.decisions < 5 {
					t.Errorf("%s took only %d decisions", rb.addr, rb.decisions)
				}
				if share > 15 {
					t.Errorf("%s: receipts are %.0f%% of the mails (at most 15%%)", rb.addr, share)
				}
			}
			if len(g.helped) < 3 {
				t.Errorf("only %d HELP asked", len(g.helped))
			}
		})
	}
}

// Issue 22: HELP answers every word and code the menus show, in the
// reader's language too: what the reader bot found answering "no help"
// (Brew Crafters' PROCESS, MASH, YLAB, AIDE SAUTER; Dice Brewing's slots
// MH1+, dice Y6, THEN, SEED, RUIL, WITH as AIUTO CON; Fromage's NONE).
func TestHelpForMenuWords_Issue22(t *testing.T) {
	for _, c := range []struct{ game, lang, line string }{
		{"brewcrafters", "en", "HELP PROCESS"}, {"brewcrafters", "en", "HELP MASH"}, {"brewcrafters", "it", "AIUTO YLAB"},
		{"brewcrafters", "it", "AIUTO LAVORA"}, {"brewcrafters", "fr", "AIDE SAUTER"}, {"brewcrafters", "nl", "HULP INSTALL"},
		{"brewcrafters", "en", "HELP THEN"}, {"brewcrafters", "fr", "AIDE RECHERCHE"},
		{"dicebrewing", "en", "HELP MH1+"}, {"dicebrewing", "en", "HELP Y6"}, {"dicebrewing", "it", "AIUTO SS2"},
		{"dicebrewing", "en", "HELP THEN"}, {"dicebrewing", "fr", "AIDE SEED"}, {"dicebrewing", "nl", "HULP RUIL"},
		{"dicebrewing", "it", "AIUTO MIGLIORA"}, {"fromage", "en", "HELP NONE"}, {"fromage", "fr", "AIDE NONE"},
		{"dicebrewing", "en", "HELP WITH"}, {"dicebrewing", "it", "AIUTO CON"}, {"dicebrewing", "fr", "AIDE AVEC"},
		{"dicebrewing", "nl", "HULP MET"},
	} {
		h := newHarness(t)
		h.org("NEW " + c.game + " id=hw seed=words\nPLAYER ann@example.test Ann " + c.lang + "\nPLAYER bob@example.test Bob " + c.lang)
		h.send("hw", ann, "JOIN", -1)
		h.send("hw", bob, "JOIN", -1)
		h.mails()
		s, err := h.r.render.T.Render("referee", c.lang, "info.no_help", h.r.render.ctx(Reader{Game: "referee", Lang: c.lang}, map[string]any{"topic": "\x00"}))
		if err != nil {
			t.Fatal(err)
		}
		noHelp, _, _ := strings.Cut(s, "\x00")
		h.send("hw", ann, c.line, -1)
		body := h.mailTo(h.mails(), ann).Body
		if strings.Contains(body, noHelp) || !regexp.MustCompile(`\b(BC|DB|FR)-\d`).MatchString(body) {
			t.Errorf("%s %s %q: no help with a rule id:\n%s", c.game, c.lang, c.line, body)
		}
	}
}
