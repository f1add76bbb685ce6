package mailfmt

import (
	"fmt"
	"html"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/templates"
)

// The reply line of every language (templates/referee/<lang>/replyline.tmpl):
// the reader knows its frame "##- ... -##", not its words, so a reply to a
// mail of any language, or to an old mail with the English line, is read
// the same (doc.go, "The referee's mails start with ...").

// replyLines are the lines a reply may quote: every language's, and the
// English line of the mails written before the line was translated.
func replyLines(t testing.TB) map[string]string {
	t.Helper()
	s, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"old": mailmsg.DefaultReplyLine}
	for _, lang := range s.Languages() {
		l := s.ReplyLine(lang)
		if l == "" {
			t.Fatalf("no reply line for %s", lang)
		}
		out[lang] = l
	}
	return out
}

// TestReplyLineOfEveryLanguageFitsTheReader checks each language's line
// against the reader's rule and the ways a client passes it on: Compose
// takes it, it is a guard line under every quote prefix, no client wraps
// it (72 columns with a three-level quote) and quoted-printable needs no
// soft break for it.
func TestReplyLineOfEveryLanguageFitsTheReader(t *testing.T) {
	for lang, line := range replyLines(t) {
		if !mailmsg.IsReplyLine(line) {
			t.Errorf("%s: %q is not of the form ##- ... -##", lang, line)
		}
		if _, err := mailmsg.Compose(mailmsg.Out{From: mailmsg.Address{Addr: "referee@example.test"}, To: genSender, MessageID: "<a@example.test>",
			Date: time.Date(2026, 5, 12, 10, 14, 0, 0, time.UTC), Text: "x", ReplyLine: line}); err != nil {
			t.Errorf("%s: Compose refuses %q: %v", lang, line, err)
		}
		for _, p := range []string{"", "> ", ">> ", "> > ", "> > > ", "| ", "  > ", ">"} {
			q := p + line
			if !isGuardLine(q) {
				t.Errorf("%s: %q is not read as the referee's line", lang, q)
			}
			if n := len([]rune(q)); n > 72 {
				t.Errorf("%s: %q is %d columns: a client wraps it at 72", lang, q, n)
			}
			var b strings.Builder
			w := quotedprintable.NewWriter(&b)
			_, _ = w.Write([]byte(q))
			_ = w.Close()
			if strings.Contains(b.String(), "=\r\n") {
				t.Errorf("%s: %q needs a soft break in quoted-printable: %q", lang, q, b.String())
			}
		}
	}
}

// replyLineLayouts are the client layouts of the generated suite (lang's
// words) with the referee's mail starting with line, plus the layouts
// where the line is the only mark of the quote (an unknown client), quoted
// with every prefix.
func replyLineLayouts(lang, line string) []genLayout {
	prompt := append([]string{line}, genPromptNoGuard...)
	var ls []genLayout
	for _, l := range genLayouts(lang) {
		if !strings.Contains(l.name, "guard") && !strings.HasSuffix(l.name, "outlook-original") {
			continue
		}
		q := make([]string, len(l.quote))
		for i, s := range l.quote {
			q[i] = strings.Replace(s, genPrompt[0], line, 1)
		}
		ls = append(ls, genLayout{name: l.name, quote: q, quoted: l.quoted})
	}
	add := func(name string, quoted bool, lines ...[]string) {
		ls = append(ls, genLayout{name: lang + "/" + name, quote: cat(lines...), quoted: quoted})
	}
	w := genWordsOf[lang]
	add("apple-guard", true, w.apple, []string{""}, genQuote(prompt, "> "))
	add("thunderbird-guard", true, w.tbird, genQuote(prompt, "> "))
	add("deep-guard", true, w.gmail, genQuote(genQuote(prompt, "> "), ">"))
	add("spaced-deep-guard", true, w.gmail, genQuote(genQuote(prompt, "> "), "> "))
	add("underscores-guard", false, []string{"________________________________"}, headerBlock(w, "", "Tuesday, May 12, 2026 10:14 AM"), []string{""}, prompt)
	// No attribution, no header: the line alone ends the player's text.
	add("bare-guard", false, prompt)
	add("bare-quoted-guard", false, genQuote(prompt, "> "))
	add("bare-pipe-guard", false, genQuote(prompt, "| "))
	add("bare-indented-guard", false, genQuote(prompt, "    "))
	return ls
}

// replyLineCases crosses every language's line (and the old English one)
// with the layouts of every player language, every answer form, the
// signatures and the lines above: the reply's language and the quoted
// mail's differ in most cases.
func replyLineCases(t testing.TB, visit func(genCase)) {
	lines := replyLines(t)
	for _, lineLang := range []string{"old", "en", "it", "fr", "nl"} {
		line := lines[lineLang]
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			sigs, above := genSignatures(lang), genAbove(lang)
			for li, l := range replyLineLayouts(lang, line) {
				for ai, a := range genAnswers {
					si := (ai + li) % len(sigs)
					sig := sigs[si]
					ab := above[(ai+2*li)%len(above)]
					name := fmt.Sprintf("line-%s/%s", lineLang, l.name)
					visit(genCase{name: fmt.Sprintf("%s/top/a%d/s%d", name, ai, si),
						body: strings.Join(cat(ab, a, []string{""}, sig, []string{""}, l.quote), "\n"),
						want: genWant(cat(genKept(ab), a))})
					if !l.quoted {
						continue
					}
					visit(genCase{name: fmt.Sprintf("%s/bottom/a%d/s%d", name, ai, si),
						body: strings.Join(cat(l.quote, []string{""}, a, []string{""}, sig), "\n"),
						want: genWant(a)})
				}
			}
		}
	}
}

// TestReplyLineGeneratedReplies: whatever the language of the line and of
// the reply, the commands read are exactly the player's and nothing of the
// referee's quoted mail is read.
func TestReplyLineGeneratedReplies(t *testing.T) {
	n, failed := 0, 0
	replyLineCases(t, func(c genCase) {
		n++
		if got, _ := corpusKeywords.ExtractCommands(c.body, genSender); got != c.want {
			if failed++; failed <= 20 {
				t.Errorf("%s:\n%s\n--- got\n%s\n--- want\n%s", c.name, c.body, got, c.want)
			}
		}
	})
	if n < 5000 {
		t.Errorf("only %d cases", n)
	}
	t.Logf("%d replies, %d failed", n, failed)
}

// TestReplyLineParsedInEveryEncoding sends every bare-guard case (the line
// the only mark of the quote) through Parse as a whole message: UTF-8
// quoted-printable with a soft break inside the line's words (after
// "r" of "réponse": "r=\r\n=C3=A9ponse"), ISO-8859-1 (a client that
// re-encodes the quote), and HTML only (the line in a blockquote, or
// unquoted with its accents as entities).
func TestReplyLineParsedInEveryEncoding(t *testing.T) {
	n, failed, softBreaks := 0, 0, 0
	replyLineCases(t, func(c genCase) {
		if !strings.Contains(c.name, "/bare-") || strings.Contains(c.name, "indented") {
			return
		}
		for _, enc := range []string{"qp-soft", "latin1", "html", "html-entities"} {
			body, ctype, cte, want := c.body, "text/plain; charset=utf-8", "quoted-printable", c.want
			switch enc {
			case "qp-soft":
				var b strings.Builder
				w := quotedprintable.NewWriter(&b)
				_, _ = w.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n")))
				_ = w.Close()
				body = b.String()
				// A soft break inside the words of the line: inside
				// "réponse" for French, never inside an escape.
				for _, l := range strings.Split(body, "\r\n") {
					if i := strings.Index(l, "##- "); i >= 0 && len(l) > i+8 {
						cut := i + 6
						if j := strings.Index(l, "=C3=A9ponse"); j >= 0 {
							cut = j
						} else if strings.Contains(l[i:cut], "=") {
							cut = i + 4
						}
						body = strings.Replace(body, l, l[:cut]+"=\r\n"+l[cut:], 1)
						softBreaks++
						break
					}
				}
			case "latin1":
				enc, err := charmap.ISO8859_1.NewEncoder().String(body)
				if err != nil {
					continue // a line with a letter Latin-1 lacks (emoji answers)
				}
				body, ctype, cte = enc, "text/plain; charset=iso-8859-1", "8bit"
			case "html", "html-entities":
				body, ctype, cte = genHTML(body), "text/html; charset=utf-8", "8bit"
				if enc == "html-entities" {
					body = strings.NewReplacer("é", "&eacute;", "É", "&Eacute;").Replace(body)
				}
				fields := strings.Split(want, "\n")
				for k, f := range fields {
					fields[k] = strings.Join(strings.Fields(f), " ")
				}
				want = strings.Join(fields, "\n")
			}
			want = strings.NewReplacer("“", `"`, "”", `"`).Replace(want)
			n++
			raw := "From: Anna Rossi <anna.rossi@example.org>\r\nTo: referee+g42.1.k7x9q2abcd3e.57@example.test\r\n" +
				"Subject: Re: Dice Brewing\r\nDate: Tue, 12 May 2026 11:49:07 +0200\r\nMessage-ID: <rl" + fmt.Sprint(n) + "@example.org>\r\n" +
				"MIME-Version: 1.0\r\nContent-Type: " + ctype + "\r\nContent-Transfer-Encoding: " + cte + "\r\n\r\n" + body
			m, err := mailmsg.Parse([]byte(raw), corpusOptions)
			if err != nil {
				t.Fatalf("%s (%s): %v", c.name, enc, err)
			}
			if got, _ := corpusKeywords.MailCommands(m); got != want {
				if failed++; failed <= 20 {
					t.Errorf("%s (%s):\n%s\n--- got\n%s\n--- want\n%s", c.name, enc, m.Text, got, want)
				}
			}
		}
	})
	if n < 1000 || softBreaks < n/8 {
		t.Errorf("only %d parsed replies, %d with a soft break in the line", n, softBreaks)
	}
	t.Logf("%d parsed replies (%d with a soft break in the line), %d failed", n, softBreaks, failed)
}

// replyLineSeeds are seeds for the fuzzers: one reply in every, with each
// language's line.
func replyLineSeeds(t testing.TB, every int) []string {
	var out []string
	i := 0
	replyLineCases(t, func(c genCase) {
		if i++; i%every == 0 {
			out = append(out, c.body)
		}
	})
	return out
}

// replyLineHTMLSeeds are the seeds of FuzzHTMLToText: an HTML-only reply
// quoting each language's line.
func replyLineHTMLSeeds(t testing.TB) []string {
	var out []string
	for _, l := range replyLines(t) {
		out = append(out, genHTML("2\n\n> "+l+"\n> 1) PLACE MH1 SEED"), "<p>2</p><hr><p>"+html.EscapeString(l)+"</p>")
	}
	return out
}
