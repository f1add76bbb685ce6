package mailfmt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// maxNumberWord is the largest option read in words: past the longest
// menu of the four games (Dice Brewing's placement menu has 50 options,
// referee/testdata/golden/dbmenus.*.txt), every number of two digits.
const maxNumberWord = 99

// numberWordSets returns the cardinals and ordinals of options 1 to
// maxNumberWord by their key (numberKey): 1 to 10 as listed
// (words/reply.txt [cardinal-n], [ordinal-n]), 11 up built from the
// parts of each language ([number-parts]) by its rule.
func numberWordSets() (map[string]int, map[string]int) {
	card, ord := map[string]int{}, map[string]int{}
	for n := 1; n <= 10; n++ {
		for _, w := range words(fmt.Sprintf("cardinal-%d", n)) {
			card[numberKey(w)] = n
		}
		for _, w := range words(fmt.Sprintf("ordinal-%d", n)) {
			ord[numberKey(w)] = n
		}
	}
	add := func(set map[string]int, n int, ws ...string) {
		for _, w := range ws {
			k := numberKey(w)
			if old, ok := set[k]; ok && old != n {
				panic(fmt.Sprintf("mailfmt: number word %q is both %d and %d", w, old, n))
			}
			set[k] = n
		}
	}
	for _, lang := range []string{"en", "it", "fr", "nl", "de"} {
		for n := 11; n <= maxNumberWord; n++ {
			c, o := numberWordsOf(lang, n)
			add(card, n, c...)
			add(ord, n, o...)
		}
	}
	return card, ord
}

// numberPart returns the words of a line of [number-parts] in file order
// (a part may repeat: French 60 and 70 share "soixante").
func numberPart(name string) []string {
	ws, ok := wordSections["number-parts/"+name]
	if !ok {
		panic("mailfmt: words/reply.txt [number-parts] has no " + name)
	}
	return ws
}

// numberWordsOf returns the cardinals and ordinals of n (11 to 99) in
// lang, by the rule of the language (doc.go "# Answers"):
//
//   - en: tens, then the unit ("twenty-one"); the ordinal ends in the
//     unit's ordinal ("twenty-first"), teens and tens listed.
//   - it: tens then unit, the tens' last vowel elided before "uno" and
//     "otto" ("ventuno", "ventotto"); the ordinal is the cardinal without
//     its last vowel plus -esimo/-esima, "tre" and "sei" keeping theirs
//     ("undicesima", "ventitreesimo").
//   - fr: tens "et" one at 21-71 ("vingt et un", "soixante et onze"),
//     else tens then unit or teen (70 is sixty-ten, 90 four-twenty-ten),
//     80 "quatre-vingts"; "une" for a feminine one; the ordinal adds
//     -ième, a last "e" dropped, cinq->cinqu, neuf->neuv ("vingt et
//     unième", "quatre-vingtième").
//   - nl: unit "en" tens ("eenentwintig", "tweeëntwintig"); the ordinal
//     adds -de to 11-19, -ste from 20 ("elfde", "eenentwintigste").
//   - de: unit "und" tens ("einundzwanzig"); the ordinal adds -te to
//     11-19, -ste from 20, with its endings ("elfte", "einundzwanzigsten").
func numberWordsOf(lang string, n int) (cardinals, ordinals []string) {
	p := func(part string) []string { return numberPart(lang + "-" + part) }
	tens, unit := n/10, n%10
	if n < 20 {
		cardinals = []string{p("teen")[n-10]}
	}
	switch lang {
	case "en":
		if n < 20 {
			return cardinals, []string{p("teen-ordinal")[n-10]}
		}
		if unit == 0 {
			return p("tens")[tens-2 : tens-1], []string{p("tens-ordinal")[tens-2]}
		}
		t := p("tens")[tens-2]
		return []string{t + "-" + p("unit")[unit-1]}, []string{t + "-" + p("unit-ordinal")[unit-1]}
	case "it":
		if n >= 20 {
			t, u := p("tens")[tens-2], ""
			if unit > 0 {
				u = p("unit")[unit-1]
			}
			if strings.HasPrefix(u, "u") || strings.HasPrefix(u, "o") {
				t = t[:len(t)-1] // venti + uno: ventuno
			}
			cardinals = []string{t + u}
		}
		k := numberKey(cardinals[0])
		if !strings.HasSuffix(k, "tre") && !strings.HasSuffix(k, "sei") {
			k = k[:len(k)-1]
		}
		for _, suf := range p("ordinal-suffix") {
			ordinals = append(ordinals, k+suf)
		}
		return cardinals, ordinals
	case "fr":
		if n >= 20 {
			t := p("tens")[tens-2]
			switch {
			case tens == 7 || tens == 9:
				rest := p("teen")[unit]
				if n == 71 {
					rest = p("and")[0] + " " + rest
				}
				cardinals = []string{t + "-" + rest}
			case n == 80:
				cardinals = []string{t + "s", t}
			case unit == 0:
				cardinals = []string{t}
			case unit == 1 && tens < 8:
				one := p("and")[0] + " " + p("unit")[0]
				cardinals = []string{t + " " + one, t + " " + p("and")[0] + " " + p("one-feminine")[0]}
			default:
				cardinals = []string{t + "-" + p("unit")[unit-1]}
			}
		}
		for _, c := range cardinals {
			k := strings.TrimSuffix(numberKey(c), "e")
			if strings.HasSuffix(k, "vingts") {
				k = strings.TrimSuffix(k, "s") // quatre-vingts: quatre-vingtième
			}
			switch {
			case strings.HasSuffix(k, "cinq"):
				k += "u"
			case strings.HasSuffix(k, "neuf"):
				k = strings.TrimSuffix(k, "f") + "v"
			}
			ordinals = append(ordinals, k+p("ordinal-suffix")[0])
		}
		return cardinals, ordinals
	case "nl", "de":
		if n >= 20 {
			t := p("tens")[tens-2]
			if unit == 0 {
				cardinals = []string{t}
			} else {
				u, and := p("unit")[unit-1], p("and")[0]
				if lang == "nl" && strings.HasSuffix(u, "e") {
					and = "ë" + and[1:] // twee + en: tweeëntwintig
				}
				cardinals = []string{u + and + t}
			}
		}
		suf := p("ordinal-suffix")[min(tens, 2)-1] // 11-19: -de/-te; from 20: -ste
		k := numberKey(cardinals[0]) + suf
		if lang == "nl" {
			return cardinals, []string{k}
		}
		for _, end := range p("ordinal-ending") {
			ordinals = append(ordinals, strings.TrimSuffix(k, "e")+end)
		}
		return cardinals, ordinals
	}
	panic("mailfmt: no number rule for " + lang)
}

// foldAccents removes the accents of a word ("deuxième": "deuxieme",
// "fünf": "funf"). A transform.Chain keeps its state between calls, so
// each call makes its own: one shared by every reader raced when mails
// are read at once (TestEveryMailReadOnce under -race,
// TestNumberKeysReadAtOnce).
func foldAccents() transform.Transformer {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}

// numberKeyGlue are the hyphens and spaces a number word's key drops, and
// "ß", read "ss".
var numberKeyGlue = strings.NewReplacer("-", "", " ", "", "ß", "ss")

// numberKey is the key of a number word as read: lower-case, without
// accents, hyphens or spaces ("Vingt-et-Un", "vingt et un": "vingtetun").
func numberKey(w string) string {
	w = numberKeyGlue.Replace(strings.ToLower(w))
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			if k, _, err := transform.String(foldAccents(), w); err == nil {
				return k
			}
			break
		}
	}
	return w
}
