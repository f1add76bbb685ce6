package mailin

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/templates"
)

// registered registers addr (name, lang) by mail and confirms it with
// LIST: the mail the player's answers reply to.
func (h *mailHarness) registered(addr, name, lang string) []byte {
	h.t.Helper()
	h.n++
	h.handle(registerMail(1000+h.n, name+" <"+addr+">", "REGISTER "+name+" "+lang, ""))
	conf := h.inbox()[addr]
	if len(conf) != 1 {
		h.t.Fatalf("%s: %d confirmation mails", addr, len(conf))
	}
	h.clock.Advance(time.Hour)
	h.handle(h.reply(conf[0], addr, "LIST"))
	got := h.inbox()[addr]
	if len(got) != 1 {
		h.t.Fatalf("%s: %d answers to LIST", addr, len(got))
	}
	return got[0]
}

// bottomReply is a reply written under the quoted original, as
// Thunderbird writes it.
func (h *mailHarness) bottomReply(orig []byte, from, text string) []byte {
	h.t.Helper()
	b, m := h.replyHead(orig, from, "tb", "")
	b.WriteString("On 23/11/2026 09:00, Referee wrote:\r\n")
	writeLines(b, "> ", m.Text)
	b.WriteString("\r\n")
	writeLines(b, "", text)
	return []byte(b.String())
}

// unreadSpeaker is a registered player of the test, in their language,
// with their greetings and their word for LIST.
type unreadSpeaker struct {
	addr, name, lang string
	hello            []string
	list             string
}

// unreadSig is how a person ends a mail; kept are its lines that are
// neither taken off by the edge nor read as chat, which the answer must
// quote.
type unreadSig struct {
	text string
	kept []string
}

var unreadSigs = []unreadSig{
	{"", nil},
	{"Thanks", nil},
	{"Ciao!", nil},
	{"Grazie mille!", nil},
	{"Merci,\nFleur", nil},
	{"Groetjes,\nNoor", nil},
	{"Mit freundlichen Grüßen\nCarla", nil},
	{"Cordiali saluti,\nCarla", nil},
	{"Sent from my iPhone", nil},
	{"Inviato da iPhone", nil},
	{"Von meinem iPhone gesendet", nil},
	{"-- \nCarla Example\nBrewers' Circle", nil},
	// Outlook: a signature without "-- ".
	{"Carla Example\nBrewers' Circle", nil},
	{"Thanks\nCarla Example\nBrewers' Circle", nil},
	{"Carla Example\nBrewers' Circle S.r.l.\nTel. +39 02 1234567", nil},
	// '|' between parts none of which can be a command is prose, not
	// the engine's alternatives (mailfmt.IsProse).
	{"Brewers' Circle | Milano", nil},
	{"Cheers,\nCarla\n\nBrewers' Circle | Milano", nil},
	// A signature under a sign-off, without "-- ": names, titles,
	// companies, street addresses that start with a keyword ("Piazza")
	// or a number ("221 Baker St"), in five languages.
	{"Best regards,\nCarla Example\nACME GmbH\nCEO\nPiazza Duomo 1, 20121 Milano", nil},
	{"Grüße,\nCarla\nHauptstr. 12\n10115 Berlin", nil},
	{"Cheers\nCarla\n221 Baker St\nLondon", nil},
	{"Bien à vous\nCarla\nBâtiment B, 3e étage", nil},
	{"Groetjes\nNoor\nKerkstraat 12\n1017 GM Amsterdam", nil},
	{"Ciao!\nCarla\nOlga Bianchi | Brewers' Circle | Milano", nil},
}

// unreadLines are lines no command reads and no reader takes for chat,
// as written and as the answer names them: a keyword nobody has, a game's
// move, hostile text (Go's marks, a bidi override, which the edge marks
// as a hidden character, a bell, a line far over 80 columns).
var unreadLines = [][2]string{
	{"FLY", "FLY"},
	{"WIBBLE cup 3", "WIBBLE cup 3"},
	{"PLACE MH1 SEED", "PLACE MH1 SEED"},
	{"map[a:1 b:2]", "map[a:1 b:2]"},
	{"FLY \u202eSSAP\u202c now", "FLY \ufffdSSAP\ufffd now"},
	{"ZAP\a  it", "ZAP it"},
	{"ROLL " + strings.Repeat("dice-and-more ", 12), "ROLL " + strings.Repeat("dice-and-more ", 5) + "dice-and-mor..."},
}

// Issue 25, a player's mail at their own address as people write it: every
// language x greeting (none, their own, German) x answer form (the
// English keyword, in lower case, their language's word, HELP, none) x
// 0-3 lines no command reads x every sign-off and signature x three
// layouts (top-posted over a quote, under the quote, mutt's). Each answer
// is one mail that names exactly the lines it did not act on, each once,
// as written (cleaned, cut to 80 columns), in the reader's language (the
// paragraph is info.unread's as the templates render it), then the help
// exactly once; no greeting, sign-off, footer or signature line the edge
// or the answer reader recognises is named; every line fits 80 columns;
// no Go text, template key or English word in it/fr/nl.
func TestPlayerAnswerNamesUnreadLines_Issue25(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("1,360 mails in one goroutine: run in the content pass (Makefile), not under -race")
	}
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newMailHarness(t)
	speakers := []unreadSpeaker{
		{"ann@example.test", "Ann", "en", []string{"Hi,", "Hello all"}, "LIST"},
		{"carla@example.test", "Carla", "it", []string{"Ciao!", "Buongiorno,"}, "ELENCO"},
		{"fleur@example.test", "Fleur", "fr", []string{"Bonjour,", "Salut !"}, "LISTE"},
		{"noor@example.test", "Noor", "nl", []string{"Hallo,", "Goedemorgen,"}, "LIJST"},
	}
	origs := make([][]byte, len(speakers))
	for i, s := range speakers {
		origs[i] = h.registered(s.addr, s.name, s.lang)
	}
	layouts := []func(orig []byte, from, text string) []byte{h.reply, h.bottomReply, h.muttReply}
	rnd := rand.New(rand.NewPCG(25, 7))
	n, nNamed := 0, 0
	for i, s := range speakers {
		help := firstLine(render(t, set, s.lang, "help.player", nil))
		for _, hello := range append([]string{"", "Hallo zusammen,"}, s.hello...) {
			for _, form := range []string{"LIST", "list", s.list, "HELP", ""} {
				for _, sig := range unreadSigs {
					var unread, named []string
					if form == "" { // a mail with no command in it
						unread, named = append(unread, "FLY"), append(named, "FLY")
					}
					// Within the player's cap of 5 questions a mail
					// (beyond it, lines are counted: info.too_many_info).
					most := 4
					if sig.kept != nil {
						most = 2 - strings.Count(sig.text, ",")
					}
					for range rnd.IntN(most) {
						l := unreadLines[rnd.IntN(len(unreadLines))]
						unread, named = append(unread, l[0]), append(named, l[1])
					}
					var body []string
					if hello != "" {
						body = append(body, hello)
					}
					if form != "" {
						body = append(body, form)
					}
					body = append(body, unread...)
					if sig.text != "" {
						body = append(body, sig.text)
					}
					text := strings.Join(body, "\n")
					layout := layouts[rnd.IntN(len(layouts))]
					h.clock.Advance(2 * time.Hour)
					h.handle(layout(origs[i], s.addr, text))
					got := h.inbox()[s.addr]
					what := fmt.Sprintf("%s %q", s.lang, text)
					if len(got) != 1 {
						t.Errorf("%s: %d answers, want 1", what, len(got))
						continue
					}
					n++
					m, err := mailmsg.Parse(got[0], mailmsg.Options{})
					if err != nil {
						t.Fatal(err)
					}
					// What the answer must name: each line as written,
					// cleaned and cut, once, in order.
					var want []string
					for _, l := range append(named, sig.kept...) {
						if q := mailmsg.QuoteLine(l, 76); !slices.Contains(want, q) {
							want = append(want, q)
						}
					}
					nNamed += len(want)
					checkUnreadAnswer(t, set, what, s.lang, m.Text, help, want, form == "HELP")
					// The person's own lines are theirs (the longest taken
					// out first: "FLY" is in "FLY ... now").
					values := append(append([]string{s.name, s.addr, form}, unread...), want...)
					slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
					testkit.CheckWords(t, s.lang, what, m.Subject+"\n"+strings.Replace(m.Text, mailmsg.DefaultReplyLine, "", 1), values...)
				}
			}
		}
	}
	if n < 4*4*5*len(unreadSigs) || nNamed < n/2 {
		t.Fatalf("%d answers naming %d lines: the generator lost its cases", n, nNamed)
	}
	t.Logf("%d answers, %d lines named", n, nNamed)
}

// checkUnreadAnswer checks an answer's text: the lines it names (those
// under info.unread, "  > "), the paragraph as the templates write it, the
// help once, 80 columns, no template key.
func checkUnreadAnswer(t *testing.T, set *templates.Set, what, lang, text, help string, want []string, asked bool) {
	t.Helper()
	var quoted []string
	for _, l := range strings.Split(text, "\n") {
		if q, ok := strings.CutPrefix(l, "  > "); ok {
			quoted = append(quoted, q)
		}
		if w := utf8.RuneCountInString(l); w > 80 {
			t.Errorf("%s: a line of %d columns: %s", what, w, l)
		}
	}
	shown := want[:min(len(want), commands.MaxUnread)]
	if strings.Join(quoted, "\n") != strings.Join(shown, "\n") {
		t.Errorf("%s: names %q, want %q:\n%s", what, quoted, shown, text)
	}
	if len(want) > 0 {
		para := render(t, set, lang, "info.unread", map[string]any{"n": len(want), "lines": shown, "more": len(want) - len(shown)})
		if !strings.Contains(text, para) {
			t.Errorf("%s: no paragraph\n%s\nin\n%s", what, para, text)
		}
	}
	// The help once when a line was not acted on or HELP asked for it;
	// else never (the commands answered).
	if c, w := strings.Count(text, help), len(want) > 0 || asked; c > 1 || (c == 1) != w {
		t.Errorf("%s: the help %d times (want it: %v):\n%s", what, c, w, text)
	}
	for _, key := range []string{"info.unread", "help.player", "internal.error", "(help", "info."} {
		if strings.Contains(text, key) {
			t.Errorf("%s: a template key %q:\n%s", what, key, text)
		}
	}
}

func render(t *testing.T, set *templates.Set, lang, name string, data map[string]any) string {
	t.Helper()
	s, err := set.Render("referee", lang, name, templates.Ctx{Lang: lang, Seat: -1, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// Issue 25, beyond the cap of lines quoted: with a player's cap of
// questions raised, a mail of 2-9 lines no command reads names the first
// commands.MaxUnread and says how many more, in every language.
func TestPlayerAnswerCountsUnreadBeyondFive_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newMailHarness(t, func(o *referee.Options) { o.MaxInfo = 20 })
	for i, lang := range templates.Languages {
		addr := fmt.Sprintf("p%d@example.test", i)
		orig := h.registered(addr, "Pat", lang)
		help := firstLine(render(t, set, lang, "help.player", nil))
		for k := 2; k <= 9; k++ {
			var lines []string
			for j := range k {
				lines = append(lines, fmt.Sprintf("WIBBLE %d", j))
			}
			lines = append(lines, "WIBBLE 0") // twice in the mail: named once
			text := "Hi,\nLIST\n" + strings.Join(lines, "\n") + "\nThanks"
			h.clock.Advance(2 * time.Hour)
			h.handle(h.reply(orig, addr, text))
			got := h.inbox()[addr]
			if len(got) != 1 {
				t.Fatalf("%s %d: %d answers", lang, k, len(got))
			}
			m, err := mailmsg.Parse(got[0], mailmsg.Options{})
			if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s, %d lines", lang, k)
			checkUnreadAnswer(t, set, what, lang, m.Text, help, lines[:k], false)
			testkit.CheckWords(t, lang, what, strings.Replace(m.Text, mailmsg.DefaultReplyLine, "", 1), append(lines, "Pat", addr)...)
		}
	}
}

// TestPlayerCapCountsNoChat_Issue25: a player's mail of seven lines of no
// command and an Outlook signature (sign-off, name, "Sent from Outlook",
// each language's thanks) is counted beyond the cap of five by its lines
// that are not chat: two, whatever the signature's length, in every
// language.
func TestPlayerCapCountsNoChat_Issue25(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newMailHarness(t, func(o *referee.Options) { o.MaxInfo = 5 })
	sigs := [][]string{
		{"Thanks", "Pat"},
		{"Best regards,", "Pat", "", "Sent from Outlook for iOS"},
		{"Grazie mille!", "Pat", "", "Get Outlook for Android"},
		{"Merci beaucoup,", "Pat", "Cordialement"},
		{"Met vriendelijke groet,", "Pat", "Bedankt!"},
		{"Mit freundlichen Grüßen", "Pat", "Viele Grüße"},
	}
	for i, lang := range templates.Languages {
		addr := fmt.Sprintf("c%d@example.test", i)
		orig := h.registered(addr, "Pat", lang)
		for _, sig := range sigs {
			var lines []string
			for j := range 7 {
				lines = append(lines, fmt.Sprintf("WIBBLE %d", j))
			}
			text := "Hi,\n" + strings.Join(lines, "\n") + "\n" + strings.Join(sig, "\n")
			h.clock.Advance(2 * time.Hour)
			h.handle(h.reply(orig, addr, text))
			got := h.inbox()[addr]
			if len(got) != 1 {
				t.Fatalf("%s %q: %d answers", lang, sig, len(got))
			}
			m, err := mailmsg.Parse(got[0], mailmsg.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := render(t, set, lang, "info.too_many_info", map[string]any{"n": 2, "max": 5})
			if body := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(body, strings.Join(strings.Fields(want), " ")) {
				t.Errorf("%s %q: the answer lacks %q:\n%s", lang, sig, want, m.Text)
			}
		}
	}
}

// TestPlayerCommentLinesQuoted_Issue25: a whole line of comment in a
// player's mail at their own address ("# my note": the engine reads
// nothing in it) is quoted among the lines not acted on, once, in the
// mail's order, never silently dropped: 4 comment forms x 3 places x 4
// languages; a comment after a command is not (the command is read).
func TestPlayerCommentLinesQuoted_Issue25(t *testing.T) {
	h := newMailHarness(t, func(o *referee.Options) { o.MaxInfo = 20 })
	forms := []string{"# my note", "#note to self", "  #   spaced   note", "# ¿qué? 👍"}
	for i, lang := range templates.Languages {
		addr := fmt.Sprintf("n%d@example.test", i)
		orig := h.registered(addr, "Pat", lang)
		for _, form := range forms {
			for place := range 3 {
				lines := []string{"LIST # the games", "WIBBLE 1"}
				lines = slices.Insert(lines, place, form)
				h.clock.Advance(2 * time.Hour)
				h.handle(h.reply(orig, addr, "Hi,\n"+strings.Join(lines, "\n")+"\nThanks"))
				got := h.inbox()[addr]
				if len(got) != 1 {
					t.Fatalf("%s %q %d: %d answers", lang, form, place, len(got))
				}
				m, err := mailmsg.Parse(got[0], mailmsg.Options{})
				if err != nil {
					t.Fatal(err)
				}
				var quoted []string
				for _, l := range strings.Split(m.Text, "\n") {
					if q, ok := strings.CutPrefix(l, "  > "); ok {
						quoted = append(quoted, q)
					}
				}
				want := []string{mailmsg.QuoteLine(form, 76), "WIBBLE 1"}
				if place == 2 {
					want = []string{"WIBBLE 1", mailmsg.QuoteLine(form, 76)}
				}
				if !slices.Equal(quoted, want) {
					t.Errorf("%s %q at %d: quoted %q, want %q:\n%s", lang, form, place, quoted, want, m.Text)
				}
			}
		}
	}
}
