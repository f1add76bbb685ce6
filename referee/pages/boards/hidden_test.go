package boards

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"github.com/pbem-referee/referee/templates"
	"html"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine/brewcrafters"
	dbview "github.com/pbem-referee/referee/engine/dicebrewing/view"
	"github.com/pbem-referee/referee/engine/fromage"
)

// TestBoardRefusesSeatViews: a board is drawn from the spectators' view
// only; a seat's view (with its hand, its sealed moves, its secrets) is
// refused, in every game.
func TestBoardRefusesSeatViews(t *testing.T) {
	for _, game := range Games() {
		st := position(t, game)
		for seat := range st.Head().Seats {
			if _, err := Draw(game, "en", st.Head().Seats, st.View(seat)); !errors.Is(err, ErrNotPublic) {
				t.Errorf("%s: seat %d's view drawn: %v", game, seat, err)
			}
		}
		if _, err := Draw(game, "en", nil, "not a view"); err == nil {
			t.Errorf("%s: a string drawn as a view", game)
		}
		// A nil pointer to the game's own view is refused, never a panic.
		vt := reflect.TypeOf(st.View(-1))
		if vt.Kind() != reflect.Pointer {
			vt = reflect.PointerTo(vt)
		}
		nilView := reflect.Zero(vt).Interface()
		if _, err := Draw(game, "en", nil, nilView); err == nil {
			t.Errorf("%s: a nil %T drawn", game, nilView)
		}
	}
	if _, err := Draw("nosuchgame", "en", nil, nil); err == nil {
		t.Error("a board for an unknown game")
	}
}

// svgWords returns the words of an SVG's text and attribute values, and
// its text joined.
func svgWords(t *testing.T, svg []byte) (map[string]bool, string) {
	t.Helper()
	words := map[string]bool{}
	var all strings.Builder
	add := func(s string) {
		all.WriteString(s + "\n")
		for _, w := range wordRe.FindAllString(s, -1) {
			words[w] = true
		}
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			for _, a := range x.Attr {
				add(a.Value)
			}
		case xml.CharData:
			add(string(x))
		}
	}
	return words, all.String()
}

var wordRe = regexp.MustCompile(`[\pL\pN_]+`)

func stringLeaves(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, y := range x {
			stringLeaves(y, out)
		}
	case []any:
		for _, y := range x {
			stringLeaves(y, out)
		}
	case string:
		out[x] = true
	}
}

func jsonOf(t *testing.T, v any) (string, any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	json.Unmarshal(b, &x)
	return string(b), x
}

// TestBoardShowsNoHiddenInformation: nothing that only one seat may see
// (a value of its view absent from the public view: its hand, its secret
// recipes, its face-down tokens, its moves of a sealed turn, its standing
// orders) is written on any board, in any language.
func TestBoardShowsNoHiddenInformation(t *testing.T) {
	for _, game := range Games() {
		st := position(t, game)
		seats := st.Head().Seats
		pub, _ := jsonOf(t, st.View(-1))
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			svg, err := Draw(game, lang, seats, st.View(-1))
			if err != nil {
				t.Fatal(err)
			}
			words, text := svgWords(t, svg)
			checked := 0
			for seat := range seats {
				_, sv := jsonOf(t, st.View(seat))
				mine := map[string]bool{}
				stringLeaves(sv, mine)
				for x := range mine {
					if len(x) < 3 || strings.Contains(pub, x) {
						continue
					}
					checked++
					if strings.ContainsAny(x, " :+") {
						if strings.Contains(text, x) {
							t.Errorf("%s/%s: seat %d's hidden %q is on the board", game, lang, seat, x)
						}
					} else if words[x] {
						t.Errorf("%s/%s: seat %d's hidden %q is on the board", game, lang, seat, x)
					}
				}
			}
			if checked == 0 {
				t.Errorf("%s: the position hides nothing from spectators: the test proves nothing", game)
			}
			if lang == "en" {
				t.Logf("%s: %d hidden values checked", game, checked)
			}
		}
	}
}

// group returns the text of the SVG group <g class="class" attr="val">.
func group(svg, class, attr, val string) string {
	open := `<g class="` + class + `" ` + attr + `="` + val + `">`
	i := strings.Index(svg, open)
	if i < 0 {
		return ""
	}
	depth := 0
	for j := i; j < len(svg); j++ {
		switch {
		case strings.HasPrefix(svg[j:], "<g"):
			depth++
		case strings.HasPrefix(svg[j:], "</g>"):
			if depth--; depth == 0 {
				return svg[i:j]
			}
		}
	}
	return svg[i:]
}

// TestBoardFaceDownTokens (DB-6.6): with hidden action tokens, a player's
// tokens are counted on the board, their kinds never shown.
func TestBoardFaceDownTokens(t *testing.T) {
	st := position(t, "dicebrewing")
	svg, err := Draw("dicebrewing", "en", st.Head().Seats, st.View(-1))
	if err != nil {
		t.Fatal(err)
	}
	pub := st.View(-1).(dbview.View)
	held := 0
	for seat, p := range pub.Players {
		if p.TokenCount == 0 {
			continue
		}
		held++
		if p.Tokens != nil {
			t.Fatalf("seat %d's tokens are in the public view", seat)
		}
		g := group(string(svg), "db-player", "data-seat", itoa(seat))
		if text := groupText(g); !strings.Contains(text, itoa(p.TokenCount)+" action token") || !strings.Contains(text, "face down") {
			t.Errorf("seat %d: no count of face-down tokens:\n%s", seat, g)
		}
		own := st.View(seat).(dbview.View).Me
		for _, tk := range own.Tokens {
			if strings.Contains(g, ">"+tk.Code) || strings.Contains(g, " "+tk.Code) {
				t.Errorf("seat %d's face-down %s is on its board", seat, tk.Code)
			}
		}
	}
	if held == 0 {
		t.Fatal("nobody holds a face-down token in the position")
	}
}

// TestBoardSecretRecipes (BC-6.2): undeveloped Secret Recipes are counted
// on the board, never named.
func TestBoardSecretRecipes(t *testing.T) {
	st := position(t, "brewcrafters")
	svg, err := Draw("brewcrafters", "en", st.Head().Seats, st.View(-1))
	if err != nil {
		t.Fatal(err)
	}
	words, _ := svgWords(t, svg)
	pub := st.View(-1).(*brewcrafters.View)
	public := map[string]bool{}
	for _, r := range pub.Recipes {
		public[r.ID] = true
	}
	secrets := 0
	for seat, p := range pub.Players {
		own := st.View(seat).(*brewcrafters.View).Players[seat]
		for _, id := range own.Secrets {
			if public[id] || contains(p.Secrets, id) {
				continue
			}
			secrets++
			if words[id] {
				t.Errorf("seat %d's secret recipe %s is on the board", seat, id)
			}
		}
		text := groupText(group(string(svg), "bc-player", "data-seat", itoa(seat)))
		if p.Hidden > 0 && !strings.Contains(text, itoa(p.Hidden)+" face down") {
			t.Errorf("seat %d: its %d secret recipes are not counted", seat, p.Hidden)
		}
	}
	if secrets == 0 {
		t.Fatal("no undeveloped secret recipe in the position")
	}
}

// TestBoardSealedTurn (FR-6.4): a cheese token placed in the turn under
// way is not on the board until everyone has finished the turn.
func TestBoardSealedTurn(t *testing.T) {
	st := position(t, "fromage")
	svg, err := Draw("fromage", "en", st.Head().Seats, st.View(-1))
	if err != nil {
		t.Fatal(err)
	}
	pub := st.View(-1).(fromage.View)
	sealed := 0
	for seat := range st.Head().Seats {
		sv := st.View(seat).(fromage.View)
		for i, ve := range sv.Venues {
			for j, sp := range ve.Spaces {
				if sp.Owner == pub.Venues[i].Spaces[j].Owner {
					continue
				}
				sealed++
				g := group(string(svg), "fr-space", "data-space", sp.ID)
				if g == "" {
					t.Fatalf("no space %s on the board", sp.ID)
				}
				if strings.Contains(g, `class="seat`+itoa(seat)+`"`) {
					t.Errorf("seat %d's sealed token on %s is on the board:\n%s", seat, sp.ID, g)
				}
			}
		}
	}
	if sealed == 0 {
		t.Fatal("no sealed placement in the position")
	}
}

// TestBoardHostileNames: players' names are the players' own text; on a
// board they stay text (escaped), whatever they hold, and the document
// stays well-formed with no script.
func TestBoardHostileNames(t *testing.T) {
	hostile := []string{`<script>alert(1)</script>`, `Ann & "Bob" <b>`, `]]><svg onload=alert(1)>`}
	for _, game := range Games() {
		st := position(t, game)
		seats := append([]string(nil), hostile...)[:len(st.Head().Seats)]
		svg, err := Draw(game, "en", seats, st.View(-1))
		if err != nil {
			t.Fatal(err)
		}
		wellFormed(t, svg)
		low := strings.ToLower(string(svg))
		for _, bad := range []string{"<script", "<b>", "<svg onload", "onload="} {
			if strings.Contains(low, bad) && !(bad == "onload=" && strings.Contains(low, "&lt;svg onload=")) {
				t.Errorf("%s: %q is on the board as markup", game, bad)
			}
		}
		if !strings.Contains(string(svg), "&lt;script&gt;") {
			t.Errorf("%s: the hostile name is not on the board as text", game)
		}
	}
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

// groupText is the words of a part of a drawing, its lines joined (a
// phrase may wrap onto the next line).
func groupText(g string) string {
	return strings.Join(strings.Fields(tagRe.ReplaceAllString(g, " ")), " ")
}

// TestBoardLongNamesWhole (issue 24: never cut a name): players with long
// names are drawn whole, in the legend and at the head of their part,
// wrapped over lines, on every board in every language.
func TestBoardLongNamesWhole(t *testing.T) {
	long := []string{"Giambattista Pallavicino della Rovere", "Anne-Sophie de la Tour d'Auvergne", "Bo", "Maximiliaan van den Broek", "Zoë"}
	for _, game := range Games() {
		st := position(t, game)
		seats := long[:len(st.Head().Seats)]
		for _, lang := range templates.Languages {
			svg, err := Draw(game, lang, seats, st.View(-1))
			if err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(groupText(string(svg)))
			for _, n := range seats {
				if c := strings.Count(text, n); c < 2 {
					t.Errorf("%s/%s: %q drawn whole %d times", game, lang, n, c)
				}
			}
		}
	}
}
