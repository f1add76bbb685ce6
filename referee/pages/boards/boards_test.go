package boards

import (
	"bytes"
	"encoding/xml"
	"flag"
	"html"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/engine/fromage"
	"github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/templates"
)

var update = flag.Bool("update", false, "rewrite the golden boards in testdata")

// midgame is a real position of each game, reached by the game's greedy
// bots from a fixed seed: the options and the number of moves are chosen
// so that every part of the board has something on it.
var midgame = map[string]struct {
	seats   []string
	variant string
	options map[string]string
	bot     string
	pcg     uint64
	moves   int
}{
	// Face-down action tokens (DB-6.6), one of them held: the board must
	// show their count only.
	"dicebrewing": {[]string{"Ann", "Bob", "Cleo"}, "", map[string]string{"hidden_action_tokens": "true"}, "random", 5, 150},
	// Two tokens placed in the turn under way (FR-6.4): not shown yet.
	"fromage":   {[]string{"Ann", "Bob", "Cleo"}, "", nil, "greedy", 16, 60},
	"heavenale": {[]string{"Ann", "Bob", "Cleo"}, "", nil, "greedy", 16, 150},
	// Five undeveloped Secret Recipes held (BC-6.2): counted, never named.
	"brewcrafters": {[]string{"Ann", "Bob", "Cleo"}, "complex", nil, "random", 1, 100},
}

// position plays the game's mid-game position.
func position(t testing.TB, game string) engine.State {
	t.Helper()
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := midgame[game]
	if !ok {
		t.Fatalf("no mid-game position for %q", game)
	}
	var bots []engine.Bot
	for range m.seats {
		b, err := g.(engine.BotMaker).NewBot(m.bot)
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	st, n, err := engine.PlayOut(g, engine.Config{Seats: m.seats, Seed: "board-" + game, Variant: m.variant, Options: m.options},
		bots, rand.New(rand.NewPCG(m.pcg, 1)), false, m.moves)
	if st == nil || st.Result() != nil || n != m.moves {
		t.Fatalf("%s: no mid-game position after %d moves: %v", game, n, err)
	}
	return st
}

// wellFormed parses an SVG document as XML and returns its root's name and
// its elements' names.
func wellFormed(t testing.TB, svg []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	names := map[string]int{}
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if depth == 0 && (x.Name.Local != "svg" || x.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v", x.Name)
			}
			depth++
			names[x.Name.Local]++
		case xml.EndElement:
			depth--
		}
	}
	return names
}

// TestBoardGolden draws each game's mid-game position and compares it with
// testdata/<game>.svg (go test -update rewrites them; look at them in a
// browser before committing).
func TestBoardGolden(t *testing.T) {
	for _, game := range Games() {
		t.Run(game, func(t *testing.T) {
			st := position(t, game)
			svg, err := Draw(game, "en", st.Head().Seats, st.View(-1))
			if err != nil {
				t.Fatal(err)
			}
			names := wellFormed(t, svg)
			if names["title"] == 0 || names["desc"] == 0 || names["text"] < 20 {
				t.Errorf("elements %v", names)
			}
			path := filepath.Join("testdata", game+".svg")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(path, svg, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(svg, want) {
				os.WriteFile(filepath.Join(t.TempDir(), game+".svg"), svg, 0o644)
				t.Fatalf("%s differs from the golden board (go test -update, then look at it)", path)
			}
		})
	}
}

// TestBoardEveryLanguage: every board draws in every language, its words
// differ from English's, and no template name is missing.
func TestBoardEveryLanguage(t *testing.T) {
	for _, game := range Games() {
		st := position(t, game)
		en, err := Draw(game, "en", st.Head().Seats, st.View(-1))
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range templates.Languages[1:] {
			svg, err := Draw(game, lang, st.Head().Seats, st.View(-1))
			if err != nil {
				t.Fatalf("%s/%s: %v", game, lang, err)
			}
			wellFormed(t, svg)
			if dir := os.Getenv("BOARDS_OUT"); dir != "" {
				os.WriteFile(filepath.Join(dir, game+"."+lang+".svg"), svg, 0o644)
			}
			same := bytes.Replace(svg, []byte(`lang="`+lang+`"`), []byte(`lang="en"`), 1)
			if bytes.Equal(same, en) || !strings.Contains(string(svg), `lang="`+lang+`"`) {
				t.Errorf("%s/%s: the board is not in its language", game, lang)
			}
		}
	}
}

// BenchmarkDraw draws each game's mid-game board (a page view draws one).
func BenchmarkDraw(b *testing.B) {
	for _, game := range Games() {
		st := position(b, game)
		view, seats := st.View(-1), st.Head().Seats
		b.Run(game, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Draw(game, "en", seats, view); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBoardGameOver: a finished game's board draws in every language,
// with its final scores.
func TestBoardGameOver(t *testing.T) {
	for _, game := range Games() {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		m := midgame[game]
		var bots []engine.Bot
		for range m.seats {
			b, _ := g.(engine.BotMaker).NewBot("greedy")
			bots = append(bots, b)
		}
		st, _, err := engine.PlayOut(g, engine.Config{Seats: m.seats, Seed: "over-" + game, Variant: m.variant, Options: m.options},
			bots, rand.New(rand.NewPCG(7, 7)), false, 0)
		if err != nil || st.Result() == nil {
			t.Fatalf("%s: %v", game, err)
		}
		for _, lang := range templates.Languages {
			svg, err := Draw(game, lang, st.Head().Seats, st.View(-1))
			if err != nil {
				t.Fatalf("%s/%s: %v", game, lang, err)
			}
			wellFormed(t, svg)
			set, _ := loadSet()
			final, _ := set.Render(game, lang, "board.final", templates.Ctx{Lang: lang, Data: finalData(st.View(-1))})
			if !strings.Contains(string(svg), esc(final)) {
				t.Errorf("%s/%s: no final scores (%q) on the board of a finished game", game, lang, final)
			}
		}
	}
}

// finalData is what a game's "board.final" template reads.
func finalData(view any) any {
	switch v := view.(type) {
	case heavenale.View:
		if v.Final != nil && len(v.Final.Players) > 0 {
			return v.Final.Players[0]
		}
	}
	return nil
}

// TestBoardEveryPosition draws the board after every move of a game played
// by random bots, for every game and a few variants: never an error, always
// well-formed.
func TestBoardEveryPosition(t *testing.T) {
	for _, game := range Games() {
		g, err := engine.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range g.Info().Variants {
			for n := 1; n <= 6; n++ {
				if !g.Info().Allows(v.Name, n) {
					continue
				}
				everyPosition(t, g, game, v.Name, []string{"Ann", "Bob", "Cleo", "Dirk", "Eva", "Finn"}[:n])
			}
		}
	}
}

func everyPosition(t *testing.T, g engine.Game, game, variant string, seats []string) {
	st, _, err := g.NewState(engine.Config{Seats: seats, Seed: "every-" + variant, Variant: variant})
	if err != nil {
		t.Fatalf("%s/%s: %v", game, variant, err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	draws := 0
	for moves := 0; st.Result() == nil && moves < 250; moves++ {
		// Every fifth position, in turn in every language (the race
		// detector makes each drawing slow).
		if moves%5 == 0 {
			svg, err := Draw(game, templates.Languages[moves/5%4], seats, st.View(-1))
			if err != nil {
				t.Fatalf("%s/%s move %d: %v", game, variant, moves, err)
			}
			wellFormed(t, svg)
			draws++
		}
		pend := st.Pending()
		d := pend[0]
		for _, p := range pend[1:] {
			if p.Rank < d.Rank {
				d = p
			}
		}
		opts := st.Legal(d)
		mv, err := st.Parse(d.Seat, opts[rng.IntN(len(opts))].Cmd)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(d.Seat, mv); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Draw(game, "en", seats, st.View(-1)); err != nil {
		t.Fatalf("%s/%s at the end: %v", game, variant, err)
	}
	t.Logf("%s/%s, %d players: %d boards drawn", game, variant, len(seats), draws)
}

// TestEveryBoardHasItsKey (issue 24: a board readable without the
// rulebook): every game's board, in every language, ends with its key
// (the group "key"), whose words are the language's own and explain the
// board's codes.
func TestEveryBoardHasItsKey(t *testing.T) {
	keyRe := regexp.MustCompile(`(?s)<g class="key">(.*?)</g>`)
	textRe := regexp.MustCompile(`>([^<]+)</text>`)
	for _, game := range Games() {
		st := position(t, game)
		keys := map[string]string{}
		for _, lang := range templates.Languages {
			svg, err := Draw(game, lang, st.Head().Seats, st.View(-1))
			if err != nil {
				t.Fatal(err)
			}
			m := keyRe.FindStringSubmatch(string(svg))
			if m == nil {
				t.Fatalf("%s in %s: no key", game, lang)
			}
			var words []string
			for _, x := range textRe.FindAllStringSubmatch(m[1], -1) {
				words = append(words, x[1])
			}
			key := strings.Join(words, " ")
			if len(strings.Fields(key)) < 12 {
				t.Errorf("%s in %s: key %q", game, lang, key)
			}
			for other, k := range keys {
				if k == key {
					t.Errorf("%s: the key in %s is the one in %s", game, lang, other)
				}
			}
			keys[lang] = key
		}
	}
}

// spaceRe finds a drawn Heaven & Ale space: its whole name and the texts
// of its name's lines.
var spaceRe = regexp.MustCompile(`(?s)<g class="ha-space" data-n="(\d+)" data-name="([^"]*)">\s*<title>([^<]*)</title>.*?<g class="ha-name">(.*?)</g>`)

// lineRe is a line of text of a drawing.
var lineRe = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)

// TestHeavenAleSpaceNamesWhole (issue 24): no space's name is cut on the
// board, in any language: the lines drawn in a space joined are its name,
// each fits the space, none has an ellipsis, and the space's title (its
// tooltip) names it whole. Checked on every space of the game's data and
// on generated names of 1 to 16 letters and digits.
func TestHeavenAleSpaceNamesWhole(t *testing.T) {
	st := position(t, "heavenale")
	v := st.View(-1).(heavenale.View)
	rng := rand.New(rand.NewPCG(24, 3))
	made := func(n int) string {
		const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ÉÅ"
		r := []rune(abc)
		var b strings.Builder
		for range n {
			b.WriteRune(r[rng.IntN(len(r))])
		}
		return b.String()
	}
	views := []heavenale.View{v}
	for k := 0; k < 4; k++ {
		g := v
		g.Track = append([]heavenale.TrackView(nil), v.Track...)
		for i := range g.Track {
			g.Track[i].Label = made(1 + (i+k*7)%16)
		}
		views = append(views, g)
	}
	for _, lang := range templates.Languages {
		for vi, view := range views {
			svg, err := Draw("heavenale", lang, nil, view)
			if err != nil {
				t.Fatal(err)
			}
			found := spaceRe.FindAllStringSubmatch(string(svg), -1)
			if len(found) != len(view.Track) {
				t.Fatalf("%s view %d: %d spaces drawn of %d", lang, vi, len(found), len(view.Track))
			}
			for i, m := range found {
				want := view.Track[i].Label
				var lines []string
				for _, l := range lineRe.FindAllStringSubmatch(m[4], -1) {
					lines = append(lines, html.UnescapeString(l[1]))
					if w := textWidth(l[1], small); w > 39-3 {
						t.Errorf("%s: space %s: line %q is %d units in a space of 36", lang, m[1], l[1], w)
					}
				}
				if got := strings.Join(lines, ""); got != want || m[2] != want || strings.Contains(got, "…") {
					t.Errorf("%s: space %s named %q drawn as %q", lang, m[1], want, lines)
				}
				if !strings.Contains(m[3], want) || !strings.Contains(m[3], m[1]) {
					t.Errorf("%s: space %s: title %q", lang, m[1], m[3])
				}
			}
		}
	}
}

// TestBoardCountsAgree (issue 22): a count on a board takes the noun's
// form the language's grammar gives it (French: 0 and 1 singular, "1
// Fruit", "2 Fruits"; Italian "1 Struttura", "2 Strutture"): Fromage's
// resources drawn with 0, 1 and 2 of each, against the singular and
// plural words of the game's templates (fr.res, fr.ress) and the
// language's plural rule.
func TestBoardCountsAgree(t *testing.T) {
	st := position(t, "fromage")
	for _, lang := range templates.Languages {
		for n := 0; n <= 2; n++ {
			v := st.View(-1).(fromage.View)
			v.Players = append([]fromage.PlayerView(nil), v.Players...)
			for i := range v.Players {
				v.Players[i].Storage, v.Players[i].Pasture, v.Players[i].Basket = n, n, n
			}
			svg, err := Draw("fromage", lang, st.Head().Seats, v)
			if err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(groupText(string(svg)))
			for _, res := range []string{"structure", "cattle", "fruit"} {
				one, many := resWord(t, lang, "fr.res", res), resWord(t, lang, "fr.ress", res)
				want, wrong := many, one
				if singular(lang, n) {
					want, wrong = one, many
				}
				has := func(w string) bool {
					return regexp.MustCompile(`(?:^|[^\pL\d])` + itoa(n) + " " + regexp.QuoteMeta(w) + `(?:$|[^\pL])`).MatchString(text)
				}
				if !has(want) || want != wrong && has(wrong) {
					t.Errorf("%s: %d %s: want %q in %q", lang, n, res, itoa(n)+" "+want, text[:min(len(text), 400)])
				}
			}
		}
	}
}

// resWord is the word for res in the dict of the template name of
// Fromage's words.tmpl in lang ({{define "fr.res"}}{{index (dict
// "structure" "Structure" ...)).
func resWord(t *testing.T, lang, name, res string) string {
	t.Helper()
	b, err := fs.ReadFile(templates.Files(), "fromage/"+lang+"/words.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`{{define "` + regexp.QuoteMeta(name) + `"}}{{index \(dict ([^)]*)\)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no %s", lang, name)
	}
	lits := regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(string(m[1]), -1)
	for i := 0; i+1 < len(lits); i += 2 {
		if lits[i][1] == res {
			return lits[i+1][1]
		}
	}
	t.Fatalf("%s: %s has no %s", lang, name, res)
	return ""
}

// singular: whether n takes the singular in lang (common/<lang>/grammar.txt).
func singular(lang string, n int) bool {
	b, err := fs.ReadFile(templates.Files(), "common/"+lang+"/grammar.txt")
	if err != nil {
		return n == 1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, list, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "singular" {
			for _, x := range strings.Split(list, ",") {
				if strings.TrimSpace(x) == itoa(n) {
					return true
				}
			}
			return false
		}
	}
	return n == 1
}

// TestBrewCraftersBoardNamesSlotsAndPortions_Issue22: Brew Crafters'
// board names the brewing line's slots (tanks, bottling lines, Brewpub)
// and the Collaboration's and Community Farm's portions in words in every
// language: no text of the board is a slot's or a portion's code (T1, B2,
// PUB, ADV, M...), and the key no longer explains them.
func TestBrewCraftersBoardNamesSlotsAndPortions_Issue22(t *testing.T) {
	st := position(t, "brewcrafters")
	codes := []string{"T1", "T2", "B1", "B2", "PUB", "ADV", "M", "H", "Y", "F"}
	text := regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
	for _, lang := range templates.Languages {
		svg, err := Draw("brewcrafters", lang, st.Head().Seats, st.View(-1))
		if err != nil {
			t.Fatal(err)
		}
		texts := text.FindAllStringSubmatch(string(svg), -1)
		if len(texts) < 50 {
			t.Fatalf("%s: only %d texts", lang, len(texts))
		}
		for _, m := range texts {
			if slices.Contains(codes, strings.TrimSpace(m[1])) {
				t.Errorf("%s: the board shows the code %q", lang, m[1])
			}
		}
		for _, w := range []string{"PUB ", "ADV "} {
			if strings.Contains(string(svg), w) {
				t.Errorf("%s: the board still explains %q", lang, w)
			}
		}
	}
}
