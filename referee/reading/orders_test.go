package reading

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/templates"
)

// joinedOrders is the reading of a seat's orders as it was before issue
// 25's fix, kept as the oracle of TestOrdersReadOnceAsJoined: the lines
// the answer reader resolved were joined into a text and parsed again
// (engine.ParseScript), a written ELSE PASS of any language rewritten in
// the whole text first and the player's words given back after.
func joinedOrders(v Vocab, lang string, lines []mailfmt.AnswerLine) []engine.Order {
	out := make([]string, len(lines))
	for i, l := range lines {
		switch l.Kind {
		case mailfmt.AnswerCommand:
			out[i] = l.Text
		case mailfmt.AnswerOption:
			out[i] = fmt.Sprint(l.Option)
		case mailfmt.AnswerAsk:
			out[i] = l.Raw
		}
	}
	text := strings.Join(out, "\n")
	read := joinedLocalElsePass(v, text)
	orders := engine.ParseScript(read)
	joinedKeepWrittenElsePass(text, read, orders)
	for i := range orders {
		for k := range orders[i].Alts {
			for j, line := range orders[i].Alts[k] {
				orders[i].Alts[k][j] = v.CanonLine(lang, line)
			}
		}
	}
	attach(v, lang, lines, orders)
	return orders
}

func joinedLocalElsePass(v Vocab, text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		body, comment, hasComment := strings.Cut(l, "#")
		f := strings.Fields(body)
		if len(f) < 3 || v.T.Arg(v.Name, "en", f[len(f)-2]) != "ELSE" && !strings.EqualFold(f[len(f)-2], "ELSE") {
			continue
		}
		pass := strings.ToUpper(f[len(f)-1])
		for _, lg := range templates.Languages {
			if kw := v.T.Alias(v.Name, lg, pass); kw != pass {
				pass = kw
				break
			}
		}
		if pass != "PASS" {
			continue
		}
		l = strings.Join(append(f[:len(f)-2], "ELSE", "PASS"), " ")
		if hasComment {
			l += " #" + comment
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

func joinedKeepWrittenElsePass(orig, read string, orders []engine.Order) {
	if orig == read {
		return
	}
	ol, rl := strings.Split(orig, "\n"), strings.Split(read, "\n")
	if len(ol) != len(rl) {
		return
	}
	bareOf := func(l string) string {
		if k := strings.IndexByte(l, '#'); k >= 0 {
			l = l[:k]
		}
		return strings.Join(strings.Fields(l), " ")
	}
	for i := range orders {
		n := orders[i].Line - 1
		if n < 0 || n >= len(ol) || ol[n] == rl[n] || orders[i].Text != bareOf(rl[n]) {
			continue
		}
		orders[i].Text = bareOf(ol[n])
	}
}

// testVocabs are the vocabularies of every registered game, with the
// referee's words, as the core gives them (referee.vocab).
func testVocabs(t testing.TB) []Vocab {
	t.Helper()
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	var vs []Vocab
	for _, g := range engine.Games() {
		vs = append(vs, Vocab{T: set, Game: g, Name: g.Info().Name, Referee: cmdtable.ReadingWords})
	}
	if len(vs) < 4 {
		t.Fatalf("%d games registered", len(vs))
	}
	return vs
}

// answerPieces are the words a generated answer is made of, for a game:
// its commands and their aliases in every language, the referee's, the
// script's syntax, option forms, chat, typos and ELSE PASS in every
// language.
func answerPieces(v Vocab) (words, lines []string) {
	for _, c := range v.Game.Info().Commands {
		words = append(words, c, strings.ToLower(c))
	}
	for _, lang := range templates.Languages {
		for _, scope := range []string{"common", "referee", v.Name} {
			als := v.T.Aliases(scope, lang)
			keys := make([]string, 0, len(als))
			for a := range als {
				keys = append(keys, a)
			}
			sort.Strings(keys)
			for k, a := range keys {
				if k%3 == 0 {
					words = append(words, a)
				}
			}
		}
	}
	words = append(words, "PASS", "paas", "SAY", "ELSE", "HP1", "MH1", "SEED", "B3", "seme", "2", "12", "x")
	lines = []string{
		"", "  ", "\t", "Hi!", "thanks", "Ciao!", "option 2", "2.", "2) PLACE HP1 SEED", "3 - PASS", "I take option 2 please",
		"NEXT", "OR", "END", "next", "PASS ELSE PASS", "PLACE MH1 SEED ALTRIMENTI PASSA", "PLACE HP1 SEED SINON PASSE",
		"PLACE HP1 SEED ANDERS PAS", "PLACE HP1 SEED else pass # mine", "PASS | 2", "PLACE MH1 SEED; PASS", "# only a comment",
		"SAY all: hello | there; you", "👍", "PASS\r", "Grazie", "ELSE PASS", "x ELSE PASS", "1 | 2 ELSE PASS",
	}
	return words, lines
}

// genAnswer makes one generated answer text of a game.
func genAnswer(r *rand.Rand, words, lines []string) string {
	n := 1 + r.IntN(9)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if r.IntN(5) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		if r.IntN(3) == 0 {
			b.WriteString(lines[r.IntN(len(lines))])
			continue
		}
		k := 1 + r.IntN(4)
		for j := range k {
			if j > 0 {
				b.WriteString([]string{" ", "  ", " | ", "; ", ", ", " ELSE ", " # "}[r.IntN(7)])
			}
			b.WriteString(words[r.IntN(len(words))])
		}
	}
	return b.String()
}

// compareOrders fails when the one reading's orders of a text differ from
// the joined text's (the oracle).
func compareOrders(t testing.TB, v Vocab, lang, text string) bool {
	t.Helper()
	lines := Reader(v).Read(text)
	got := v.orders(lang, lines)
	want := joinedOrders(v, lang, lines)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s/%s %q:\nread once %+v\njoined    %+v", v.Name, lang, text, got, want)
		return false
	}
	return true
}

// Rule (issue 25, one reading): the lines the answer reader resolved are
// given to the engine's script reader each once, never joined and parsed
// again, with the same orders as the joined text gave (the oracle,
// joinedOrders): 1,500 generated answers per game and language (commands
// and aliases of every language, option forms, chat, typos, blocks,
// alternatives, a written ELSE PASS of every language, comments, CRLF).
func TestOrdersReadOnceAsJoined(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	cases, withOrders, elsePass := 0, 0, 0
	for _, v := range testVocabs(t) {
		words, lines := answerPieces(v)
		for _, lang := range templates.Languages {
			for range 1500 {
				text := genAnswer(r, words, lines)
				cases++
				if !compareOrders(t, v, lang, text) && t.Failed() && cases > 50 {
					t.FailNow()
				}
				o := v.orders(lang, Reader(v).Read(text))
				if len(o) > 0 {
					withOrders++
				}
				for _, x := range o {
					if x.ElsePass {
						elsePass++
					}
				}
			}
		}
	}
	if withOrders < cases/2 || elsePass < 100 {
		t.Fatalf("%d answers, %d with orders, %d ELSE PASS: the generator makes too few orders to compare", cases, withOrders, elsePass)
	}
}

// FuzzOrdersReadOnceAsJoined: any text, every game's vocabulary, read
// once as joined.
func FuzzOrdersReadOnceAsJoined(f *testing.F) {
	for _, s := range []string{"PASS", "2) PLACE HP1 SEED\nHi!", "NEXT\nPASS\nOR\n2\nEND", "PIAZZA MH1 SEME ALTRIMENTI PASSA", "a\r\nb | c; d # e"} {
		f.Add(s, 0)
	}
	vs := testVocabs(f)
	f.Fuzz(func(t *testing.T, text string, k int) {
		if len(text) > 4<<10 {
			return
		}
		k = (k%len(vs) + len(vs)) % len(vs)
		compareOrders(t, vs[k], templates.Languages[k%len(templates.Languages)], text)
	})
}

// BenchmarkOrders: the orders of 200 generated answers per game, read
// once (the lines to engine.Script) and, as before issue 25's fix, joined
// and parsed again (joinedOrders); the answer reader's reading of the
// lines is done once outside the loop.
func BenchmarkOrders(b *testing.B) {
	type answer struct {
		v     Vocab
		lines []mailfmt.AnswerLine
	}
	r := rand.New(rand.NewPCG(25, 2))
	var as []answer
	for _, v := range testVocabs(b) {
		words, lines := answerPieces(v)
		for range 200 {
			as = append(as, answer{v, Reader(v).Read(genAnswer(r, words, lines))})
		}
	}
	for _, c := range []struct {
		name string
		f    func(Vocab, string, []mailfmt.AnswerLine) []engine.Order
	}{{"once", func(v Vocab, lang string, ls []mailfmt.AnswerLine) []engine.Order { return v.orders(lang, ls) }}, {"joined", joinedOrders}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				a := as[i%len(as)]
				c.f(a.v, "it", a.lines)
			}
		})
	}
}
