package mailfmt_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/templates"
)

// testReader is an AnswerReader with the real word lists of every language
// (templates/referee/*/answers.txt) and a few keywords of the games and
// their aliases.
func testReader(t testing.TB) (*mailfmt.AnswerReader, *templates.Set) {
	t.Helper()
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	v := mailfmt.AnswerVocab{Keywords: map[string]string{}, FreeText: func(kw string) bool { return kw == "SAY" }}
	for _, lang := range templates.Languages {
		v.Chat = append(v.Chat, set.List("referee", lang, "chat")...)
		v.Words = append(v.Words, set.List("referee", lang, "words")...)
	}
	for w, kw := range testKeywords {
		v.Keywords[w] = kw
	}
	return mailfmt.NewAnswerReader(v), set
}

// testKeywords are the keywords of testReader, with their aliases of the
// other languages, mapped to the canonical keyword.
var testKeywords = func() map[string]string {
	m := map[string]string{}
	for _, kw := range []string{"PASS", "PLACE", "STORE", "GO", "BUY", "DONE", "TAKE", "SAY", "HOME", "BREW", "BREAD", "M", "B", "STATUS", "JOIN", "NEXT", "OR", "END"} {
		m[kw] = kw
	}
	for alias, kw := range map[string]string{"PASSA": "PASS", "PASSE": "PASS", "PAS": "PASS", "PIAZZA": "PLACE", "PLACER": "PLACE",
		"PLAATS": "PLACE", "CONSERVA": "STORE", "STOCKER": "STORE", "BEWAAR": "STORE", "PRENDI": "TAKE", "FATTO": "DONE"} {
		m[alias] = kw
	}
	return m
}()

// testKW are testKeywords held as the reader's callers hold them
// (IsProse, SplitProse, ExtractCommands); noKeywords knows none.
var (
	testKW     = mailfmt.NewKeywords(slices.Collect(maps.Keys(testKeywords)), nil)
	noKeywords *mailfmt.Keywords
)

// answerWords are how a person of each language writes around an answer.
var answerWords = map[string]struct {
	option            []string
	hello, thanks     []string
	pleaseAfterNumber []string
}{
	"en": {[]string{"option", "Option", "OPTION", "choice", "number"}, []string{"Hi!", "Hello,", "Hi all!", "Dear referee,", "Hallo,", "ok"}, []string{"thanks", "Thanks!", "cheers", "thank you"}, []string{"please", "pls"}},
	"it": {[]string{"opzione", "Opzione", "scelta", "numero"}, []string{"Ciao,", "Ciao!", "Buongiorno,", "ciao"}, []string{"grazie", "Grazie mille!", "grazie!"}, []string{"per favore", "grazie"}},
	"fr": {[]string{"choix", "Choix", "option", "numéro"}, []string{"Bonjour,", "Salut !", "Coucou,", "bonjour"}, []string{"merci", "Merci beaucoup", "merci !"}, []string{"svp", "s'il vous plaît"}},
	"nl": {[]string{"optie", "Optie", "keuze", "nummer"}, []string{"Hallo,", "Hoi!", "Goedemorgen,", "hoi"}, []string{"bedankt", "Dank je wel!", "groetjes"}, []string{"alsjeblieft", "graag"}},
}

// numberForms write option n; line is its menu line (command and
// description); they return the answer and the command copied, if any.
var numberForms = []func(n int, word, line string) (string, string){
	func(n int, _, _ string) (string, string) { return fmt.Sprint(n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("%d.", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("%d)", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("#%d", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("(%d)", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("“%d”", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("\"%d\"", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("[%d]", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("%d!", n), "" },
	func(n int, _, _ string) (string, string) { return fmt.Sprintf("%d 👍", n), "" },
	func(n int, w, _ string) (string, string) { return fmt.Sprintf("%s %d", w, n), "" },
	func(n int, w, _ string) (string, string) { return fmt.Sprintf("%s: %d", w, n), "" },
	func(n int, w, _ string) (string, string) { return fmt.Sprintf("%s #%d", w, n), "" },
	func(n int, _, line string) (string, string) { return fmt.Sprintf("%d) %s", n, line), "PLACE HP1 SEED" },
	func(n int, _, line string) (string, string) {
		return fmt.Sprintf("   %d) %s", n, line), "PLACE HP1 SEED"
	},
	func(n int, _, _ string) (string, string) {
		return fmt.Sprintf("%d) PLACE HP1 SEED", n), "PLACE HP1 SEED"
	},
	func(n int, _, _ string) (string, string) {
		return fmt.Sprintf("%d. PIAZZA MH1 SEME POI", n), "PIAZZA MH1 SEME POI"
	},
	func(n int, _, _ string) (string, string) {
		return fmt.Sprintf("%d) PRENDI struttura bestiame", n), "PRENDI struttura bestiame"
	},
	func(n int, _, _ string) (string, string) {
		return fmt.Sprintf("  %d) HOME RES YE   # that marker +2", n), "HOME RES YE"
	},
	func(n int, _, _ string) (string, string) {
		return fmt.Sprintf("%d) GO 10        # MON3    (3/6) M1", n), "GO 10"
	},
}

// Issue 20: every option number form, in every language, alone or with a
// greeting before it and thanks or please after it, is option n (with
// the copied command when a menu line was copied). Generated: forms x
// languages x numbers x greetings x closings.
func TestAnswerNumberForms(t *testing.T) {
	r, _ := testReader(t)
	count := 0
	for lang, aw := range answerWords {
		for _, n := range []int{1, 2, 7, 10, 12, 48} {
			for fi, f := range numberForms {
				for _, word := range aw.option {
					core, copied := f(n, word, "PLACE HP1 SEED   # costs 2 coins")
					leads := append([]string{""}, aw.hello...)
					tails := []string{""}
					for _, th := range aw.thanks {
						tails = append(tails, " - "+th, "! "+th, ", "+th)
						if copied == "" {
							tails = append(tails, " "+th)
						}
					}
					if copied == "" {
						for _, p := range aw.pleaseAfterNumber {
							tails = append(tails, " "+p)
						}
					}
					for _, lead := range leads {
						for _, tail := range tails {
							if strings.Contains(core, "#") && !strings.HasPrefix(strings.TrimSpace(core), "#") && !strings.Contains(core, " #") && tail != "" {
								continue
							}
							if strings.Contains(core, " # ") && tail != "" {
								continue // the tail is in the comment
							}
							line := strings.TrimSpace(lead + " " + core + tail)
							if lead != "" && strings.HasSuffix(lead, ",") && fi%2 == 0 {
								line = lead + strings.TrimSpace(core) + tail // glued: "Hallo,2"
							}
							count++
							al := r.Line(line)
							if al.Kind != mailfmt.AnswerOption || al.Option != n || al.Copied != copied {
								t.Fatalf("%s form %d: %q read as %+v, want option %d copied %q", lang, fi, line, al, n, copied)
							}
							if lead != "" && (len(al.Chat) == 0 || al.Chat[0] != strings.TrimSpace(lead)) {
								t.Errorf("%q: chat %q lacks the greeting %q", line, al.Chat, lead)
							}
						}
					}
				}
			}
		}
	}
	if count < 10000 {
		t.Errorf("only %d combinations", count)
	}
	t.Logf("%d answers read", count)
}

// Issue 20: commands written as people write them (case, punctuation,
// emoji, greeting and thanks on the line, one typo) are read as the
// command; a typo is reported (Typo, Keyword).
func TestAnswerCommandForms(t *testing.T) {
	r, _ := testReader(t)
	count := 0
	for lang, aw := range answerWords {
		for _, cmd := range []string{"PASS", "PLACE HP1 SEED", "PIAZZA MH1 SEME, MH1+ B3", "STORE K6", "PRENDI struttura bestiame", "GO 10", "BUY HO4 S1", "PLAATS HP2 G1 DAN"} {
			kw, args, _ := strings.Cut(cmd, " ")
			forms := map[string]string{
				"as-is": cmd, "lower": strings.ToLower(kw) + " " + args, "title": kw[:1] + strings.ToLower(kw[1:]) + " " + args,
				"dot": cmd + ".", "bang": cmd + "!", "bangs": cmd + "!!", "emoji": cmd + " 🙂", "emoji2": cmd + " 👍🏽", "ellipsis": cmd + "…",
			}
			for _, h := range aw.hello {
				forms["hello "+h] = h + " " + cmd
				if strings.HasSuffix(h, ",") {
					forms["glued "+h] = h + cmd
				}
			}
			for _, th := range aw.thanks {
				forms["dash "+th] = cmd + " - " + th
				forms["comma "+th] = cmd + ", " + th
				forms["bang "+th] = cmd + "! " + th
				forms["endash "+th] = cmd + " – " + th
			}
			for name, line := range forms {
				count++
				al := r.Line(line)
				if al.Kind != mailfmt.AnswerCommand || !sameWords(al.Text, cmd) || al.Typo != "" {
					t.Errorf("%s %s: %q read as %+v, want %q", lang, name, line, al, cmd)
				}
			}
			// One edit in a keyword of four letters or more.
			if len(kw) >= 4 {
				for _, typo := range typos(kw) {
					line := strings.TrimSpace(typo + " " + args)
					al := r.Line(line)
					if isKw(typo) {
						continue // PAS is PASS in Dutch
					}
					if typo != strings.ToUpper(typo) && noKeywords.IsProse(args) && args != "" {
						// "perndi struttura bestiame": a sentence, not read.
						if al.Kind != mailfmt.AnswerChat {
							t.Errorf("%q read as %+v, want chat", line, al)
						}
						continue
					}
					want := al.Keyword + " " + args
					count++
					if al.Kind != mailfmt.AnswerCommand || al.Typo != typo || !sameWords(al.Text, strings.TrimSpace(want)) {
						t.Errorf("%q read as %+v, want %s read as a keyword", line, al, typo)
					}
				}
			}
		}
	}
	t.Logf("%d commands read", count)
}

// typos are words one edit from kw that are one edit from no other test
// keyword: a transposition, a deletion, an insertion, a substitution, in
// lower and upper case.
func typos(kw string) []string {
	r := []rune(kw)
	var out []string
	if r[1] != r[2] {
		t := append([]rune(nil), r...)
		t[1], t[2] = t[2], t[1]
		out = append(out, string(t))
	}
	out = append(out, string(r[:2])+string(r[3:]), string(r[:2])+"X"+string(r[2:]), string(r[:len(r)-1])+"Q")
	for _, w := range out[:len(out):len(out)] {
		out = append(out, strings.ToLower(w))
	}
	return out
}

func isKw(w string) bool {
	switch strings.ToUpper(w) {
	case "PAS", "PASSA", "PASSE":
		return true
	}
	return false
}

func sameWords(a, b string) bool {
	return strings.Join(strings.Fields(strings.ToUpper(strings.ReplaceAll(a, ",", " "))), " ") ==
		strings.Join(strings.Fields(strings.ToUpper(strings.ReplaceAll(b, ",", " "))), " ")
}

// What is no answer stays what it is: chat stays chat (with a hint when it
// holds one), the engine's syntax is left as written, a word one edit from
// several keywords asks.
func TestAnswerNoAnswer(t *testing.T) {
	r, _ := testReader(t)
	for _, c := range []struct {
		line  string
		kind  mailfmt.AnswerKind
		text  string
		hint  string
		cands string
	}{
		{"Thanks!", mailfmt.AnswerChat, "", "", ""},
		{"Hi all,", mailfmt.AnswerChat, "", "", ""},
		{"Past turns were fun", mailfmt.AnswerChat, "", "", ""},
		{"here is my move", mailfmt.AnswerChat, "", "", ""},
		{"I choose option 2 please", mailfmt.AnswerCommand, "I choose option 2 please", "2", ""},
		{"I think I will PASS this time", mailfmt.AnswerCommand, "I think I will PASS this time", "PASS this time", ""},
		{"I have 2 kids", mailfmt.AnswerChat, "", "", ""},
		{"Hi, done for today", mailfmt.AnswerChat, "", "", ""},
		{"2nd thoughts", mailfmt.AnswerCommand, "2nd thoughts", "", ""},
		{"PLACE MH1 SEED, MH1+ B3", mailfmt.AnswerCommand, "PLACE MH1 SEED, MH1+ B3", "", ""},
		{"PLACE HP1 SEED | PASS", mailfmt.AnswerCommand, "PLACE HP1 SEED | PASS", "", ""},
		{"BUY HO2 S1; DONE", mailfmt.AnswerCommand, "BUY HO2 S1; DONE", "", ""},
		{"#begin", mailfmt.AnswerCommand, "#begin", "", ""},
		{"NEXT", mailfmt.AnswerCommand, "NEXT", "", ""},
		{"SAY Hi! 2 please - thanks", mailfmt.AnswerCommand, "SAY Hi! 2 please - thanks", "", ""},
		{"Hi! SAY well played", mailfmt.AnswerCommand, "SAY well played", "", ""},
		{"MH1 SEED", mailfmt.AnswerCommand, "MH1 SEED", "", ""},
		{"BREA", mailfmt.AnswerAsk, "", "", "BREAD BREW"},
		{"0", mailfmt.AnswerCommand, "0", "", ""},
		{"SAY hello", mailfmt.AnswerCommand, "SAY hello", "", ""},
		{"STATUS please", mailfmt.AnswerCommand, "STATUS please", "", ""},
		{"STATUS, please", mailfmt.AnswerCommand, "STATUS", "", ""},
		{"option 2 PLACE HP1 SEED", mailfmt.AnswerCommand, "option 2 PLACE HP1 SEED", "PLACE HP1 SEED", ""},
	} {
		al := r.Line(c.line)
		if al.Kind != c.kind || al.Text != c.text || al.Hint != c.hint || strings.Join(al.Candidates, " ") != c.cands {
			t.Errorf("%q read as %+v, want kind %d text %q hint %q candidates %q", c.line, al, c.kind, c.text, c.hint, c.cands)
		}
	}
}

// The chat words of the lists are never read as a mistyped keyword, nor
// ask.
func TestAnswerChatWordsAreChat(t *testing.T) {
	r, set := testReader(t)
	for _, lang := range templates.Languages {
		for _, w := range set.List("referee", lang, "chat") {
			for _, line := range []string{w, w + "!", strings.ToUpper(w[:1]) + w[1:] + ","} {
				if al := r.Line(line); al.Kind != mailfmt.AnswerChat {
					t.Errorf("%s chat word %q read as %+v", lang, line, al)
				}
			}
		}
	}
}

func FuzzAnswerLine(f *testing.F) {
	for _, s := range []string{"2", "Hi! PASS", "Hallo,PASS", "PASS - cheers", "Ciao, 2", "paas", "  2) HOME RES YE   # that marker +2",
		"“2”", "option #2", "2 please", "PLACE MH1 SEED, MH1+ B3", "SAY hi", "#begin", "BREA", "2)))", "((2", "#", "…", "👍", "\u200d",
		"PLACE HP1 SEED thanks", "STORE Y5 G4 grazie mille", "Bâtiment B", "B!A!A", "BREW!A!A",
		"221 Baker St", "Via Roma 3", "the second one", "option two", "No. 2", "👍option 2", "die zweite, danke",
		"option twenty-one", "la vingt-et-unième", "l’ottava", "L'option deux", "de drieëndertigste", "option twenty first",
		"1017 GC Amsterdam", "20121 Milano", "option soixante et onze"} {
		f.Add(s)
	}
	r, _ := testReader(f)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return
		}
		al := r.Line(line)
		switch al.Kind {
		case mailfmt.AnswerCommand:
			if al.Text == "" {
				t.Fatalf("%q: a command without text", line)
			}
			if utf8.ValidString(line) && !utf8.ValidString(al.Text) {
				t.Fatalf("%q: invalid text %q", line, al.Text)
			}
			// Reading is stable: the text read is read as itself.
			if !utf8.ValidString(line) {
				return
			}
			if again := r.Line(al.Text); again.Kind != mailfmt.AnswerCommand || again.Text != al.Text && al.Typo == "" {
				t.Fatalf("%q read as %q, which reads as %+v", line, al.Text, again)
			}
		case mailfmt.AnswerOption:
			if al.Option < 0 || al.Option > 999 {
				t.Fatalf("%q: option %d", line, al.Option)
			}
			if again := r.Line(fmt.Sprint(al.Option)); again.Kind != mailfmt.AnswerOption || again.Option != al.Option {
				t.Fatalf("%q: option %d reads as %+v", line, al.Option, again)
			}
		case mailfmt.AnswerAsk:
			if len(al.Candidates) < 2 {
				t.Fatalf("%q: asks with %v", line, al.Candidates)
			}
		}
	})
}

func BenchmarkReadAnswers(b *testing.B) {
	r, _ := testReader(b)
	text := "Hi!\nplcae HP1 SEED\n2) PLACE HP1 SEED   # costs 2\nPASS - cheers\n\nThanks a lot, see you"
	b.ReportAllocs()
	for b.Loop() {
		r.Read(text)
	}
}

// A long line costs time in proportion to its length, not its square.
func BenchmarkAnswerLongLine(b *testing.B) {
	r, _ := testReader(b)
	line := "PLACE " + strings.Repeat("MH1 SEED, - ok ", 400)
	b.ReportAllocs()
	for b.Loop() {
		r.Line(line)
	}
}

// Read keeps one reading per line, numbered from 1, whatever the text.
func FuzzAnswerRead(f *testing.F) {
	f.Add("Hi!\n2)\nPASS - cheers\n\nThanks")
	f.Add("#begin\nopzione 2\n#end")
	r, _ := testReader(f)
	f.Fuzz(func(t *testing.T, text string) {
		got := r.Read(text)
		if want := strings.Count(text, "\n") + 1; len(got) != want {
			t.Fatalf("%d readings of %d lines", len(got), want)
		}
		for i, l := range got {
			if l.Line != i+1 {
				t.Fatalf("line %d numbered %d", i+1, l.Line)
			}
			if l.Kind == mailfmt.AnswerBlank && strings.TrimSpace(strings.Split(text, "\n")[i]) != "" {
				t.Fatalf("line %d %q read as blank", i+1, l.Raw)
			}
		}
	})
}

// TestAnswerConfusablesAreNoTypos: a word one edit from a keyword only
// through a letter of another script (a Cyrillic or Greek look-alike) or
// written in fullwidth forms is not read as that keyword (issue 23), while
// the same typo in Latin letters is (issue 20).
func TestAnswerConfusablesAreNoTypos(t *testing.T) {
	r := mailfmt.NewAnswerReader(mailfmt.AnswerVocab{Keywords: map[string]string{"PASS": "PASS", "PLACE": "PLACE"}})
	for _, s := range []string{"P\u0410SS", "PAS\u0405", "PL\u0391CE", "\uff30\uff21\uff33\uff33", "\uff30ASS"} {
		if got := r.Line(s); got.Keyword != "" || got.Text == "PASS" || got.Text == "PLACE" {
			t.Errorf("%q read as %+v", s, got)
		}
	}
	for _, s := range []string{"PASSS", "paas", "PLCAE"} {
		if got := r.Line(s); got.Keyword == "" {
			t.Errorf("%q not read as a keyword: %+v", s, got)
		}
	}
}
