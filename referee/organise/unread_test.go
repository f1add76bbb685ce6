package organise

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"

	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/templates/langcheck"
)

// orgLayout is how a mail client or a person wraps an organiser's
// commands: the lines above them and below them. unread are the lines of
// the layout that are no chat and no command (an address line of a
// signature without "-- "): the answer quotes them too.
type orgLayout struct {
	name         string
	above, below []string
	unread       []string
}

// orgLayouts are greetings, sign-offs of the four languages and of German
// and Italian clients, and signatures with and without "-- ".
var orgLayouts = []orgLayout{
	{name: "bare"},
	{name: "en thanks", above: []string{"Hi all,"}, below: []string{"Thanks", "Olga"}},
	{name: "en regards sig", above: []string{"Hello,"}, below: []string{"Best regards,", "Olga Bianchi", "-- ", "Olga Bianchi",
		"Brewers' Circle | Milano", "Tel. +39 02 1234567"}},
	{name: "it", above: []string{"Ciao!"}, below: []string{"Grazie mille", "Olga"}},
	{name: "it saluti", above: []string{"Buongiorno,"}, below: []string{"Cordiali saluti,", "Olga Bianchi"}},
	{name: "fr", above: []string{"Bonjour,"}, below: []string{"Cordialement,", "Olga"}},
	{name: "nl", above: []string{"Hoi,"}, below: []string{"Met vriendelijke groet,", "Olga"}},
	{name: "de", above: []string{"Hallo zusammen,"}, below: []string{"Mit freundlichen Grüßen", "Olga"}},
	{name: "de viele", below: []string{"Viele Grüße,", "Olga", "", "Sent from Outlook"}},
	// A signature line with '|' is no alternative of commands (no part
	// can be a command: mailfmt.IsProse), under a sign-off or not.
	{name: "issue sample", below: []string{"Thanks", "Olga Bianchi", "Brewers' Circle | Milano", "Ciao!"}},
	{name: "pipe signature", below: []string{"Olga Bianchi | Brewers' Circle | Milano"}},
}

// hostileLines are lines of no keyword: each must be quoted, cleaned and
// cut to the quote's width, once.
var hostileLines = []string{
	"FROBNICATE g1",
	"g1 STATUS",
	"Olga | FROBNICATE g1", // a part that may be a command: not chat
	"zz\u202eevil\u200b line",
	"FROBNICATE  g1", // again: quoted once
	strings.Repeat("ABCDEFGHIJ", 12),
	"+39 02 1234567",
	"K2 = 7; X9",
}

// TestOrganiserAnswerNamesUnreadLines_Issue25: an organiser's mail of
// commands in each language's words, in each client layout, with 0 to 8
// hostile lines among the commands: the commands run; the answer quotes
// exactly the lines of no keyword (the hostile ones and the layout's own
// unread ones), once each, cleaned (mailmsg.QuoteLine), at most
// MaxUnread then counted, and lists the commands once; chat (greetings,
// sign-offs, signatures) is not named; the mail fits 80 columns, has no
// Go text nor template key, and no English in another language.
func TestOrganiserAnswerNamesUnreadLines_Issue25(t *testing.T) {
	w := loadWords(t)
	word := func(lang, kw string) string {
		if lang == "en" {
			return kw
		}
		ws := wordsOf(w, lang, kw)
		if len(ws) == 0 {
			return kw
		}
		sort.Strings(ws)
		return ws[0]
	}
	n := 0
	for _, lang := range w.Languages() {
		for li, lay := range orgLayouts {
			for _, k := range []int{0, 1, 3, 8} {
				n++
				h := newWordsHost(t)
				h.fakeHost.setWords = w
				g := &fakeGame{status: "running"}
				h.fakeHost.games = map[string]*fakeGame{"g1": g}
				id := fmt.Sprintf("g%d", 100+li)
				cmds := []string{word(lang, "NEW") + " toy id=" + id, word(lang, "LIST"), word(lang, "STATUS") + " g1",
					word(lang, "PAUSE") + " g1"}
				var body, wrote []string // wrote: the hostile lines, in the mail's order
				body = append(body, lay.above...)
				for i, c := range cmds {
					body = append(body, c)
					for j := i; j < k; j += len(cmds) {
						body = append(body, hostileLines[j])
						wrote = append(wrote, hostileLines[j])
					}
				}
				body = append(body, lay.below...)
				text, _ := w.keywords().ExtractCommands(strings.Join(body, "\n"), mailmsg.Address{Name: "Olga Bianchi", Addr: "olga@p.test"})
				res, rlang, err := Script(h, "olga@p.test", text)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s/%s/%d", lang, lay.name, k)
				if rlang != lang {
					t.Errorf("%s: answered in %s", name, rlang)
				}
				if !slices.Contains(h.fakeHost.created, id) || g.status != "paused" {
					t.Errorf("%s: the commands did not run (created %v, game %s)", name, h.fakeHost.created, g.status)
				}
				all, want, shown := checkQuoted(t, name, res, append(wrote, lay.unread...))
				marker, err := h.Text(lang, "org.word.new_tournament", nil)
				if err != nil {
					t.Fatal(err)
				}
				lists := strings.Count(all, marker)
				if len(want) > 0 {
					para, err := h.Text(lang, "org.unread", map[string]any{"n": len(want), "lines": shown, "more": len(want) - len(shown),
						"list": (&Call{h: h, lang: lang}).commandList()})
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(all, para) {
						t.Errorf("%s: the answer lacks the paragraph\n%s\nin\n%s", name, para, all)
					}
					if lists != 1 {
						t.Errorf("%s: the command list %d times:\n%s", name, lists, all)
					}
				} else if lists != 0 {
					t.Errorf("%s: a command list with every line read:\n%s", name, all)
				}
				_, mail, err := h.Mail(lang, res)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range strings.Split(mail, "\n") {
					if utf8.RuneCountInString(l) > 80 {
						t.Errorf("%s: a line of %d columns: %s", name, utf8.RuneCountInString(l), l)
					}
				}
				for _, bad := range []string{"org.", "map[", "<nil>", "%!", "{{", "<no value>", "FROBNICATE:", "no game \""} {
					if strings.Contains(mail, bad) {
						t.Errorf("%s: the answer has %q:\n%s", name, bad, mail)
					}
				}
				var own []string // the referee's words: the quoted lines are the organiser's
				for _, l := range strings.Split(mail, "\n") {
					if !strings.HasPrefix(l, "  > ") {
						own = append(own, l)
					}
				}
				if leaks := langcheck.Leaks(lang, strings.Join(own, "\n")); len(leaks) > 0 {
					t.Errorf("%s: English words %v:\n%s", name, leaks, mail)
				}
			}
		}
	}
	t.Logf("%d mails", n)
}

// checkQuoted fails unless an organiser's answer (res, its result lines)
// quotes exactly lines, each once, cleaned (mailmsg.QuoteLine), at most
// commands.MaxUnread; it returns the answer, the quotes of every line
// and those shown.
func checkQuoted(t *testing.T, name string, res, lines []string) (all string, want, shown []string) {
	t.Helper()
	for _, l := range lines {
		if q := mailmsg.QuoteLine(l, commands.QuoteWidth); !slices.Contains(want, q) {
			want = append(want, q)
		}
	}
	all = strings.Join(res, "\n")
	var quoted []string
	for _, l := range strings.Split(all, "\n") {
		if q, ok := strings.CutPrefix(l, "  > "); ok {
			quoted = append(quoted, q)
		}
	}
	shown = want[:min(len(want), commands.MaxUnread)]
	if !slices.Equal(quoted, shown) {
		t.Errorf("%s: quoted %q, want %q:\n%s", name, quoted, shown, all)
	}
	return all, want, shown
}

// TestCommandListOnceWithTypoAndUnread_Issue25: a mistyped keyword
// (refused with org.error.unknown, which lists the commands) and lines of
// no keyword (quoted by org.unread) in one mail, in every language and
// layout: the answer lists the commands once, and still refuses the typo
// and quotes every unread line.
func TestCommandListOnceWithTypoAndUnread_Issue25(t *testing.T) {
	w := loadWords(t)
	n := 0
	for _, lang := range w.Languages() {
		pause := "PAUSE"
		if ws := wordsOf(w, lang, "PAUSE"); lang != "en" && len(ws) > 0 {
			sort.Strings(ws)
			pause = ws[0]
		}
		typo := pause[:1] + pause[2:3] + pause[1:2] + pause[3:] // "PUASE"
		for _, lay := range orgLayouts {
			for _, k := range []int{1, 3, 8} {
				for _, typoFirst := range []bool{true, false} {
					n++
					h := newWordsHost(t)
					h.fakeHost.setWords = w
					h.fakeHost.games = map[string]*fakeGame{"g1": {status: "running"}}
					body := append([]string(nil), lay.above...)
					if typoFirst {
						body = append(body, typo+" g1")
					}
					body = append(body, hostileLines[:k]...)
					if !typoFirst {
						body = append(body, typo+" g1")
					}
					body = append(body, lay.below...)
					text, _ := w.keywords().ExtractCommands(strings.Join(body, "\n"), mailmsg.Address{Name: "Olga Bianchi", Addr: "olga@p.test"})
					res, rlang, _ := Script(h, "olga@p.test", text)
					all := strings.Join(res, "\n")
					name := fmt.Sprintf("%s/%s/%d/typo first %v", lang, lay.name, k, typoFirst)
					list := (&Call{h: h, lang: rlang}).commandList()
					if c := strings.Count(all, list); c != 1 {
						t.Errorf("%s: the command list %d times:\n%s", name, c, all)
					}
					if !strings.Contains(all, typo) {
						t.Errorf("%s: the typo %q not refused:\n%s", name, typo, all)
					}
					if !strings.Contains(all, "  > FROBNICATE g1") {
						t.Errorf("%s: the unread line not quoted:\n%s", name, all)
					}
				}
			}
		}
	}
	t.Logf("%d mails", n)
}
