package mailfmt

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// corpusSeeds returns the raw sample messages, for seeding the fuzzers.
func corpusSeeds(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, name := range corpusFiles(f) {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// corpusMessages parses the samples (skipping those Parse rejects).
func corpusMessages(f *testing.F) []*mailmsg.Message {
	f.Helper()
	var out []*mailmsg.Message
	for _, raw := range corpusSeeds(f) {
		if m, err := mailmsg.Parse(raw, corpusOptions); err == nil {
			out = append(out, m)
		}
	}
	return out
}

func checkCommands(t *testing.T, body, got string, info CommandInfo) {
	t.Helper()
	if len(got) > len(body) {
		t.Fatalf("commands longer than the body: %d > %d", len(got), len(body))
	}
	inputLines := map[string]bool{}
	for _, l := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		inputLines[strings.TrimRightFunc(l, unicode.IsSpace)] = true
	}
	n := 0
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), ">") {
			t.Fatalf("quoted line in commands: %q", l)
		}
		if mailmsg.IsReplyLine(strings.TrimSpace(l)) {
			t.Fatalf("the referee's reply line in commands: %q", l)
		}
		if l != "" {
			n++
			if !inputLines[l] {
				t.Fatalf("commands line %q is not a line of the body", l)
			}
		}
	}
	if n != info.Lines {
		t.Fatalf("info.Lines = %d, counted %d", info.Lines, n)
	}
	if strings.HasPrefix(got, "\n") || strings.HasSuffix(got, "\n") || strings.Contains(got, "\n\n\n") {
		t.Fatalf("untidy commands: %q", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, raw := range corpusSeeds(f) {
		f.Add(raw)
	}
	f.Add([]byte("Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: multipart/alternative; boundary=y\r\n\r\n--y\r\n"))
	f.Add([]byte("Content-Type: text/html\r\n\r\n<blockquote><blockquote>x"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := mailmsg.Parse(raw, mailmsg.Options{MaxBytes: 256 << 10})
		if err != nil {
			if m != nil && m.Text != "" {
				t.Fatal("a failed parse returned a body")
			}
			return
		}
		if !utf8.ValidString(m.Text) || !utf8.ValidString(m.Subject) || !utf8.ValidString(m.From.Name) {
			t.Fatal("invalid UTF-8 in the parsed message")
		}
		if len(m.Text) > 16*len(raw)+64 {
			t.Fatalf("text grew too much: %d bytes from %d", len(m.Text), len(raw))
		}
		if !strings.HasPrefix(m.MessageID, "<") || !strings.HasSuffix(m.MessageID, ">") {
			t.Fatalf("message id %q", m.MessageID)
		}
		if strings.ContainsAny(m.Text, "\r") {
			t.Fatal("carriage return left in the text")
		}
		text, info := Commands(m)
		checkCommands(t, m.Text, text, info)
		c := Classify(m, []string{"referee@example.test"})
		if c.Class > Self {
			t.Fatalf("class %d", c.Class)
		}
		if !c.Return.IsZero() {
			if _, _, ok := mkDate(c.Return.Year, int(c.Return.Month), c.Return.Day); !ok {
				t.Fatalf("invalid return date %v", c.Return)
			}
		}
		tr := mailmsg.FindTag(m, mailmsg.Address{Addr: "referee@example.test"})
		if tr.Tag.Kind != mailmsg.TagNone && tr.Tag.Validate() != nil {
			t.Fatalf("FindTag returned an invalid tag %+v: %v", tr.Tag, tr.Tag.Validate())
		}
		if tr.SecretFrom == mailmsg.SourceInReplyTo || tr.SecretFrom == mailmsg.SourceReferences {
			t.Fatal("a secret from a Message-ID")
		}
		if _, err := mailmsg.AuthResults(m, "mx.example.test"); err != nil && m.AuthenticationResults == nil {
			t.Fatal("error without any Authentication-Results field")
		}
	})
}

func FuzzCommands(f *testing.F) {
	for _, m := range corpusMessages(f) {
		f.Add(m.Text, m.From.Name, m.From.Addr)
	}
	f.Add("#begin\n> PASS\n#end", "Anna", "anna@x")
	for _, b := range genSeeds(97) { // the generated layouts of issue 20
		f.Add(b, "Anna Rossi", "anna.rossi@example.org")
	}
	for _, b := range replyLineSeeds(f, 211) { // every language's reply line
		f.Add(b, "Anna Rossi", "anna.rossi@example.org")
	}
	f.Add("On a\nb\nc wrote:\nPASS", "", "")
	// Signatures by their place (session 13): no sign-off above them.
	f.Add("2\n\nACME GmbH\nCEO\nPiazza Duomo 1", "Anna Keller", "anna@x")
	f.Add("PLACE HP1 SEED thanks\n\nAnna Keller | ACME Ltd | London", "", "")
	f.Add("PASS\n\nAnna Keller\nPiazza del Duomo, 1\nBâtiment B", "Anna Keller", "anna@x")
	f.Add("2\nACME B.V.\nPASS", "", "")
	f.Add("l’undicesima\n\nAlice de Vries\nKerkstraat 12\n1017 GC Amsterdam", "Alice", "alice@x")
	f.Add("option twenty-one\nAnna\n20121 Milano", "Anna Keller", "anna@x")
	f.Fuzz(func(t *testing.T, body, name, addr string) {
		got, info := ExtractCommands(body, mailmsg.Address{Name: name, Addr: addr})
		checkCommands(t, body, got, info)
		again, _ := ExtractCommands(body, mailmsg.Address{Name: name, Addr: addr})
		if again != got {
			t.Fatal("not deterministic")
		}
		// With the caller's keywords (the signed and placed tails read):
		// the same rules, and a keyword set reads as its function.
		got, info = fuzzKeywords.ExtractCommands(body, mailmsg.Address{Name: name, Addr: addr})
		checkCommands(t, body, got, info)
		// A line that starts with a keyword in capitals, the last of the
		// player's own lines, is never hidden as a signature.
		if lines := strings.Split(strings.TrimRight(body, "\n "), "\n"); len(lines) > 1 && !strings.ContainsAny(body, ">#|:-_=*~") {
			last := strings.TrimSpace(lines[len(lines)-1])
			if w, _, _ := strings.Cut(last, " "); fuzzKeyword(w) && !strings.Contains(got, last) && len(body) < 400 {
				t.Fatalf("the last line %q, a command, is not read: %q", last, got)
			}
		}
	})
}

func FuzzReturnDate(f *testing.F) {
	f.Add("I am away until 20 May 2026", int64(1778500000))
	f.Add("fino al 5 gennaio", int64(1798000000))
	f.Add("vom 10. bis 20. Dezember", int64(0))
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		var ref time.Time
		if unix > 0 && unix < 1<<35 {
			ref = time.Unix(unix, 0).UTC()
		}
		d, phrase := ReturnDate(text, ref)
		if !d.IsZero() {
			if _, _, ok := mkDate(d.Year, int(d.Month), d.Day); !ok {
				t.Fatalf("invalid date %v from %q", d, text)
			}
			if phrase == "" {
				t.Fatal("a date without its phrase")
			}
		}
	})
}

// fuzzReader is an answer reader of fuzzKeyword's keywords, with chat
// words of greetings and thanks.
var fuzzReader = sync.OnceValue(func() *AnswerReader {
	v := AnswerVocab{Keywords: map[string]string{}, Chat: []string{"hi", "ok", "thanks", "please", "ciao", "merci", "bedankt"}}
	for _, kw := range []string{"PASS", "PLACE", "JOIN", "LINGUA", "SAY", "STORE", "TAAL", "NEXT", "OR", "END"} {
		v.Keywords[kw] = kw
	}
	return NewAnswerReader(v)
})

// fuzzKeyword is the keyword set of the detection fuzzers.
func fuzzKeyword(w string) bool { return fuzzKeywords.Is(w) }

// fuzzKeywords are the fuzzers' keywords as a caller holds them.
var fuzzKeywords = NewKeywords([]string{"PASS", "PLACE", "JOIN", "LINGUA", "SAY", "STORE", "TAAL", "NEXT", "OR", "END"}, nil)

// FuzzQuoteDetection checks the quote, attribution, greeting and sign-off
// detection of issue 10: whatever the text above a quote, a line that
// starts with a keyword, right above any of the attribution layouts, is
// returned; the output is made of lines of the body, never quoted ones.
func FuzzQuoteDetection(f *testing.F) {
	for _, m := range corpusMessages(f) {
		f.Add(m.Text, "PASS")
	}
	for _, s := range []string{
		"On Tue, May 12, 2026 at 10:14 AM Referee <\nreferee@example.test> wrote:\n> 1 PASS",
		"Am Di., 12. Mai 2026 um 10:14 Uhr schrieb Referee <referee@example.test\n>:\n> x",
		"---- On Tue, 12 May 2026 10:14:00 +0200 Referee <r@e.test> wrote ----\nold",
		"De : R\nEnvoyé le : mardi 12 mai 2026\nÀ : C\nObjet :x\n\nold",
		"Referee <r@e.test> writes:\n| a\n| b\n\nPASS\n| c",
		"Ciao!\nPASS\nGrazie\n--Randall",
	} {
		f.Add(s, "JOIN")
	}
	for _, b := range genSeeds(89) { // the generated layouts of issue 20
		f.Add(b, "2")
	}
	for _, b := range replyLineSeeds(f, 223) { // every language's reply line
		f.Add(b, "2")
	}
	f.Fuzz(func(t *testing.T, body, cmd string) {
		got, info := fuzzKeywords.ExtractCommands(body, mailmsg.Address{})
		checkCommands(t, body, got, info)
		if again, _ := fuzzKeywords.ExtractCommands(body, mailmsg.Address{}); again != got {
			t.Fatal("not deterministic")
		}
		for _, l := range append(info.Greeting, info.SignOff...) {
			if looksLikeCommand(l, fuzzKeyword) {
				t.Fatalf("a command-like line was dropped as greeting or sign-off: %q", l)
			}
		}
		// The same body with a command line typed right above it: the
		// command is never merged into an attribution or a header.
		cmd = strings.TrimSpace(strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == '>' || r == '|' || r == ':' || r == '#' {
				return -1
			}
			return r
		}, cmd))
		if cmd == "" || len(cmd) > 40 || !utf8.ValidString(cmd) || isGuardLine(cmd) {
			return
		}
		line := "PASS " + cmd
		got2, info2 := fuzzKeywords.ExtractCommands(line+"\n"+body, mailmsg.Address{})
		if !info2.Markers && !strings.HasPrefix(got2, strings.TrimRightFunc(line, unicode.IsSpace)) {
			// A line starting with a keyword is never a separator, a
			// header, an attribution, a greeting or a sign-off (#begin
			// markers below it leave it out on purpose).
			t.Fatalf("command line lost above the body:\n%q\ngot %q", line+"\n"+body, got2)
		}
	})
}

// FuzzIsProse checks the prose rule: a line that starts with a keyword or
// one edit from one, or with a word holding a digit or a mark (but a
// street address's house number), or holds '|',
// ';' or '#', an option word and number, a keyword in capitals after its
// first word, or a keyword in any case and a digit, is never prose; and
// SplitProse keeps the line count.
func FuzzIsProse(f *testing.F) {
	for _, s := range []string{"Ciao!", "PASS", "pass 2", "Grazie mille", "here is my move", "Sì, grazie", "lingua it", "a | b", "ÉTÉ", "ok",
		"Brauerei Straße 5, Zürich", "Hauptstr. 12", "Via Roma 3, 20121 Milano", "Tel. +49 30 123456", "Mob: 06-12345678",
		"ACME GmbH", "CEO", "Sent from my iPhone 15", "Envoyé de mon Galaxy S24", "PS: 2 more days", "I PLACE HP1",
		"Hi, place it at MH3", "Plcae HP1 seed", "PLACE MH3 K5", "I choose option 2", "see www.acme.example/x?a=1",
		"Brewers' Circle | Milano", "Olga; Milano", "Ok: 2", "Hi! 2 please", "Via Roma, 12", "I choose: 2", "Dear referee, 2", "Tel: 12",
		"Bâtiment B", "Scala B", "Piazza del Duomo, 1", "PLACE HP1 SEED thanks", "BUY HO2 S1 grazie mille",
		"A 00\xc5!opCion 1", "A x!option 1",
		// Session 14: streets, number words, dotted option words, emoji.
		"221 Baker St", "12 rue de la Paix", "Piazza Duomo 1", "the second one", "la seconda, grazie", "option two",
		"the first time I played", "No. 2", "n. 2", "Nr. 2 bitte", "👍option 2", "Hi! 👍opzione 2", "Brew Co Ltd",
		// Session 15: number words past ten, elided articles, postal lines.
		"option twenty-one", "the twenty first one", "la vingt et unième", "l’ottava", "l'option deux", "Ok: l'undicesima",
		"de tweeëntwintigste", "die einundzwanzigsten, danke", "quatre-vingt-dix-neuf", "1017 GC Amsterdam", "D-10115 Berlin",
		"1017 PASS", "20121 MILANO"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, l := range strings.Split(text, "\n") {
			if al := fuzzReader().Line(l); al.Kind == AnswerOption && fuzzReader().isProse(l) {
				t.Fatalf("the reader reads option %d in a line its prose rule calls prose: %q", al.Option, l)
			}
		}
		out, prose := fuzzKeywords.SplitProse(text)
		if strings.Count(out, "\n") != strings.Count(text, "\n") {
			t.Fatal("line count changed")
		}
		for _, l := range prose {
			fields := strings.Fields(l)
			if len(fields) == 0 {
				t.Fatalf("blank prose line %q", l)
			}
			first := strings.ToUpper(strings.TrimRight(fields[0], ":,.!?"))
			if fuzzKeyword(first) {
				t.Fatalf("keyword line taken for prose: %q", l)
			}
			digit := strings.ContainsAny(l, "0123456789")
			if nearKeyword(first, fuzzKeyword) && (digit || strings.ToUpper(l) == l && strings.ToLower(l) != l) {
				// A typo of a keyword is prose only as before this rule:
				// in a line with no digit and no word in capitals.
				t.Fatalf("typo line taken for prose: %q", l)
			}
			// A house number before a street word is prose (session 14).
			if strings.ContainsRune(l, '#') || strings.ContainsAny(fields[0], "0123456789") && !webAddress(fields[0]) && !streetAddress(l, fuzzKeyword) {
				t.Fatalf("command-looking line taken for prose: %q", l)
			}
			if strings.ContainsAny(l, "|;") {
				// Alternatives and separators: prose only when no part
				// can be a command.
				for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '|' || r == ';' }) {
					if strings.TrimSpace(part) != "" && !fuzzKeywords.IsProse(part) {
						t.Fatalf("a part that may be a command in prose: %q in %q", part, l)
					}
				}
				continue
			}
			if r := fuzzReader(); r.Line(l).Kind == AnswerOption {
				// One rule for both readers: no option number is read
				// in prose ("Hauptstr. 12", "PS: 2 more days").
				t.Fatalf("option read in prose: %q: %+v", l, r.Line(l))
			}
			for _, w := range fields[1:] {
				w = strings.Trim(w, ":,.!?()\"'“”«»")
				if fuzzKeyword(strings.ToUpper(w)) && (digit || w == strings.ToUpper(w)) {
					t.Fatalf("keyword after the first word in prose: %q", l)
				}
			}
			for i := range fields {
				if optionFormRe.MatchString(strings.Join(fields[i:], " ")) {
					t.Fatalf("option form in prose: %q", l)
				}
			}
			if !digit && !strings.ContainsFunc(l, unicode.IsUpper) || webAddress(fields[0]) || strings.HasSuffix(fields[0], ":") {
				continue
			}
			for _, w := range fields[:1] {
				up, letters := true, 0
				for _, r := range w {
					if unicode.IsLetter(r) {
						letters++
						up = up && unicode.IsUpper(r)
					}
				}
				if letters >= 2 && up {
					t.Fatalf("upper-case word in prose: %q", l)
				}
			}
		}
	})
}

func FuzzTag(f *testing.F) {
	for _, s := range []string{"g42.1.k7x9q2abcd3e.57", "p.abcdefghijkl", "org.abcdefghijklmnop", "bounce.a17", "G42.01.ABCDEFGHIJKL.0057", "g42", "x.y.z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := mailmsg.ParseTag(s)
		if err != nil {
			return
		}
		if tag.Validate() != nil {
			t.Fatalf("ParseTag(%q) gave an invalid tag %+v", s, tag)
		}
		c := tag.String()
		if c == "" || c != strings.ToLower(c) {
			t.Fatalf("canonical form %q", c)
		}
		back, err := mailmsg.ParseTag(c)
		if err != nil || back != tag {
			t.Fatalf("round trip %q -> %+v -> %q -> %+v, %v", s, tag, c, back, err)
		}
		if tag.Kind != mailmsg.TagBounce {
			st := mailmsg.SubjectTag(tag, true)
			got, ok := mailmsg.ParseSubjectTag("Re: " + st + " x")
			if !ok || got != tag {
				t.Fatalf("subject round trip %q: %+v, %v", st, got, ok)
			}
		}
		addr, err := mailmsg.PlusAddress("referee@example.test", tag)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := mailmsg.TagFromAddress(addr, "referee@example.test"); !ok || got != tag {
			t.Fatalf("address round trip %q: %+v", addr, got)
		}
	})
}

func FuzzSubjectTag(f *testing.F) {
	for _, m := range corpusMessages(f) {
		f.Add(m.Subject)
	}
	f.Add("Re: [ g42.1.abcdefghijkl  #  57 ] x [g43 #1]")
	f.Fuzz(func(t *testing.T, subject string) {
		tag, ok := mailmsg.ParseSubjectTag(subject)
		if ok && tag.Validate() != nil {
			t.Fatalf("invalid tag %+v from %q", tag, subject)
		}
		clean := mailmsg.CleanSubject(subject)
		if len(clean) > len(subject) {
			t.Fatalf("CleanSubject grew %q -> %q", subject, clean)
		}
	})
}

func FuzzHTMLToText(f *testing.F) {
	f.Add("<div>a<br>b</div><blockquote>q</blockquote>")
	f.Add("<pre>x\n y</pre><ul><li>1</li></ul><table><tr><td>a</td></tr></table>")
	for _, m := range corpusMessages(f) {
		if m.FromHTML {
			f.Add(string(m.Raw))
		}
	}
	for _, s := range replyLineHTMLSeeds(f) { // every language's reply line
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out := mailmsg.HTMLToText(src)
		if !strings.HasSuffix(out, "\n") {
			t.Fatal("no final newline")
		}
		if len(out) > 8*len(src)+64 {
			t.Fatalf("output grew too much: %d from %d", len(out), len(src))
		}
		if utf8.ValidString(src) && !utf8.ValidString(out) {
			t.Fatal("invalid UTF-8 from valid input")
		}
		if strings.Contains(out, "\n\n\n\n") {
			t.Fatal("more than two blank lines in a row")
		}
	})
}
