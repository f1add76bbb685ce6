package boards

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/dicebrewing/view"
	"github.com/pbem-referee/referee/templates"
)

// Dice Brewing (DB-6.2: every die, seed, coin, XP, brewed card, stock and
// the display are public; DB-6.3 the deck's order and DB-6.6 face-down
// action tokens are not, and the public view leaves them out).

func init() { registerView("dicebrewing", drawDiceBrewing) }

func drawDiceBrewing(b *board, v view.View) error {
	if v.Seat != -1 || v.Me != nil {
		return ErrNotPublic
	}
	b.useSeats(v.Seats)
	// The header: round, season, step, whose turn.
	b.header(v, b.seats)

	// The end trigger and the supply (DB-1.3, DB-2.2).
	b.c.open("db-supply")
	b.y += 8
	b.c.text(8, b.y+10, normal, "start", "", fitWidth(b.w("brewed", v), 226, normal))
	bar := 150
	b.c.rect(240, b.y, bar, 10, "#eee", "#888")
	if v.Target > 0 {
		b.c.rect(240, b.y, min(bar, bar*v.Brewed/v.Target), 10, "#b5651d", "")
	}
	b.y += 26
	b.c.text(8, b.y, small, "start", "#555", fitWidth(b.w("supply", nil), 180, small))
	b.c.text(width-8, b.y, small, "end", "", fitWidth(b.w("deck", v.DeckSize), 190, small))
	b.y += 24
	x := 8
	for _, d := range []struct {
		c string
		n int
	}{{"Y", v.Supply.Y}, {"K", v.Supply.K}, {"G", v.Supply.G}, {"B", v.Supply.B}} {
		dbDie(b.c, x, b.y-14, d.c, d.c)
		b.c.text(x+26, b.y, normal, "start", "", "×"+itoa(d.n))
		x += 58
	}
	b.c.text(x, b.y, normal, "start", "", fitWidth(b.w("seeds", v.Supply.Seeds), width-8-x, normal))
	b.c.close()
	b.y += 6

	// The display (DB-5.9), two cards a row.
	b.heading(b.w("display", nil))
	b.c.open("db-display")
	cw, ch := 188, 82
	for _, card := range v.Display {
		if len(card.Tokens) > 0 {
			ch = 104 // a row for the required ingredients' names
		}
	}
	for i, card := range v.Display {
		cx, cy := 8+(i%2)*(cw+8), b.y+(i/2)*(ch+6)
		dbCard(b, cx, cy, cw, ch, card)
	}
	b.y += ((len(v.Display)+1)/2)*(ch+6) - 6
	b.c.close()

	// The Market and the Black Market (DB-5.7).
	dbStacks(b, "db-market", b.w("market", nil), v.MarketOpen, v.MarketOpens, len(v.Market), func(i int) (string, int, int) {
		return b.dbName("ingredient", v.Market[i].Code), v.Market[i].Stock, v.Market[i].Price
	})
	dbStacks(b, "db-blackmarket", b.w("blackmarket", nil), v.BMOpen, v.BMOpens, len(v.BlackMarket), func(i int) (string, int, int) {
		return b.dbName("token", v.BlackMarket[i].Code), v.BlackMarket[i].Stock, v.BlackMarket[i].Price
	})
	if v.BMFaceDown > 0 {
		// DB-6.6: the stocks still count the tokens taken face down, whose
		// types only their holders know; say how many there are.
		b.para(b.w("bmfacedown", v.BMFaceDown), small, "#555")
		b.y += 4
	}

	// Every player's table: dice, board spaces, tokens, brewed cards.
	b.heading(b.w("players", nil))
	for _, p := range v.Players {
		dbPlayer(b, p)
	}
	if len(v.Scores) > 0 {
		b.finalScores("db-scores", len(v.Scores), func(i int) (int, any) { return v.Scores[i].Seat, v.Scores[i] })
	}
	b.keyFooter()
	return nil
}

// Die colours (DB-2): yellow, black, green, blue; the die's text (colour
// letter and value) is written on it.
func dbDieColours(c string) (fill, ink string) {
	switch c {
	case "Y":
		return "#f4c430", "#222"
	case "K":
		return "#2b2b2b", "#fff"
	case "G":
		return "#3d9140", "#fff"
	case "B":
		return "#2f6bc4", "#fff"
	}
	return "#ccc", "#222"
}

func dbDie(c *canvas, x, y int, colour, text string) {
	fill, ink := dbDieColours(colour)
	c.rect(x, y, 22, 18, fill, "#222")
	c.text(x+11, y+13, small+1, "middle", ink, text)
}

// dbDieView draws a die of a view with its SHIELD mark (a thick outline,
// and "!" for a blocked die, "=" for a protected one).
func dbDieView(c *canvas, x, y int, d view.DieView) {
	text := d.Text
	switch d.Shield {
	case "blocked":
		text += "!"
	case "protected":
		text += "="
	}
	fill, ink := dbDieColours(d.Colour)
	w := 22
	if len(text) > 2 {
		w = 28
	}
	stroke := "#222"
	if d.Shield != "" {
		stroke = "#d00"
	}
	c.rect(x, y, w, 18, fill, stroke)
	c.text(x+w/2, y+13, small+1, "middle", ink, text)
}

func dbDice(b *board, x, y int, dice []view.DieView) int {
	for _, d := range dice {
		if x > width-40 {
			x = 8 + 56
			y += 22
		}
		dbDieView(b.c, x, y, d)
		x += 24
		if len(d.Text) > 2 || d.Shield != "" {
			x += 6
		}
	}
	return y
}

func dbCard(b *board, x, y, w, h int, card view.CardView) {
	b.c.open("db-card", "data-slot", itoa(card.Slot))
	fill := "#fbf3e4"
	if card.ID == "" {
		fill = "#f0f0f0"
	}
	b.c.rect(x, y, w, h, fill, "#9c7a4b")
	b.c.text(x+5, y+15, small, "start", "#555", itoa(card.Slot))
	if card.ID == "" {
		b.c.text(x+w/2, y+h/2+4, normal, "middle", "#777", b.w("empty", nil))
		b.c.close()
		return
	}
	b.c.bold(x+16, y+15, normal, "start", fitWidth(b.w("name", card), w-22, normal))
	b.c.text(x+5, y+31, small, "start", "#555", fitWidth(card.ID+" · "+b.w("level", card.Level), w-10, small))
	dx := x + 5
	for _, d := range card.Base {
		if d == "" {
			continue
		}
		dbDie(b.c, dx, y+38, d[:1], d)
		dx += 24
	}
	// The required ingredients by name, on a row of their own (issue 24).
	dx = x + 5
	for _, t := range card.Tokens {
		n := b.dbName("ingredient", t)
		tw := min(textWidth(n, small)+8, x+w-5-dx)
		b.c.rect(dx, y+60, tw, 18, "#fff", "#888")
		b.c.text(dx+tw/2, y+73, small, "middle", "", fitWidth(n, tw-4, small))
		dx += tw + 4
	}
	b.c.text(x+5, y+h-8, small, "start", "", fitWidth(b.w("reward", card.Reward), w-10, small))
	if card.Blocked {
		b.c.rect(x+w-66, y+2, 62, 17, "#d00", "")
		b.c.text(x+w-35, y+15, small, "middle", "#fff", fitWidth(b.w("blocked", card.BlockedBy), 58, small))
	}
	b.c.close()
}

// dbName is the name of an ingredient or action token (kind
// "ingredient", "token") in the reader's language, from the game's
// card.name (issue 24); the code itself when the template has none.
func (b *board) dbName(kind, code string) string {
	ctx := templates.Ctx{Lang: b.lang, Game: b.game, Seat: -1, Seats: b.seats, Data: engine.Card{Kind: kind, ID: code, Code: code},
		Word: func(kw string) string { return b.set.Word(b.game, b.lang, kw) }}
	n, err := b.set.Render(b.game, b.lang, "card.name", ctx)
	if err != nil || strings.TrimSpace(n) == "" {
		return code
	}
	return n
}

// dbStacks draws the stacks of a market, three a row, each with its name
// (wrapped whole over lines, the row as tall as its longest name), its
// stock and its price.
func dbStacks(b *board, class, title string, open bool, opens, n int, item func(int) (string, int, int)) {
	b.heading(title)
	b.c.open(class)
	if !open {
		b.c.text(width-8, b.y-6, small, "end", "#a00", b.w("opens", opens))
	}
	per := 3
	sw := (width - 16 - (per-1)*4) / per
	g := gap(small)
	for row := 0; row*per < n; row++ {
		lines := make([][]string, 0, per)
		tall := 1
		for i := row * per; i < min(n, (row+1)*per); i++ {
			name, _, _ := item(i)
			l := wrapText(name, sw-6, small)
			lines = append(lines, l)
			tall = max(tall, len(l))
		}
		bh := 52 + (tall-1)*g
		for k := range lines {
			_, stock, price := item(row*per + k)
			sx := 8 + k*(sw+4)
			fill := "#fff"
			if stock == 0 {
				fill = "#eee"
			}
			b.c.rect(sx, b.y, sw, bh, fill, "#888")
			for j, l := range lines[k] {
				b.c.bold(sx+sw/2, b.y+15+j*g, small, "middle", l)
			}
			b.c.text(sx+sw/2, b.y+bh-21, small, "middle", "", fitWidth(b.w("left", stock), sw-4, small))
			b.c.text(sx+sw/2, b.y+bh-5, small, "middle", "", fitWidth(b.w("price", price), sw-4, small))
		}
		b.y += bh + 4
	}
	b.y -= 4
	b.c.close()
}

// dbPlayer draws one player's table (DB-2.5).
func dbPlayer(b *board, p view.PlayerView) {
	b.c.open("db-player", "data-seat", itoa(p.Seat))
	top := b.y + 4
	b.y += 20
	b.c.token(18, b.y-4, 8, p.Seat)
	b.nameLine(b.name(p.Seat), b.w("purse", p))
	b.y += 8
	b.c.text(8, b.y+14, small, "start", "#555", fitWidth(b.w("ar", nil), 54, small))
	b.y = dbDice(b, 64, b.y, p.AR) + 22
	b.c.text(8, b.y+14, small, "start", "#555", fitWidth(b.w("st", nil), 54, small))
	b.y = dbDice(b, 64, b.y, p.ST) + 26

	// The board: four buildings, eleven spaces (§8.2).
	cols := []string{"MH", "HP", "SS", "DS"}
	colw := (width - 16 - 3*4) / 4
	rows := 0
	for k, bld := range cols {
		bx := 8 + k*(colw+4)
		b.c.text(bx+2, b.y+11, small, "start", "#555", fitWidth(b.w("building", bld), colw-4, small))
		r := 0
		for _, sp := range p.Board {
			if sp.Building != bld {
				continue
			}
			sy := b.y + 16 + r*40
			fill := "#fff"
			if !sp.Free {
				fill = "#e8e8e8"
			}
			b.c.rect(bx, sy, colw, 37, fill, "#888")
			b.c.text(bx+3, sy+13, small, "start", "#555", sp.Space)
			if sp.Item != "" {
				if sp.Item == "SEED" {
					b.c.circle(bx+colw/2+6, sy+10, 6, "#c9a14a", "#6b5420")
					b.c.text(bx+colw/2+15, sy+15, small, "start", "", "S")
				} else {
					dbDie(b.c, bx+colw/2-4, sy+2, sp.Item[:1], sp.Item)
				}
			}
			if sp.Speed != "" {
				dbDie(b.c, bx+colw-24, sy+17, sp.Speed[:1], sp.Speed)
			}
			for u, seat := range sp.Users {
				b.c.token(bx+11+u*18, sy+27, 8, seat)
			}
			r++
		}
		rows = max(rows, r)
	}
	b.y += 16 + rows*40
	var parts []string
	if len(p.Ingredients) > 0 {
		parts = append(parts, b.w("ingredients", p.Ingredients))
	}
	if p.Tokens != nil {
		parts = append(parts, b.w("tokens", p.Tokens))
	} else if p.TokenCount > 0 {
		parts = append(parts, b.w("facedown", p.TokenCount))
	}
	parts = append(parts, b.w("brewedby", p.Brewed))
	if p.Passed {
		parts = append(parts, b.w("passed", nil))
	}
	b.para(strings.Join(parts, " · "), small+1, "")
	b.closeSeat(top, p.Seat, 6)
}
