package boards

import (
	"strings"

	"github.com/pbem-referee/referee/engine/heavenale"
)

// Heaven & Ale (HA-6.4: the whole track, every player's money, garden,
// markers, brewmaster, discs, sheds, privilege cards and barrels are
// public; HA-6.3 the order of the piles and stacks is not, and the public
// view gives their counts only).

func init() { registerView("heavenale", drawHeavenAle) }

func drawHeavenAle(b *board, v heavenale.View) error {
	if v.Seat != -1 || len(v.Menu) > 0 || v.Example != "" {
		return ErrNotPublic
	}
	b.useSeats(v.Seats)
	b.header(v, b.seats)

	// The track (§8.1): 27 spaces in three rows of nine, in playing order,
	// then the start area (§8.2).
	b.heading(b.w("track", nil))
	b.c.open("ha-track")
	sw, sh := 42, 68
	for i, sp := range v.Track {
		x, y := 8+(i%9)*sw, b.y+(i/9)*(sh+4)
		haSpace(b, x, y, sw-2, sh, sp)
	}
	b.y += 3*(sh+4) + 2
	hw := (width - 16 - 3*4) / 4
	for k, id := range []string{"FIRST", "BREW", "RES", "CASH"} {
		x := 8 + k*(hw+4)
		b.c.rect(x, b.y, hw, 26, "#efe6d2", "#8a7350")
		b.c.text(x+4, b.y+16, small+1, "start", "", id)
		if seat := v.Home[k]; seat >= 0 {
			b.c.token(x+hw-12, b.y+13, 8, seat)
		}
	}
	b.y += 40
	b.c.text(8, b.y, small+1, "start", "", b.w("piles", v))
	b.c.close()

	// The barrel goals (§8.9): who holds each goal's large and small barrel.
	b.heading(b.w("goals", nil))
	b.c.open("ha-goals")
	gw := (width - 16 - 5*4) / 6
	for i, g := range v.Goals {
		x, y := 8+(i%6)*(gw+4), b.y+(i/6)*34
		b.c.rect(x, y, gw, 30, "#f3efe6", "#8a7350")
		b.c.text(x+4, y+12, small, "start", "", g.ID)
		haBarrel(b, x+12, y+22, 7, g.Large)
		haBarrel(b, x+32, y+22, 5, g.Small)
	}
	b.y += ((len(v.Goals)+5)/6)*34 + 10
	b.c.text(8, b.y, small, "start", "#555", b.w("barrelkey", nil))
	b.c.close()

	b.heading(b.w("players", nil))
	for i, p := range v.Players {
		var final *heavenale.FinalPlayer
		if v.Final != nil && i < len(v.Final.Players) {
			final = &v.Final.Players[i]
		}
		haPlayer(b, v.Cells, i, p, final)
	}
	b.keyFooter()
	return nil
}

// Tile colours (the five resources, monks and sheds); each tile also
// shows its code.
func haTileFill(code string) (fill, ink string) {
	switch {
	case strings.HasPrefix(code, "WO"):
		return "#9a6b3f", "#fff"
	case strings.HasPrefix(code, "YE"):
		return "#f0d35c", "#222"
	case strings.HasPrefix(code, "HO"):
		return "#6aa84f", "#fff"
	case strings.HasPrefix(code, "WA"):
		return "#4a8fd4", "#fff"
	case strings.HasPrefix(code, "BA"):
		return "#d9b777", "#222"
	case strings.HasPrefix(code, "M"):
		return "#7d5ba6", "#fff"
	case strings.HasPrefix(code, "T"):
		return "#666", "#fff"
	}
	return "#fff", "#222"
}

func haSpace(b *board, x, y, w, h int, sp heavenale.TrackView) {
	fill := map[string]string{"resource": "#eef6e8", "monk": "#efe8f6", "disc": "#fbf2d5", "barrel": "#e6eef4"}[sp.Kind]
	b.c.open("ha-space", "data-n", itoa(sp.N))
	b.c.rect(x, y, w, h, fill, "#8a7350")
	b.c.text(x+3, y+10, small-1, "start", "#555", itoa(sp.N))
	b.c.text(x+3, y+20, small-1, "start", "", sp.Label)
	for k, t := range sp.Tiles {
		if k >= 4 {
			b.c.text(x+w/2, y+h-3, small-1, "middle", "", "+"+itoa(len(sp.Tiles)-4))
			break
		}
		tf, ink := haTileFill(t)
		tx, ty := x+2+(k%2)*19, y+24+(k/2)*14
		b.c.rect(tx, ty, 18, 12, tf, "#333")
		b.c.text(tx+9, ty+9, small-2, "middle", ink, t)
	}
	if sp.Discs > 0 {
		b.c.circle(x+8, y+h-9, 5, "#f5c518", "#7a6000")
		b.c.text(x+16, y+h-5, small-1, "start", "", "×"+itoa(sp.Discs))
	}
	for k, seat := range sp.Figures {
		b.c.token(x+w-8-k*12, y+h-9, 6, seat)
	}
	b.c.close()
}

// haBarrel draws a barrel, marked with its holder's number (or "-" when it
// is still in the centre).
func haBarrel(b *board, x, y, r, seat int) {
	if seat < 0 {
		b.c.circle(x, y, r, "#fff", "#8a7350")
		return
	}
	b.c.token(x, y, r, seat)
}

// haPlayer draws one player's board: the garden (§8.3), the production
// track (§8.4), the scoring spots and privilege cards (§8.5, §8.10).
func haPlayer(b *board, cells []heavenale.CellView, seat int, p heavenale.PlayerView, final *heavenale.FinalPlayer) {
	b.c.open("ha-player", "data-seat", itoa(seat))
	top := b.y + 4
	b.y += 20
	b.c.token(18, b.y-4, 8, seat)
	b.c.bold(32, b.y, normal+1, "start", fit(p.Name, 20))
	b.c.text(width-8, b.y, normal, "end", "", b.w("purse", p))
	b.y += 6

	// The garden: pointy-top hexes on the doubled coordinates, sunny left,
	// shady right.
	const u, r, rh, step = 15, 17, 9, 26
	minX := 0
	for _, c := range cells {
		minX = min(minX, c.X)
	}
	gx, gy := 8+u, b.y+r+2
	maxY := 0
	b.c.open("ha-garden")
	for i, c := range cells {
		cx, cy := gx+(c.X-minX)*u, gy+c.Y*step
		maxY = max(maxY, c.Y)
		tile := ""
		if i < len(p.Player.Garden) {
			tile = p.Player.Garden[i]
		}
		fill, ink := map[string]string{"sun": "#fff4c2", "shade": "#dde5ee", "shed": "#ffffff"}[c.Side], "#666"
		label := strings.ToLower(c.ID)
		if tile != "" {
			fill, ink = haTileFill(tile)
			label = tile
		}
		b.c.poly([]int{cx, cy - r, cx + u, cy - rh, cx + u, cy + rh, cx, cy + r, cx - u, cy + rh, cx - u, cy - rh}, fill, "#8a7350")
		b.c.text(cx, cy+3, small-1, "middle", ink, label)
	}
	b.c.close()
	gh := maxY*step + 2*r + 4

	// Beside the garden: brewmaster, barrels, spots, cards.
	rx := gx + (0-minX)*u + 6*u + u + 8
	ty := b.y + 10
	for _, l := range []string{b.w("rate", p), b.w("barrels", p)} {
		b.c.text(rx, ty, small+1, "start", "", l)
		ty += 14
	}
	ty += 2
	b.c.text(rx, ty, small, "start", "#555", b.w("spots", nil))
	ty += 6
	for k, name := range []string{"X", "WO", "YE", "HO", "WA", "BA", "M1", "M2", "M3", "M4"} {
		sx, sy := rx+(k%5)*26, ty+(k/5)*24
		fill := "#fff"
		if p.Spots[k] {
			fill = "#f5c518"
		}
		b.c.circle(sx+9, sy+9, 9, fill, "#7a6000")
		b.c.text(sx+9, sy+12, small-2, "middle", "", name)
	}
	ty += 56
	for _, l := range wrapWords(b.w("cards", p), 30) {
		b.c.text(rx, ty, small, "start", "", l)
		ty += 12
	}
	for _, l := range wrapWords(b.w("placed", p), 30) {
		b.c.text(rx, ty, small, "start", "", l)
		ty += 12
	}
	b.y += max(gh, ty-b.y)

	// The production track: brewmaster and the five markers, -10 to 20.
	b.c.open("ha-production")
	b.c.text(8, b.y+10, small, "start", "#555", b.w("production", nil))
	b.y += 26
	x0, px := 36, 11
	for pos := -10; pos <= 20; pos += 5 {
		x := x0 + (pos+10)*px
		b.c.line(x, b.y-2, x, b.y+6*12, "#ddd")
		b.c.text(x, b.y-4, small-2, "middle", "#777", itoa(pos))
	}
	rows := []struct {
		label string
		pos   int
		fill  string
	}{{b.w("brewmaster", nil), p.Brew, "#222"}}
	for k, col := range []string{"WO", "YE", "HO", "WA", "BA"} {
		f, _ := haTileFill(col)
		rows = append(rows, struct {
			label string
			pos   int
			fill  string
		}{col, p.Markers[k], f})
	}
	for k, row := range rows {
		y := b.y + 6 + k*12
		b.c.text(8, y+3, small-1, "start", "", fit(row.label, 6))
		b.c.line(x0, y, x0+30*px, y, "#bbb")
		x := x0 + (min(max(row.pos, -10), 20)+10)*px
		b.c.circle(x, y, 5, row.fill, "#222")
		b.c.text(x+8, y+3, small-2, "start", "", itoa(row.pos))
	}
	b.y += 6*12 + 4
	b.c.close()
	if final != nil {
		b.y += 12
		b.c.bold(8, b.y, normal, "start", b.w("final", final))
	}
	b.y += 6
	b.c.rect(2, top, width-4, b.y-top, "none", seatColour(seat))
	b.c.close()
	b.y += 2
}
