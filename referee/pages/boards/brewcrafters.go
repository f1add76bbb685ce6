package boards

import (
	"github.com/pbem-referee/referee/engine/brewcrafters"
)

// Brew Crafters (BC-6.2: nothing is hidden but each undeveloped Secret
// Recipe's identity; the public view gives their count only, and a
// Brewing token naming one shows "?").

func init() { registerView("brewcrafters", drawBrewCrafters) }

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
	per := 4
	mw := (width - 16 - (per-1)*4) / per
	for i, sp := range v.Spaces {
		x, y := 8+(i%per)*(mw+4), b.y+(i/per)*54
		fill := "#fff"
		if sp.Occ >= 0 {
			fill = "#eee"
		}
		b.c.rect(x, y, mw, 50, fill, "#888")
		b.c.bold(x+4, y+14, small, "start", sp.ID)
		b.c.text(x+4, y+30, small, "start", "", fitWidth(b.w("kws", sp.Kws), mw-8, small))
		if sp.Show != "-" {
			b.c.text(x+4, y+46, small, "start", "#1a5d1a", fitWidth(sp.Show, mw/2-6, small))
		}
		if sp.Occ >= 0 {
			b.c.token(x+mw-11, y+12, 8, sp.Occ)
			if sp.Half != "" && len(sp.Kws) > 1 {
				b.c.text(x+mw-4, y+46, small, "end", "#555", fitWidth(b.w("kws", []string{sp.Half}), mw/2-4, small))
			}
		}
	}
	b.y += ((len(v.Spaces)+per-1)/per)*54 + 2
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
		for _, p := range part.list {
			b.c.rect(x, b.y, 52, 24, "#fff", "#888")
			b.c.text(x+4, b.y+17, small, "start", "", fitWidth(p.ID, 30, small))
			if p.Owner >= 0 {
				b.c.token(x+42, b.y+12, 8, p.Owner)
			}
			x += 56
			if x > width-60 {
				x = 8
				b.y += 28
			}
		}
		b.y += 28
		b.c.close()
	}

	// The recipes in play (§8.9), with the Gold Labels still on them.
	b.heading(b.w("recipes", nil))
	b.c.open("bc-recipes")
	rw := (width - 16 - 4) / 2
	for i, r := range v.Recipes {
		x, y := 8+(i%2)*(rw+4), b.y+(i/2)*42
		fill := "#fbf3e4"
		if r.Basic {
			fill = "#f3f3f3"
		}
		b.c.rect(x, y, rw, 38, fill, "#9c7a4b")
		b.c.bold(x+4, y+15, small, "start", fitWidth(r.ID+" "+b.w("name", r), rw-34, small+1))
		b.c.text(x+4, y+32, small, "start", "", fitWidth(b.w("recipe", r), rw-8, small))
		if r.Label {
			b.c.rect(x+rw-19, y+3, 16, 16, "#e5b800", "#7a6000")
			b.c.text(x+rw-11, y+16, small, "middle", "", "G")
		}
	}
	b.y += ((len(v.Recipes)+1)/2)*42 + 2
	for _, l := range wrapText(b.w("supply", v), width-16, small) {
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
	b.c.bold(32, b.y, normal+1, "start", fit(b.name(p.Seat), 16))
	b.c.text(width-8, b.y, normal, "end", "", fitWidth(b.w("purse", p), width/2-12, normal))
	b.y += 8

	// The brewing line: Tank 1/2, Bottling 1/2, Brewpub ("" absent).
	slots := []string{"T1", "T2", "B1", "B2", "PUB"}
	lw := (width - 16 - 4*4) / 5
	for k, s := range p.Line {
		if k >= len(slots) {
			break
		}
		x := 8 + k*(lw+4)
		if s == "" {
			b.c.rect(x, b.y, lw, 36, "#f4f4f4", "#ccc")
			b.c.text(x+4, b.y+14, small, "start", "#aaa", slots[k])
			continue
		}
		fill := "#fff"
		if s != "-" {
			fill = "#f6e2b3"
		}
		b.c.rect(x, b.y, lw, 36, fill, "#9c7a4b")
		b.c.text(x+4, b.y+14, small, "start", "#555", slots[k])
		if contains(p.Infusers, slots[k]) {
			b.c.text(x+lw-4, b.y+14, small, "end", "#1a5d1a", "+I")
		}
		if s != "-" {
			b.c.text(x+4, b.y+31, small, "start", "", fitWidth(s, lw-8, small))
		}
	}
	b.y += 42

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
	for _, key := range []string{"stock", "built", "people", "beers"} {
		for _, l := range wrapText(b.w(key, p), width-16, small+1) {
			b.y += gap(small + 1)
			b.c.text(8, b.y, small+1, "start", "", l)
		}
	}
	b.y += 8
	b.c.rect(2, top, width-4, b.y-top, "none", seatColour(p.Seat))
	b.c.close()
	b.y += 2
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
