package mailfmt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// numberWordsOf are the words of options 1 to 10, per language: the
// cardinal after an option word, the ordinal (feminine or masculine,
// German declined) after an article.
var numberWordsOf = map[string]struct {
	option, article, filler string
	cardinal, ordinal       [10]string
}{
	"en": {"option", "the", "one", [10]string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"},
		[10]string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}},
	"it": {"opzione", "la", "", [10]string{"uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci"},
		[10]string{"prima", "seconda", "terza", "quarta", "quinta", "sesta", "settima", "ottava", "nona", "decima"}},
	"fr": {"choix", "la", "", [10]string{"un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"},
		[10]string{"première", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième", "neuvième", "dixième"}},
	"nl": {"optie", "de", "", [10]string{"een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", "tien"},
		[10]string{"eerste", "tweede", "derde", "vierde", "vijfde", "zesde", "zevende", "achtste", "negende", "tiende"}},
	"de": {"Option", "die", "", [10]string{"eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn"},
		[10]string{"erste", "zweite", "dritte", "vierte", "fünfte", "sechste", "siebte", "achte", "neunte", "zehnte"}},
}

// TestNumberWordsReadAsTheirOption: an option written in words is read as
// its number in five languages, options 1 to 10, in any case, with chat
// before and after it ("Hi! the second one, thanks"), and IsProse agrees
// (the line is no prose); the words in a sentence or alone are never an
// option (a hint at most), so no wrong option is played.
func TestNumberWordsReadAsTheirOption(t *testing.T) {
	r, _ := testReader(t)
	n := 0
	for lang, w := range numberWordsOf {
		for i := range 10 {
			forms := []string{
				w.option + " " + w.cardinal[i], w.option + " " + w.ordinal[i], w.article + " " + w.ordinal[i],
				w.ordinal[i] + " " + w.option, strings.ToUpper(w.article + " " + w.ordinal[i]),
			}
			if w.filler != "" {
				forms = append(forms, w.article+" "+w.ordinal[i]+" "+w.filler, w.ordinal[i]+" "+w.filler)
			}
			for _, f := range forms {
				for _, line := range []string{f, f + "!", "Hi! " + f, f + " thanks", f + ", please", "👍 " + f, "ok: " + f + " grazie"} {
					n++
					al := r.Line(line)
					if al.Kind != mailfmt.AnswerOption || al.Option != i+1 {
						t.Errorf("%s: %q read as %+v, want option %d", lang, line, al, i+1)
					}
					// IsProse knows no caller's chat words ("thanks"): the
					// reader's own prose rule does (FuzzIsProse).
					if f == line || strings.HasPrefix(line, "Hi! ") || strings.HasPrefix(line, "👍") {
						if testKW.IsProse(line) {
							t.Errorf("%s: %q is prose, read as option %d", lang, line, i+1)
						}
					}
				}
			}
		}
	}
	for _, line := range []string{"the first time I played", "second", "Second!", "la seconda volta", "de tweede keer was beter",
		"die zweite Runde war gut", "un deux trois", "one", "the second one was better", "first come first served",
		"I'd like the second one please", "option two hundred", "la deuxième fois"} {
		n++
		noOption(t, r, line)
	}
	if n < 1500 {
		t.Fatalf("only %d lines", n)
	}
}

// noOption fails the test when the reader reads line as an option or a
// command (number words in a sentence: chat, at most a hint).
func noOption(t *testing.T, r *mailfmt.AnswerReader, line string) {
	t.Helper()
	if al := r.Line(line); al.Kind == mailfmt.AnswerOption || al.Kind == mailfmt.AnswerCommand {
		t.Errorf("%q read as %+v: no option", line, al)
	}
}

// TestDottedAndGluedOptionWords: "No. 2", "n. 2", "Nr. 2" (an option word
// that is a common word alone, with its dot) and an option word glued to
// an emoji ("👍option 2") are option 2, with any chat around, for every
// option number form; "No 2" and "n 2" without the dot are not.
func TestDottedAndGluedOptionWords(t *testing.T) {
	r, _ := testReader(t)
	for _, word := range []string{"No.", "no.", "n.", "N.", "Nr.", "nr.", "👍option", "👍opzione", "🙂choix", "👍🏻optie", "✅Option", "👍 nr.", "👍No."} {
		for _, num := range []string{"2", "2.", "(2)", "#2", "2!"} {
			for _, line := range []string{word + " " + num, word + num, "Hi! " + word + " " + num, word + " " + num + " thanks"} {
				if line == word+num && !strings.HasSuffix(word, ".") {
					continue // "option2": no form of ours
				}
				al := r.Line(line)
				if al.Kind != mailfmt.AnswerOption || al.Option != 2 {
					t.Errorf("%q read as %+v, want option 2", line, al)
				}
				if !strings.HasSuffix(line, "thanks") && testKW.IsProse(line) {
					t.Errorf("%q is prose, read as option 2", line)
				}
			}
		}
	}
	for _, line := range []string{"No 2 is wrong", "no, 2 of them", "n 2"} {
		if al := r.Line(line); al.Kind == mailfmt.AnswerOption {
			t.Errorf("%q read as option %d", line, al.Option)
		}
	}
}

// TestStreetIsNoOption: a house number next to a street word, in five
// languages, number first or last, with a town after a comma or not, is
// chat with no hint for the reader and prose for IsProse (never option
// 221, never option 12 of a long menu); a first word that is a keyword
// stays for the engine ("Piazza Duomo 1"), and a number with chat or a
// copied menu line is still an answer.
func TestStreetIsNoOption(t *testing.T) {
	r, _ := testReader(t)
	streets := []string{"221 Baker St", "10 Downing Street", "12 Abbey Road", "5 Fifth Avenue", "Via Roma 3", "Viale Monza 12",
		"Corso Buenos Aires 7", "12 rue de la Paix", "3 place de la Concorde", "8 avenue Foch", "Kerkstraat 12", "Prinsengracht 263",
		"Dorpsweg 4", "Hauptstr. 5", "Hauptstraße 5", "Bahnhofplatz 1", "Lindenallee 7", "Am Ring 3", "2 Rue Victor Hugo"}
	n := 0
	for _, s := range streets {
		for _, line := range []string{s, s + ", London", s + ", 20121 Milano", s + "."} {
			n++
			al := r.Line(line)
			if al.Kind != mailfmt.AnswerChat || al.Hint != "" {
				t.Errorf("%q read as %+v: an address, chat without a hint", line, al)
			}
			if !testKW.IsProse(line) {
				t.Errorf("%q: not prose", line)
			}
		}
	}
	for line, want := range map[string]string{"Piazza Duomo 1": "command", "2 please": "option 2", "2) PLACE HP1 SEED": "option 2",
		"12 rue": "option 12", "3 PLACE HP1 SEED": "option 3"} {
		al := r.Line(line)
		got := map[mailfmt.AnswerKind]string{mailfmt.AnswerCommand: "command", mailfmt.AnswerOption: fmt.Sprintf("option %d", al.Option)}[al.Kind]
		if got != want {
			t.Errorf("%q read as %+v, want %s", line, al, want)
		}
	}
	if n < 70 {
		t.Fatalf("only %d lines", n)
	}
}

// TestCompanyWhoseFirstWordIsAKeyword: under a move, a signature of a
// company whose first word is a keyword of some game ("Brew Co Ltd",
// "Pass GmbH", "Piazza Rossi S.r.l.") is a signature by its place, in
// every layout of the reply (after a gap, a name, a title), and the move
// alone is read; in capitals ("BREW Co Ltd") or with a code it stays.
func TestCompanyWhoseFirstWordIsAKeyword(t *testing.T) {
	r, _ := testReader(t)
	for _, company := range []string{"Brew Co Ltd", "Pass GmbH", "Piazza Rossi S.r.l.", "Store & More B.V.", "Take Away SARL", "Home Brew Inc."} {
		for _, above := range [][]string{nil, {""}, {"", "Anna Keller"}, {"Anna Keller", "CEO"}} {
			for _, move := range []string{"2", "PLACE HP1 SEED", "option 2 thanks"} {
				text := strings.Join(append(append([]string{move}, above...), company), "\n")
				got := strings.Join(readAnswers(r, extract(t, text)), " / ")
				if want := map[string]string{"2": "option 2", "PLACE HP1 SEED": "PLACE HP1 SEED", "option 2 thanks": "option 2"}[move]; got != want {
					t.Errorf("%q: read %q, want %q", text, got, want)
				}
			}
		}
	}
	for _, tail := range []string{"BREW Co Ltd", "Brew HP1 Ltd", "Pass 2 GmbH"} {
		text := "PASS\n\nAnna Keller\n" + tail
		if got := readAnswers(r, extract(t, text)); len(got) != 2 {
			t.Errorf("%q: read %q: the last line may be a command", text, got)
		}
	}
}

func extract(t *testing.T, body string) string {
	t.Helper()
	text, _ := testKW.ExtractCommands(body, mailmsg.Address{Name: "Anna Keller", Addr: "anna@brauerei.example"})
	return text
}
