package boards

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine/fromage"
)

// Fromage (FR-6.2: the whole board, every cheese token and worker, every
// player's resources, pending and completed Orders are public; FR-6.3 and
// FR-6.4 the deck's order, draft hands and the moves of a turn under way
// are not: the public view shows the board as it was at the turn's start).

func init() { registerView("fromage", drawFromage) }

func drawFromage(b *board, v fromage.View) error {
	if v.Seat != -1 || v.You != nil || v.Now != nil || len(v.Mine) > 0 {
		return ErrNotPublic
	}
	if v.Draft != nil && (len(v.Draft.Hand) > 0 || len(v.Draft.Kept) > 0 || len(v.Draft.Placed) > 0) {
		return ErrNotPublic
	}
	b.useSeats(v.Seats)
	seats := append([]string(nil), b.seats...)
	if v.Solo {
		seats = append(seats, b.w("corp", nil))
	}
	b.header(v, seats)

	// The round board (D-1): four quadrants around the circle, drawn one
	// under the other in the order they rotate (the whole width each, so
	// that a phone reads every space); each faces a player, or nobody.
	b.heading(b.w("board", nil))
	b.c.open("fr-board")
	byQ := map[int]fromage.VenueView{}
	for _, ve := range v.Venues {
		byQ[ve.Q] = ve
	}
	quads := append([]fromage.QuadrantView(nil), v.Quadrants...)
	sort.SliceStable(quads, func(i, j int) bool { return quads[i].Q < quads[j].Q })
	for _, qv := range quads {
		if qv.Q < 0 || qv.Q > 3 {
			continue
		}
		h := frQuadrantHeight(byQ[qv.Q])
		frQuadrant(b, 8, b.y, width-16, h, qv, byQ[qv.Q], seats)
		b.y += h + 6
	}
	b.c.close()

	// The City's regions and their Customers (FR-7.4).
	if len(v.Regions) > 0 {
		b.heading(b.w("regions", nil))
		b.c.open("fr-regions")
		for _, r := range v.Regions {
			b.y += gap(small+1) + 3
			b.c.circle(14, b.y-5, 6, frRegionColour(r.Name), "#333")
			b.c.text(24, b.y, small+1, "start", "", fitWidth(b.w("region", r), 190, small+1))
			x := 220
			for s, n := range r.Influence {
				if n == 0 {
					continue
				}
				b.c.token(x+8, b.y-5, 8, s)
				b.c.text(x+19, b.y, small+1, "start", "", itoa(n))
				x += 34
			}
		}
		b.y += 4
		b.c.close()
	}

	b.heading(b.w("players", nil))
	for _, p := range v.Players {
		frPlayer(b, p)
	}
	if v.Final != nil {
		b.finalScores("fr-final", len(v.Final.Totals), func(s int) (int, any) {
			rank := 0
			if s < len(v.Final.Rank) {
				rank = v.Final.Rank[s]
			}
			return s, map[string]any{"rank": rank, "name": b.name(s), "total": v.Final.Totals[s]}
		})
	}
	b.keyFooter()
	return nil
}

// frGrid places a venue's space: its row and column, and the number of
// columns of the venue's grid (D-1: the Festival's 5x5 grid, the Dairy's
// shelves of three, the Bistro's tables of two, the City in order).
func frGrid(venue string, i int, id string) (row, col, cols int) {
	n, _ := strconv.Atoi(strings.TrimLeft(id, "CFDB"))
	switch venue {
	case "festival":
		if n >= 11 && n <= 55 {
			return n/10 - 1, n%10 - 1, 5
		}
	case "dairy":
		if n >= 1 {
			return (n - 1) / 3, (n - 1) % 3, 3
		}
	case "bistro":
		if n >= 1 {
			t := (n - 1) / 2
			return t / 3, (t%3)*2 + (n-1)%2, 6
		}
	}
	return i / 3, i % 3, 3
}

const frCellH = 36

func frQuadrantHeight(ve fromage.VenueView) int {
	rows := 0
	for i, sp := range ve.Spaces {
		r, _, _ := frGrid(ve.Venue, i, sp.ID)
		rows = max(rows, r+1)
	}
	return 38 + rows*frCellH + 4
}

func frQuadrant(b *board, x, y, w, h int, qv fromage.QuadrantView, ve fromage.VenueView, seats []string) {
	b.c.open("fr-quadrant", "data-venue", qv.Venue)
	b.c.rect(x, y, w, h, "#f7f4ec", "#7a6a4a")
	b.c.bold(x+5, y+15, normal, "start", fitWidth(b.w("venue", qv.Venue)+" "+qv.Side, w-30, normal))
	b.c.text(x+5, y+31, small, "start", "#555", fitWidth(b.w("resource", qv.Resource), w-10, small))
	if qv.Faces != "" {
		b.c.token(x+w-12, y+12, 8, seatOf(seats, qv.FacesSeat, qv.Faces))
	}
	cols := 3
	if len(ve.Spaces) > 0 {
		_, _, cols = frGrid(ve.Venue, 0, ve.Spaces[0].ID)
	}
	cw := (w - 8) / cols
	for i, sp := range ve.Spaces {
		r, c, _ := frGrid(ve.Venue, i, sp.ID)
		sx, sy := x+4+c*cw, y+36+r*frCellH
		if ve.Venue == "bistro" && c%2 == 1 {
			sx -= 2 // a table's two plates sit together
		}
		frSpace(b, sx, sy, cw-2, frCellH-3, sp, seats)
	}
	b.c.close()
}

func frAgingFill(aging string) string {
	switch aging {
	case "bronze":
		return "#e9c7a2"
	case "silver":
		return "#dcdde2"
	case "gold":
		return "#f3dc7a"
	}
	return "#fff"
}

func frSpace(b *board, x, y, w, h int, sp fromage.SpaceView, seats []string) {
	b.c.open("fr-space", "data-space", sp.ID)
	defer b.c.close()
	fill := frAgingFill(sp.Aging)
	if sp.Crossed {
		fill = "#bbbbbb"
	}
	b.c.rect(x, y, w, h, fill, "#7a6a4a")
	b.c.text(x+2, y+13, small, "start", "#444", sp.ID)
	b.c.text(x+2, y+h-4, small, "start", "", fitWidth(b.w("cheese", sp), w-22, small))
	if sp.Icon != "" {
		b.c.text(x+w-2, y+13, small, "end", "#a0306e", b.w("icon", sp.Icon))
	}
	if sp.Crossed {
		b.c.line(x+2, y+2, x+w-2, y+h-2, "#555")
		b.c.line(x+w-2, y+2, x+2, y+h-2, "#555")
	}
	if sp.Owner != "" {
		b.c.token(x+w-10, y+h-10, 8, seatOf(seats, sp.OwnerSeat, sp.Owner))
	}
}

// seatOf returns the seat of a token, by the seat the view gives (never
// by its name: two seats may share one, and a seat handed on is named by
// its holder now, issue 24); the Corporation is the seat after the
// players.
func seatOf(seats []string, seat int, name string) int {
	if seat >= 0 {
		return seat
	}
	if name == "Corp" {
		return len(seats) - 1
	}
	return -1
}

func frRegionColour(name string) string {
	switch name {
	case "purple":
		return "#7b4fa0"
	case "pink":
		return "#e78ac3"
	case "yellow":
		return "#f0d35c"
	case "white":
		return "#ffffff"
	case "blue":
		return "#3b73c4"
	case "green":
		return "#3d9140"
	}
	return "#999"
}

func frPlayer(b *board, p fromage.PlayerView) {
	b.c.open("fr-player", "data-seat", itoa(p.Seat))
	top := b.y + 4
	b.y += 20
	b.c.token(18, b.y-4, 8, p.Seat)
	b.nameLine(b.name(p.Seat), b.w("tokens", p))
	b.y += 2
	for _, key := range []string{"resources", "orders", "workers"} {
		b.para(b.w(key, p), small+1, "")
	}
	b.closeSeat(top, p.Seat, 8)
}
