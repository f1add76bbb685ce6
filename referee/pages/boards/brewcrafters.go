package boards

import (
	"strings"
	"sync"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/engine/brewcrafters"
	"github.com/pbem-referee/referee/templates"
)

// Brew Crafters (BC-6.2: nothing is hidden but each undeveloped Secret
// Recipe's identity; the public view gives their count only, and a
// Brewing token naming one shows "?").

func init() { registerView("brewcrafters", drawBrewCrafters) }

// bcCards are the cards of Brew Crafters' data file (every variant), by
// "kind:code" and "kind:id": the board names a worker, building,
// partnership, market space or recipe by its card's name in the reader's
// language (issue 24), never by its code. Read once: the data file is the
// engine's, embedded.
var bcCards = sync.OnceValue(func() map[string]engine.Card {
	out := map[string]engine.Card{}
	g, err := engine.Lookup("brewcrafters")
	if err != nil {
		return out
	}
	for _, v := range g.Info().Variants {
		st, _, err := g.NewState(engine.Config{Seats: []string{"a", "b"}, Seed: "board", Variant: v.Name})
		if err != nil {
			continue
		}
		cr, ok := st.(engine.Carder)
		if !ok {
			continue
		}
		for _, c := range cr.Cards() {
			for _, k := range []string{c.Kind + ":" + c.Code, c.Kind + ":" + c.ID} {
				if _, ok := out[k]; !ok {
					out[k] = c
				}
			}
		}
	}
	return out
})

// bcName is the name of the card of kind whose code (or id) is code, in
// the reader's language; the code itself when the data has no such card.
func (b *board) bcName(kind, code string) string {
	c, ok := bcCards()[kind+":"+code]
	if !ok {
		return code
	}
	ctx := templates.Ctx{Lang: b.lang, Game: b.game, Seat: -1, Seats: b.seats, Data: c,
		Word: func(kw string) string { return b.set.Word(b.game, b.lang, kw) }}
	n, err := b.set.Render(b.game, b.lang, "card.name", ctx)
	if err != nil || strings.TrimSpace(n) == "" {
		return code
	}
	return n
}

// bcNames names every code of a list (bcName), in its order.
func (b *board) bcNames(kind string, codes []string) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = b.bcName(kind, c)
	}
	return out
}

func drawBrewCrafters(b *board, v brewcrafters.View) error {
	if v.Seat != -1 || len(v.Brewable) > 0 {
		return ErrNotPublic
	}
	for _, r := range v.Recipes {
		if r.Secret {
			return ErrNotPublic
		}
	}
	// The view does not carry the names: without them, seats are numbered.
	if len(b.seats) == 0 {
		for i := range v.Players {
			b.seats = append(b.seats, b.w("seat", i+1))
		}
	}
	b.header(v, b.seats)

	// The season board (§8.2): twelve seasons, the current one marked.
	b.c.open("bc-seasons")
	b.y += 6
	sw := (width - 16) / 12
	cur := (v.Year-1)*4 + map[string]int{"SPRING": 0, "SUMMER": 1, "FALL": 2, "WINTER": 3}[v.Season]
	for i := 0; i < 12; i++ {
		fill := []string{"#e3f1d8", "#fbefc4", "#f3dcc4", "#dfe8f3"}[i%4]
		stroke := "#999"
		if i == cur {
			stroke = "#c0392b"
		}
		b.c.rect(8+i*sw, b.y, sw-2, 22, fill, stroke)
		b.c.text(8+i*sw+sw/2-1, b.y+15, small-1, "middle", "", itoa(i/4+1)+" "+b.w("season", i%4))
		if i == cur {
			b.c.rect(8+i*sw-1, b.y-1, sw, 24, "none", "#c0392b")
		}
	}
	b.y += 28
	b.c.close()

	// The Market Action spaces (§8.6).
	b.heading(b.w("market", nil))
	b.c.open("bc-market")
	// Each space: its number (what a player types, M1-M8), the names of
	// its halves, each wrapped to the box (never cut), its goods; the box
	// as tall as the most lines of its row. A half taken is the one named
	// in bold.
	per := 4
	mw := (width - 16 - (per-1)*4) / per
	halves := make([][][]string, len(v.Spaces))
	for i, sp := range v.Spaces {
		for _, kw := range sp.Kws {
			halves[i] = append(halves[i], wrapText(b.bcName("space", kw), mw-8, small))
		}
	}
	for row := 0; row*per < len(v.Spaces); row++ {
		lines := 1
		for i := row * per; i < min(len(v.Spaces), (row+1)*per); i++ {
			n := 0
			for _, h := range halves[i] {
				n += len(h)
			}
			lines = max(lines, n)
		}
		h := 36 + lines*gap(small)
		for i := row * per; i < min(len(v.Spaces), (row+1)*per); i++ {
			sp := v.Spaces[i]
			x, y := 8+(i%per)*(mw+4), b.y
			fill := "#fff"
			if sp.Occ >= 0 {
				fill = "#eee"
			}
			b.c.rect(x, y, mw, h, fill, "#888")
			// A space's id is drawn when it is a reference (M1-M8); an id
			// that is a word (INTERNS) is a code for its name, drawn below.
			ly := y - 1
			if strings.ContainsAny(sp.ID, "0123456789") {
				b.c.bold(x+4, y+14, small, "start", sp.ID)
				ly = y + 14
			}
			for k, hl := range halves[i] {
				taken := sp.Occ >= 0 && len(sp.Kws) > 1 && sp.Half == sp.Kws[k]
				if k > 0 {
					b.c.line(x+4, ly+4, x+mw-4, ly+4, "#bbb")
				}
				for _, l := range hl {
					ly += gap(small)
					if taken {
						b.c.bold(x+4, ly, small, "start", l)
					} else {
						b.c.text(x+4, ly, small, "start", "", l)
					}
				}
			}
			if sp.Show != "-" {
				b.c.text(x+4, y+h-6, small, "start", "#1a5d1a", sp.Show)
			}
			if sp.Occ >= 0 {
				b.c.token(x+mw-11, y+12, 8, sp.Occ)
			}
		}
		b.y += h + 4
	}
	b.y += 2
	b.c.close()

	// The Collaboration and Community Farm cards (§8.11, §8.13).
	for _, part := range []struct {
		class, title string
		list         []brewcrafters.PortionView
	}{{"bc-collab", b.w("collab", nil), v.Collab}, {"bc-cfarm", b.w("cfarm", v.CFLeft), v.CFarm}} {
		if len(part.list) == 0 {
			continue
		}
		b.heading(part.title)
		b.c.open(part.class)
		x := 8
		// Each portion by its ingredient in words (ADV: "Advanced", the
		// Collaboration's advanced-ingredient portion), as wide as its name.
		for _, p := range part.list {
			name := b.w("portion", p.ID)
			bw := min(textWidth(name, small)+28, width-16)
			if x > 8 && x+bw > width-8 {
				x = 8
				b.y += 28
			}
			b.c.rect(x, b.y, bw, 24, "#fff", "#888")
			b.c.text(x+4, b.y+17, small, "start", "", fitWidth(name, bw-24, small))
			if p.Owner >= 0 {
				b.c.token(x+bw-10, b.y+12, 8, p.Owner)
			}
			x += bw + 4
		}
		b.y += 28
		b.c.close()
	}

	// The recipes in play (§8.9), with the Gold Labels still on them.
	b.heading(b.w("recipes", nil))
	b.c.open("bc-recipes")
	// Each recipe: its name (wrapped, never cut), then its style, cost
	// and reputation (wrapped); a pair of boxes as tall as its longer.
	rw := (width - 16 - 4) / 2
	for row := 0; row*2 < len(v.Recipes); row++ {
		type box struct{ name, about []string }
		var boxes []box
		h := 0
		for i := row * 2; i < min(len(v.Recipes), row*2+2); i++ {
			r := v.Recipes[i]
			// Bold runs about a seventh wider than textWidth's estimate.
			bx := box{wrapText(b.w("name", r), (rw-26)*7/8, small+1), wrapText(b.w("recipe", r), rw-8, small)}
			boxes = append(boxes, bx)
			h = max(h, 8+len(bx.name)*gap(small+1)+len(bx.about)*gap(small))
		}
		for k, bx := range boxes {
			r := v.Recipes[row*2+k]
			x, y := 8+k*(rw+4), b.y
			fill := "#fbf3e4"
			if r.Basic {
				fill = "#f3f3f3"
			}
			b.c.rect(x, y, rw, h, fill, "#9c7a4b")
			ly := y
			for _, l := range bx.name {
				ly += gap(small + 1)
				b.c.bold(x+4, ly, small+1, "start", l)
			}
			for _, l := range bx.about {
				ly += gap(small)
				b.c.text(x+4, ly, small, "start", "", l)
			}
			if r.Label {
				b.c.rect(x+rw-19, y+3, 16, 16, "#e5b800", "#7a6000")
				b.c.text(x+rw-11, y+16, small, "middle", "", "G")
			}
		}
		b.y += h + 4
	}
	b.y += 2
	for _, l := range wrapText(b.w("supply", map[string]any{"Workers": b.bcNames("worker", v.Workers),
		"Partners": b.bcNames("partner", v.Partners), "Agency": b.bcNames("worker", v.Agency)}), width-16, small) {
		b.y += gap(small)
		b.c.text(8, b.y, small, "start", "", l)
	}
	b.c.close()

	b.heading(b.w("players", nil))
	for _, p := range v.Players {
		bcPlayer(b, p)
	}
	if v.Result != nil {
		b.finalScores("bc-final", len(v.Result.Scores), func(i int) (int, any) {
			s := v.Result.Scores[i]
			return s.Seat, map[string]any{"rank": v.Result.Rank[s.Seat], "name": b.name(s.Seat), "total": s.Total}
		})
	}
	b.keyFooter()
	return nil
}

// bcPlayer draws one brewery (§8.3): the brewing line, the buildings,
// the research tracks and the public holdings.
func bcPlayer(b *board, p brewcrafters.PlayerView) {
	b.c.open("bc-player", "data-seat", itoa(p.Seat))
	top := b.y + 4
	b.y += 20
	b.c.token(18, b.y-4, 8, p.Seat)
	b.nameLine(b.name(p.Seat), b.w("purse", p))
	b.y += 8

	// The brewing line: Tank 1/2, Bottling 1/2, Brewpub ("" absent).
	// Each slot is named in words (board.slot), and a slot holding a beer
	// names its recipe below, both wrapped in the slot (never cut; the +I
	// of a Hops Infuser in its lower corner); the slots are as tall as
	// the tallest.
	slots := []string{"T1", "T2", "B1", "B2", "PUB"}
	lw := (width - 16 - 4*4) / 5
	labels := make([][]string, len(slots))
	heads := 1
	for k := range slots {
		labels[k] = wrapText(b.w("slot", k), lw-8, small)
		heads = max(heads, len(labels[k]))
	}
	beers := make([][]string, len(p.Line))
	lines := 1
	for k, s := range p.Line {
		if s != "" && s != "-" {
			beers[k] = wrapText(b.bcName("recipe", s), lw-6, small)
			lines = max(lines, len(beers[k]))
		}
	}
	lh := 20 + (heads+lines)*gap(small)
	for k, s := range p.Line {
		if k >= len(slots) {
			break
		}
		x := 8 + k*(lw+4)
		colour := "#555"
		if s == "" {
			b.c.rect(x, b.y, lw, lh, "#f4f4f4", "#ccc")
			colour = "#aaa"
		} else {
			fill := "#fff"
			if s != "-" {
				fill = "#f6e2b3"
			}
			b.c.rect(x, b.y, lw, lh, fill, "#9c7a4b")
		}
		for i, l := range labels[k] {
			b.c.text(x+4, b.y+14+i*gap(small), small, "start", colour, l)
		}
		if s == "" {
			continue
		}
		if contains(p.Infusers, slots[k]) {
			b.c.text(x+lw-4, b.y+lh-5, small, "end", "#1a5d1a", "+I")
		}
		for i, l := range beers[k] {
			b.c.text(x+3, b.y+14+(heads-1+i+1)*gap(small), small, "start", "", l)
		}
	}
	b.y += lh + 6

	// The research tracks: four rows, steps 0 to 4.
	b.c.open("bc-research")
	for t, n := range p.Research {
		y := b.y + t*17
		b.c.text(8, y+12, small, "start", "", fitWidth(b.w("track", t), 80, small))
		for s := 0; s <= 4; s++ {
			fill := "#fff"
			if s <= n {
				fill = "#7a9cc6"
			}
			b.c.rect(92+s*16, y+2, 14, 12, fill, "#667")
		}
		b.c.text(176, y+12, small, "start", "", itoa(n))
	}
	b.c.close()
	ry := b.y
	for _, l := range []string{b.w("staff", p), b.w("score", map[string]any{"total": p.Score})} {
		for _, w := range wrapText(l, width-206, small) {
			b.c.text(196, ry+12, small, "start", "", w)
			ry += gap(small)
		}
	}
	b.y = max(b.y+4*17+2, ry+2)
	named := map[string]any{"Ing": p.Ing, "Stored": p.Stored, "Capacity": p.Capacity, "Plots": p.Plots,
		"Built": b.bcNames("building", p.Built), "Workers": b.bcNames("worker", p.Workers),
		"Partners": b.bcNames("partner", p.Partners), "Labels": b.bcNames("recipe", p.Labels),
		"Brewed": b.bcNames("recipe", p.Brewed), "Secrets": b.bcNames("recipe", p.Secrets),
		"Shipped": p.Shipped, "Hidden": p.Hidden}
	for _, key := range []string{"stock", "built", "people", "beers"} {
		b.para(b.w(key, named), small+1, "")
	}
	b.closeSeat(top, p.Seat, 8)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
