package mailfmt_test

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
)

// numberWordsPastTen are options past ten as people write them, written
// out by hand (not by the rule under test): the cardinal after an option
// word, the ordinal after its article, per language, hyphens, spaces and
// accents as each may write them. The numbers are the ones where a
// language's rule turns (teens, the first compound of a ten, the "et" of
// French, the elisions of Italian, the "ën" of Dutch, the last option of
// Dice Brewing's 50-option menu, 70-99 in French).
var numberWordsPastTen = map[string][]struct {
	n                 int
	cardinal, ordinal string
}{
	"en": {{11, "eleven", "the eleventh"}, {12, "twelve", "the twelfth"}, {13, "thirteen", "the thirteenth"},
		{19, "nineteen", "the nineteenth"}, {20, "twenty", "the twentieth"}, {21, "twenty-one", "the twenty-first"},
		{21, "twenty one", "the twenty first"}, {22, "Twenty-Two", "the twenty-second"}, {23, "twenty-three", "the twenty-third"},
		{38, "thirty-eight", "the thirty-eighth"}, {40, "forty", "the fortieth"}, {45, "forty five", "the forty-fifth"},
		{50, "fifty", "the fiftieth"}, {71, "seventy-one", "the seventy-first"}, {99, "ninety-nine", "the ninety-ninth"}},
	"it": {{11, "undici", "l'undicesima"}, {12, "dodici", "la dodicesima"}, {13, "tredici", "il tredicesimo"},
		{17, "diciassette", "la diciassettesima"}, {18, "diciotto", "la diciottesima"}, {20, "venti", "la ventesima"},
		{21, "ventuno", "la ventunesima"}, {23, "ventitré", "la ventitreesima"}, {23, "ventitre", "il ventitreesimo"},
		{26, "ventisei", "la ventiseiesima"}, {28, "ventotto", "la ventottesima"}, {31, "trentuno", "il trentunesimo"},
		{38, "trentotto", "la trentottesima"}, {44, "quarantaquattro", "la quarantaquattresima"}, {50, "cinquanta", "la cinquantesima"},
		{81, "ottantuno", "l’ottantunesima"}, {99, "novantanove", "la novantanovesima"}},
	"fr": {{11, "onze", "la onzième"}, {16, "seize", "la seizième"}, {17, "dix-sept", "la dix-septième"},
		{19, "dix neuf", "la dix-neuvième"}, {20, "vingt", "la vingtième"}, {21, "vingt et un", "la vingt et unième"},
		{21, "vingt-et-un", "la vingt-et-unième"}, {21, "vingt et une", "la vingt-et-unième"}, {25, "vingt-cinq", "la vingt-cinquième"},
		{29, "vingt-neuf", "la vingt-neuvième"}, {33, "trente-trois", "la trente-troisième"}, {50, "cinquante", "la cinquantième"},
		{70, "soixante-dix", "la soixante-dixième"}, {71, "soixante et onze", "la soixante et onzième"},
		{80, "quatre-vingts", "la quatre-vingtième"}, {81, "quatre-vingt-un", "la quatre-vingt-unième"},
		{97, "quatre-vingt-dix-sept", "la quatre-vingt-dix-septième"}, {22, "vingt-deux", "la vingt-deuxieme"}},
	"nl": {{11, "elf", "de elfde"}, {12, "twaalf", "de twaalfde"}, {14, "veertien", "de veertiende"},
		{18, "achttien", "de achttiende"}, {20, "twintig", "de twintigste"}, {21, "eenentwintig", "de eenentwintigste"},
		{22, "tweeëntwintig", "de tweeëntwintigste"}, {23, "drieentwintig", "de drieëntwintigste"},
		{33, "drieëndertig", "de drieëndertigste"}, {47, "zevenenveertig", "de zevenenveertigste"}, {50, "vijftig", "de vijftigste"},
		{80, "tachtig", "'t tachtigste"}, {99, "negenennegentig", "de negenennegentigste"}},
	"de": {{11, "elf", "die elfte"}, {12, "zwölf", "die zwölfte"}, {16, "sechzehn", "die sechzehnte"},
		{17, "siebzehn", "die siebzehnte"}, {20, "zwanzig", "die zwanzigste"}, {21, "einundzwanzig", "die einundzwanzigste"},
		{30, "dreißig", "die dreißigste"}, {30, "dreissig", "der dreissigste"}, {35, "fünfunddreißig", "den fünfunddreißigsten"},
		{41, "einundvierzig", "die einundvierzigste"}, {50, "fünfzig", "die fünfzigste"}, {77, "siebenundsiebzig", "die siebenundsiebzigste"}},
}

// TestNumberWordsPastTenReadAsTheirOption: options 11 to 99 written in
// words (doc.go "# Answers"), as a cardinal after an option word and as
// an ordinal after an article (or before "option"), in five languages,
// any case, with chat around, are read as their number, and IsProse
// agrees; a number word in a sentence, or a compound no language writes,
// is no option ("option twenty hundred", "the twenty-first century").
func TestNumberWordsPastTenReadAsTheirOption(t *testing.T) {
	r, _ := testReader(t)
	n := 0
	for lang, list := range numberWordsPastTen {
		w := numberWordsOf[lang]
		for _, c := range list {
			_, ordinal, _ := strings.Cut(c.ordinal, " ")
			if !strings.Contains(c.ordinal, " ") || strings.ContainsAny(c.ordinal[:2], "'’") {
				ordinal = c.ordinal
			}
			forms := []string{w.option + " " + c.cardinal, w.option + " " + ordinal, c.ordinal,
				strings.ToUpper(c.ordinal), ordinal + " " + w.option, w.option + " " + strings.ToUpper(c.cardinal)}
			for _, f := range forms {
				for _, line := range []string{f, f + "!", "Hi! " + f, f + " thanks", f + ", please", "👍 " + f, "ok: " + f + " grazie"} {
					n++
					if al := r.Line(line); al.Kind != mailfmt.AnswerOption || al.Option != c.n {
						t.Errorf("%s: %q read as %+v, want option %d", lang, line, al, c.n)
					}
					if (f == line || strings.HasPrefix(line, "Hi! ")) && testKW.IsProse(line) {
						t.Errorf("%s: %q is prose, read as option %d", lang, line, c.n)
					}
				}
			}
		}
	}
	for _, line := range []string{"option twenty hundred", "the twenty-first century was long", "option vingt deux trois",
		"la ventesima volta", "die zwanzigste Runde", "de twintigste keer", "option eleven twelve", "twenty-one",
		"the twentieth century", "option one-twenty", "l'undicesima ora è passata", "l'ottava meraviglia del mondo"} {
		n++
		noOption(t, r, line)
	}
	if n < 2000 {
		t.Fatalf("only %d lines", n)
	}
}

// TestElidedArticleBeforeAnOption: an article elided onto the word after
// it, with a straight or a typographic apostrophe, in Italian and French
// ("l'ottava", "l’undicesima", "l'option deux", "L'opzione 2"), is read as
// the article: the line is the option, and no prose.
func TestElidedArticleBeforeAnOption(t *testing.T) {
	r, _ := testReader(t)
	cases := []struct {
		line string
		n    int
	}{
		{"l'ottava", 8}, {"l’ottava", 8}, {"L'OTTAVA", 8}, {"l‘ottava", 8}, {"l´ottava", 8}, {"l`undicesima", 11},
		{"l’undicesima", 11}, {"l'undicesimo", 11}, {"l'option deux", 2}, {"L’option 2", 2}, {"l'opzione 2", 2},
		{"l'opzione due", 2}, {"l’opzione ventuno", 21}, {"l'option vingt et un", 21}, {"l'ottantunesima", 81},
	}
	for _, c := range cases {
		for _, line := range []string{c.line, "ok " + c.line, "Ciao! " + c.line, c.line + ", grazie", c.line + " merci"} {
			if al := r.Line(line); al.Kind != mailfmt.AnswerOption || al.Option != c.n {
				t.Errorf("%q read as %+v, want option %d", line, al, c.n)
			}
		}
		if testKW.IsProse(c.line) {
			t.Errorf("%q is prose, read as option %d", c.line, c.n)
		}
	}
	for _, line := range []string{"l'ottava volta", "d'ottava", "l'", "l' ottava volta", "dell'opzione 2 non so"} {
		if al := r.Line(line); al.Kind == mailfmt.AnswerOption {
			t.Errorf("%q read as option %d", line, al.Option)
		}
	}
}

// TestPostalLineIsNoCommand: a postal code and its town alone on a line,
// in the forms of the five languages' countries (a country letter before
// it or not, the town in capitals or not, of one to three words), is
// chat for the reader and prose for IsProse, never a command left for
// the engine to refuse; a line with a keyword in capitals after the code
// is not (the engine refuses it with its reason).
func TestPostalLineIsNoCommand(t *testing.T) {
	r, _ := testReader(t)
	codes := []string{"20121", "75002", "10115", "1017 GC", "1017GC", "2511 CV", "8001", "D-10115", "CH-8001", "I-20121", "F-75002", "NL-1017 GC", "1100-048"}
	towns := []string{"Milano", "Paris", "Berlin", "Amsterdam", "Den Haag", "Frankfurt am Main", "Saint-Étienne", "L'Aquila", "MILANO", "Zürich"}
	n := 0
	for _, code := range codes {
		for _, town := range towns {
			line := code + " " + town
			n++
			if al := r.Line(line); al.Kind != mailfmt.AnswerChat || al.Hint != "" {
				t.Errorf("%q read as %+v, want chat", line, al)
			}
			if !testKW.IsProse(line) {
				t.Errorf("%q is no prose", line)
			}
		}
	}
	for _, line := range []string{"1017 PASS", "20121 PLACE HP1 SEED", "1017 GC PASS", "D-10115 STORE Y5"} {
		if al := r.Line(line); al.Kind == mailfmt.AnswerChat || testKW.IsProse(line) {
			t.Errorf("%q read as %+v: no address", line, al)
		}
	}
	if n < 100 {
		t.Fatalf("only %d lines", n)
	}
}
