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

	// The track (§8.1): 27 spaces in playing order, drawn as the track
	// they are: three rows that wind (1-9 left to right, 10-18 back, 19-27
	// on again), joined by a path with arrows, then the start area
	// (§8.2); a legend says what the colours and marks are.
	b.heading(b.w("track", nil))
	b.c.open("ha-track")
	haTrack(b, v)
	b.c.close()

	// The barrel goals (§8.9): who holds each goal's large and small barrel.
	b.heading(b.w("goals", nil))
	b.c.open("ha-goals")
	gw := (width - 16 - 5*4) / 6
	for i, g := range v.Goals {
		x, y := 8+(i%6)*(gw+4), b.y+(i/6)*44
		b.c.rect(x, y, gw, 40, "#f3efe6", "#8a7350")
		b.c.text(x+4, y+14, small, "start", "", g.ID)
		haBarrel(b, x+13, y+28, 9, g.Large)
		haBarrel(b, x+36, y+28, 8, g.Small)
	}
	b.y += ((len(v.Goals) + 5) / 6) * 44
	// Issue 22: each box's code is said in words, in the page's language,
	// as the mail says it (the goal's condition, then its holders).
	b.c.open("ha-goalkey")
	for _, g := range v.Goals {
		for k, l := range wrapText(b.w("goal", g), width-16-12, small) {
			b.y += gap(small)
			b.c.text(8+min(k, 1)*12, b.y, small, "start", "", l)
		}
	}
	b.c.close()
	for _, l := range wrapText(b.w("barrelkey", nil), width-16, small) {
		b.y += gap(small)
		b.c.text(8, b.y, small, "start", "#555", l)
	}
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
	b.nameLine(b.name(seat), b.w("purse", p))
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
		b.c.text(cx, cy+5, small, "middle", ink, label)
	}
	b.c.close()
	gh := maxY*step + 2*r + 4

	// Beside the garden: brewmaster, barrels, spots, cards.
	rx := gx + (0-minX)*u + 6*u + u + 8
	ty := b.y + 12
	rw := width - 8 - rx
	for _, l := range []string{b.w("rate", p), b.w("barrels", p)} {
		for _, w := range wrapText(l, rw, small) {
			b.c.text(rx, ty, small, "start", "", w)
			ty += gap(small)
		}
	}
	for _, w := range wrapText(b.w("spots", nil), rw, small) {
		b.c.text(rx, ty, small, "start", "#555", w)
		ty += gap(small)
	}
	ty -= 8
	per := max(1, (rw+2)/29)
	for k, name := range []string{"X", "WO", "YE", "HO", "WA", "BA", "M1", "M2", "M3", "M4"} {
		sx, sy := rx+(k%per)*29, ty+(k/per)*29
		fill := "#fff"
		if p.Spots[k] {
			fill = "#f5c518"
		}
		b.c.circle(sx+13, sy+13, 13, fill, "#7a6000")
		b.c.text(sx+13, sy+18, small, "middle", "", name)
	}
	ty += ((10+per-1)/per)*29 + 16
	// A placed card, "S1+S2:CASH": its spots and the card, which the
	// template names (issue 24: no data code on a page).
	type placed struct{ Spots, Card string }
	var pl []placed
	for _, c := range p.PlacedList {
		spots, card, _ := strings.Cut(c, ":")
		pl = append(pl, placed{spots, card})
	}
	for _, key := range []string{"cards", "placed"} {
		var data any = p
		if key == "placed" {
			data = pl
		}
		for _, l := range wrapText(b.w(key, data), rw, small) {
			b.c.text(rx, ty, small, "start", "", l)
			ty += gap(small)
		}
	}
	b.y += max(gh, ty-b.y)

	// The production track: brewmaster and the five markers, -10 to 20.
	b.c.open("ha-production")
	b.c.text(8, b.y+12, small, "start", "#555", fitWidth(b.w("production", nil), width-16, small))
	b.y += 32
	x0, px := 62, 10
	for pos := -10; pos <= 20; pos += 5 {
		x := x0 + (pos+10)*px
		b.c.line(x, b.y-2, x, b.y+6*17, "#ddd")
		b.c.text(x, b.y-4, small, "middle", "#777", itoa(pos))
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
		y := b.y + 8 + k*17
		b.c.text(8, y+5, small, "start", "", fitWidth(row.label, x0-14, small))
		b.c.line(x0, y, x0+30*px, y, "#bbb")
		x := x0 + (min(max(row.pos, -10), 20)+10)*px
		b.c.circle(x, y, 6, row.fill, "#222")
		b.c.text(x+9, y+5, small, "start", "", itoa(row.pos))
	}
	b.y += 6*17 + 4
	b.c.close()
	if final != nil {
		b.y += 12
		for i, l := range wrapText(b.w("final", final), width-16, normal) {
			if i > 0 {
				b.y += gap(normal)
			}
			b.c.bold(8, b.y, normal, "start", l)
		}
	}
	b.closeSeat(top, seat, 6)
}

// haKindFill is the colour of a track space by its kind (the legend
// names them).
func haKindFill(kind string) string {
	return map[string]string{"resource": "#eef6e8", "monk": "#efe8f6", "disc": "#fbf2d5", "barrel": "#e6eef4"}[kind]
}

// haTrack draws the track as a winding path of spaces, the start area
// after it and the legend.
func haTrack(b *board, v heavenale.View) {
	const per, step, sw, rowGap = 9, 43, 39, 16
	// A space's name is never cut (issue 24): one too wide for the space
	// is broken over lines (breakWord), and every space grows by the lines
	// the longest name takes.
	names := make([][]string, len(v.Track))
	lines := 1
	for i, sp := range v.Track {
		names[i] = breakWord(sp.Label, sw-3, small)
		lines = max(lines, len(names[i]))
	}
	sh := 102 + (lines-1)*gap(small)
	x0 := 8 + (width-16-(per-1)*step-sw)/2
	top := b.y
	at := func(i int) (x, y int) {
		row, col := i/per, i%per
		if row%2 == 1 {
			col = per - 1 - col
		}
		return x0 + col*step, top + row*(sh+rowGap)
	}
	rows := (len(v.Track) + per - 1) / per
	// The path behind the spaces, through their middles, then down to the
	// start area.
	for i := 0; i+1 < len(v.Track); i++ {
		ax, ay := at(i)
		bx, by := at(i + 1)
		if ay == by {
			b.c.line(ax+sw, ay+sh/2, bx, by+sh/2, "#8a7350")
			dir := 1
			if bx < ax {
				dir = -1
			}
			mx := (ax + bx + sw) / 2
			b.c.poly([]int{mx + 2*dir, ay + sh/2, mx - 2*dir, ay + sh/2 - 5, mx - 2*dir, ay + sh/2 + 5}, "#8a7350", "")
			continue
		}
		// A turn: down from the row's last space to the next row's first.
		b.c.line(ax+sw/2, ay+sh, bx+sw/2, by, "#8a7350")
		my := (ay + sh + by) / 2
		b.c.poly([]int{ax + sw/2, my + 3, ax + sw/2 - 4, my - 3, ax + sw/2 + 4, my - 3}, "#8a7350", "")
	}
	for i, sp := range v.Track {
		x, y := at(i)
		haSpace(b, x, y, sw, sh, sp, names[i], lines)
	}
	b.y += rows*(sh+rowGap) - rowGap
	// The start area (§8.2): after the last space.
	if n := len(v.Track); n > 0 {
		lx, ly := at(n - 1)
		b.c.line(lx+sw/2, ly+sh, lx+sw/2, b.y+rowGap, "#8a7350")
		b.c.poly([]int{lx + sw/2, b.y + rowGap, lx + sw/2 - 4, b.y + rowGap - 6, lx + sw/2 + 4, b.y + rowGap - 6}, "#8a7350", "")
	}
	b.y += rowGap
	// The start spaces by name (board.home), wrapped whole in their box.
	hw := (width - 16 - 3*4) / 4
	var homes [][]string
	hh := 28
	for _, id := range []string{"FIRST", "BREW", "RES", "CASH"} {
		l := wrapText(b.w("homename", id), hw-26, small)
		homes = append(homes, l)
		hh = max(hh, 28+(len(l)-1)*gap(small))
	}
	for k, lines := range homes {
		x := 8 + k*(hw+4)
		b.c.rect(x, b.y, hw, hh, "#efe6d2", "#8a7350")
		for j, l := range lines {
			b.c.text(x+4, b.y+19+j*gap(small), small, "start", "", l)
		}
		if seat := v.Home[k]; seat >= 0 {
			b.c.token(x+hw-12, b.y+14, 9, seat)
		}
	}
	b.y += hh
	b.para(b.w("start", nil), small, "#555")
	b.para(b.w("piles", v), small, "")
	// The legend: the kinds of space by colour, the marks on a space.
	b.c.open("ha-legend")
	x := 8
	b.y += 8
	for _, kind := range []string{"resource", "monk", "disc", "barrel"} {
		label := b.w("kind", kind)
		wd := 22 + len([]rune(label))*small*11/20
		if x+wd > width-8 {
			x = 8
			b.y += gap(small) + 4
		}
		b.c.rect(x, b.y, 16, 16, haKindFill(kind), "#8a7350")
		b.c.text(x+21, b.y+13, small, "start", "", label)
		x += wd + 10
	}
	b.y += 16
	// A margin of its own: the Dutch key's line of narrow letters was
	// measured 3 px past the edge in Chromium at width-16 (TestPagesInChromium).
	for _, l := range wrapText(b.w("trackkey", nil), width-24, small) {
		b.y += gap(small)
		b.c.text(8, b.y, small, "start", "#555", l)
	}
	b.c.close()
}

// haSpace draws one space of the track: its number and name (the name's
// lines, of the lines every space leaves for one), its tiles (two shown,
// then how many more), its discs and the figures on it. The space's title
// (a tooltip, and what a screen reader says) is its number, whole name
// and kind in the reader's words.
func haSpace(b *board, x, y, w, h int, sp heavenale.TrackView, name []string, lines int) {
	b.c.open("ha-space", "data-n", itoa(sp.N), "data-name", sp.Label)
	b.c.title(b.w("space", sp))
	b.c.rect(x, y, w, h, haKindFill(sp.Kind), "#8a7350")
	b.c.bold(x+3, y+14, small, "start", itoa(sp.N))
	b.c.open("ha-name")
	for k, l := range name {
		b.c.text(x+2, y+29+k*gap(small), small, "start", "#555", l)
	}
	b.c.close()
	y += (lines - 1) * gap(small)
	for k, t := range sp.Tiles {
		if k >= 2 {
			b.c.text(x+w-3, y+14, small, "end", "", "+"+itoa(len(sp.Tiles)-2))
			break
		}
		tf, ink := haTileFill(t)
		ty := y + 33 + k*17
		b.c.rect(x+2, ty, w-4, 16, tf, "#333")
		b.c.text(x+w/2, ty+13, small, "middle", ink, fitWidth(t, w-6, small))
	}
	if sp.Discs > 0 {
		b.c.circle(x+8, y+h-9, 6, "#f5c518", "#7a6000")
		b.c.text(x+16, y+h-4, small, "start", "", "×"+itoa(sp.Discs))
	}
	fy := y + h - 10
	if sp.Discs > 0 {
		fy = y + h - 29
	}
	for k, seat := range sp.Figures {
		b.c.token(x+w-10-k*16, fy, 8, seat)
	}
	b.c.close()
}
