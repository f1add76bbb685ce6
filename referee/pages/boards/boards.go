// Package boards draws the board of a game's public view as SVG, for the
// public game pages: one file per game, each with the same shape (a
// drawer registered under the game's name that takes the engine's view
// for seat -1, refuses any other, and lays out its parts top to bottom).
//
// The engines stay pure and word-free: the drawings read their exported
// view types only, and every word on a board comes from templates (the
// "board.*" names of the game's scope and of common), in the reader's
// language. A drawing is plain SVG with a viewBox (it scales to the page's
// width), a title and a description, text on every piece that colour
// also marks, and no script.
//
// Readable on a phone without the rulebook (issue 24): no text is smaller
// than minText (11 px where the board spans a 360 px screen); text is
// wrapped to its box at its size, never run past it; a name is never cut
// (a word wider than its box is broken over lines, breakWord: Heaven &
// Ale's BARREL1 as BAR/REL1 in its space, the space's title naming it
// whole), and a box grows with the lines its names take; a thing is named
// by its name in the reader's language, never by a data file's code
// (Brew Crafters' workers, buildings, partnerships, market spaces and
// recipes through the data file's cards and card.name; Dice Brewing's
// ingredients and action tokens through card.name; Heaven & Ale's start
// spaces and privilege cards through board.home and board.priv); every board ends
// with its key (the group "key": what its codes, colours and marks mean,
// in the reader's language), and Heaven & Ale's track is drawn as the
// path it is, with a legend of its spaces.
//
// It owns the drawing of each game's public view as SVG and the text
// fitting rules (svg.go). It must not hold a word (they are templates'),
// draw a view other than the spectators' (seat -1), change or read a
// game's state beyond its view (Brew Crafters' cards are read once from a
// fresh state of the embedded data file), nor do I/O.
package boards

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/pbem-referee/referee/templates"
)

// ErrNotPublic: a drawer was given a seat's view. Boards are drawn from
// the spectators' view (seat -1) only: never a hand, a sealed answer or a
// face-down card.
var ErrNotPublic = errors.New("boards: only the public view (seat -1) is drawn")

// drawer draws one game's view on b.
type drawer func(b *board, view any) error

var drawers = map[string]drawer{}

func register(game string, d drawer) { drawers[game] = d }

// Has reports whether the game has a board drawing.
func Has(game string) bool { return drawers[game] != nil }

// Games lists the games with a board drawing.
func Games() []string {
	var out []string
	for g := range drawers {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

var loadSet = sync.OnceValues(templates.Load)

// Draw returns the SVG board of a game's public view (engine.State.View(-1))
// with its words in lang (English when lang is not one of
// templates.Languages). seats are the players' names by seat (nil: the
// names the view carries, or numbers).
func Draw(game, lang string, seats []string, view any) (svg []byte, err error) {
	// A drawing that fails on an unforeseen view costs the page its board,
	// never the page.
	defer func() {
		if p := recover(); p != nil {
			svg, err = nil, fmt.Errorf("boards: %s: %v", game, p)
		}
	}()
	d := drawers[game]
	if d == nil {
		return nil, fmt.Errorf("boards: no board for %q", game)
	}
	set, err := loadSet()
	if err != nil {
		return nil, err
	}
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	b := &board{set: set, game: game, lang: lang, seats: seats, c: &canvas{w: width}}
	if err := d(b, view); err != nil {
		return nil, err
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.c.document(lang, b.title, b.desc), nil
}

// board is a drawing under way: its canvas, the reader's words, the seats.
type board struct {
	set         *templates.Set
	game, lang  string
	seats       []string
	c           *canvas
	title, desc string
	y           int // where the next part starts
	err         error
}

// w renders the word template "board.<name>" of the game (or common) in
// the reader's language, with data as the Ctx's Data.
func (b *board) w(name string, data any) string {
	ctx := templates.Ctx{Lang: b.lang, Game: b.game, Seat: -1, Seats: b.seats, Data: data,
		Word: func(kw string) string { return b.set.Word(b.game, b.lang, kw) }}
	s, err := b.set.Render(b.game, b.lang, "board."+name, ctx)
	if err != nil && b.err == nil {
		b.err = err
	}
	return s
}

// name is a seat's name ("?" out of range).
func (b *board) name(seat int) string {
	if seat >= 0 && seat < len(b.seats) {
		return b.seats[seat]
	}
	return "?"
}

// heading writes a part's heading at the current height and moves down.
func (b *board) heading(s string) {
	b.y += gap(normal + 1)
	b.c.bold(8, b.y, normal+1, "start", s)
	b.y += 6
}

// legend draws every seat's marker with its name, wrapped to the width;
// a name is never cut: one wider than a line is broken over lines.
func (b *board) legend(seats []string) {
	x := 8
	b.y += gap(normal)
	for i, n := range seats {
		lines := wrapText(n, width-16-18, normal)
		wd := 18 + textWidth(lines[0], normal)
		if x+wd > width-8 || len(lines) > 1 && x > 8 {
			x = 8
			b.y += gap(normal) + 4
		}
		b.c.token(x+7, b.y-4, 8, i)
		for k, l := range lines {
			if k > 0 {
				b.y += gap(normal)
			}
			b.c.text(x+18, b.y, normal, "start", "", l)
		}
		x += wd + 10
		if len(lines) > 1 {
			x = width // the next name starts a line
		}
	}
	b.y += 6
}

// para writes text wrapped to the board's width, one line of size a
// row, from the left margin (fill "" the text's colour).
func (b *board) para(text string, size int, fill string) {
	for _, l := range wrapText(text, width-16, size) {
		b.y += gap(size)
		b.c.text(8, b.y, size, "start", fill, l)
	}
}

// closeSeat ends a seat's box opened at top: pad below its last line, the
// frame in the seat's colour, the group closed.
func (b *board) closeSeat(top, seat, pad int) {
	b.y += pad
	b.c.rect(2, top, width-4, b.y-top, "none", seatColour(seat))
	b.c.close()
	b.y += 2
}

// nameLine writes a player's name in bold at the left of the current line
// and right (their money, their tokens) at its right; both are wrapped,
// never cut, and the current height moves down by the extra lines. The
// name has the room right leaves, at least half the width.
func (b *board) nameLine(name, right string) {
	rw := min(textWidth(right, normal), width/2-12)
	// Bold runs about a seventh wider than textWidth's estimate.
	names := wrapText(name, (width-32-8-rw-12)*7/8, normal+1)
	rights := wrapText(right, rw, normal)
	y := b.y
	for k, l := range names {
		b.c.bold(32, y+k*gap(normal+1), normal+1, "start", l)
	}
	for k, l := range rights {
		b.c.text(width-8, y+k*gap(normal), normal, "end", "", l)
	}
	b.y += max((len(names)-1)*gap(normal+1), (len(rights)-1)*gap(normal))
}

// finish sets the final height.
func (b *board) finish() { b.c.h = max(b.c.h, b.y+8) }

// registerView registers draw as game's drawer: the view comes by value or
// by pointer; a nil pointer or another type is errWrongView.
func registerView[V any](game string, draw func(b *board, v V) error) {
	register(game, func(b *board, view any) error {
		switch x := view.(type) {
		case V:
			return draw(b, x)
		case *V:
			if x != nil {
				return draw(b, *x)
			}
		}
		return errWrongView(b.game, view)
	})
}

// useSeats names the seats with names unless the drawing was given names.
func (b *board) useSeats(names []string) {
	if len(b.seats) == 0 {
		b.seats = names
	}
}

// header words the title and description of the view v and draws the
// header every board starts with: the title, the status line and the
// legend of seats.
func (b *board) header(v any, seats []string) {
	b.title = b.w("title", v)
	b.desc = b.w("desc", v)
	b.y = gap(large)
	for _, l := range wrapText(b.title, width-16, large) {
		b.c.bold(8, b.y, large, "start", l)
		b.y += gap(large)
	}
	for i, l := range wrapText(b.w("status", v), width-16, normal) {
		if i > 0 {
			b.y += gap(normal)
		}
		b.c.text(8, b.y, normal, "start", "", l)
	}
	b.legend(seats)
}

// finalScores draws the final scores' part (the word "final", then in
// the group class one line per score i of n: its seat's marker and the word
// "score" of its data).
func (b *board) finalScores(class string, n int, score func(i int) (seat int, data any)) {
	b.heading(b.w("final", nil))
	b.c.open(class)
	for i := range n {
		seat, data := score(i)
		b.y += gap(normal) + 2
		b.c.token(16, b.y-4, 8, seat)
		b.c.text(30, b.y, normal, "start", "", fitWidth(b.w("score", data), width-38, normal))
	}
	b.c.close()
}

// keyFooter writes the game's key (the word "key"), wrapped, and sets the
// final height.
func (b *board) keyFooter() {
	b.c.open("key")
	defer b.c.close()
	b.y += gap(small)
	for _, l := range wrapText(b.w("key", nil), width-16, small) {
		b.c.text(8, b.y, small, "start", "#555", l)
		b.y += gap(small)
	}
	b.finish()
}

func errWrongView(game string, view any) error {
	return fmt.Errorf("boards: %s: %T is not the game's view", game, view)
}
