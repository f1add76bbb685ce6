package boards

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"unicode"
)

// canvas is an SVG drawing under way: a fixed width in user units (the
// viewBox scales it to the page's width) and a height that grows as the
// drawing goes down. Every coordinate is an integer, so a drawing's bytes
// depend on the view only (the golden tests compare them).
type canvas struct {
	body bytes.Buffer
	w, h int
}

// width is the viewBox width of every board: about a phone's width in CSS
// pixels, so a font size of 11 reads as 11 px on a phone.
const width = 400

// Fonts and sizes shared by every board. On a phone of 360 CSS pixels
// the board spans the screen, 0.9 px a unit: minText (13 units) reads as
// 11.7 px, the least a label may have (issue 24). No text is drawn
// smaller: text and bold raise a smaller size to minText.
const (
	minText = 13
	small   = 13
	normal  = 14
	large   = 17
)

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

// attrs writes name="value" pairs (value escaped).
func (c *canvas) attrs(kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		c.body.WriteString(" " + kv[i] + `="` + esc(kv[i+1]) + `"`)
	}
}

// open starts a group; class names what the group draws (the tests find
// the parts of a board by it).
func (c *canvas) open(class string, kv ...string) {
	c.body.WriteString("<g")
	c.attrs(append([]string{"class", class}, kv...)...)
	c.body.WriteString(">\n")
}

func (c *canvas) close() { c.body.WriteString("</g>\n") }

// rect draws a box; stroke "" for none.
func (c *canvas) rect(x, y, w, h int, fill, stroke string) {
	c.body.WriteString("<rect")
	c.attrs("x", itoa(x), "y", itoa(y), "width", itoa(w), "height", itoa(h), "rx", "2", "fill", fill, "stroke", stroke)
	c.body.WriteString("/>\n")
}

// circle draws a disc.
func (c *canvas) circle(x, y, r int, fill, stroke string) {
	c.body.WriteString("<circle")
	c.attrs("cx", itoa(x), "cy", itoa(y), "r", itoa(r), "fill", fill, "stroke", stroke)
	c.body.WriteString("/>\n")
}

// poly draws a closed polygon through pts (x, y pairs).
func (c *canvas) poly(pts []int, fill, stroke string) {
	var p []string
	for i := 0; i+1 < len(pts); i += 2 {
		p = append(p, itoa(pts[i])+","+itoa(pts[i+1]))
	}
	c.body.WriteString("<polygon")
	c.attrs("points", strings.Join(p, " "), "fill", fill, "stroke", stroke)
	c.body.WriteString("/>\n")
}

// line draws a segment.
func (c *canvas) line(x1, y1, x2, y2 int, stroke string) {
	c.body.WriteString("<line")
	c.attrs("x1", itoa(x1), "y1", itoa(y1), "x2", itoa(x2), "y2", itoa(y2), "stroke", stroke)
	c.body.WriteString("/>\n")
}

// text writes s with its baseline at y; anchor is start, middle or end.
func (c *canvas) text(x, y, size int, anchor, fill, s string) {
	if s == "" {
		return
	}
	if anchor == "start" {
		anchor = ""
	}
	c.body.WriteString("<text")
	c.attrs("x", itoa(x), "y", itoa(y), "font-size", itoa(max(size, minText)), "text-anchor", anchor, "fill", fill)
	c.body.WriteString(">" + esc(s) + "</text>\n")
}

// bold writes s in bold.
func (c *canvas) bold(x, y, size int, anchor, s string) {
	if anchor == "start" {
		anchor = ""
	}
	c.body.WriteString("<text")
	c.attrs("x", itoa(x), "y", itoa(y), "font-size", itoa(max(size, minText)), "font-weight", "bold", "text-anchor", anchor)
	c.body.WriteString(">" + esc(s) + "</text>\n")
}

// textWidth estimates the width of s at size in user units: capitals,
// digits and wide marks take more room than small letters (system-ui
// sans-serif; the estimate errs wide, so that fitted text stays in its
// box). No text is under minText.
func textWidth(s string, size int) int {
	size = max(size, minText)
	w := 0 // in hundredths of the size
	for _, r := range s {
		switch {
		case r == 'i' || r == 'l' || r == 'j' || r == '.' || r == ',' || r == ':' || r == ';' || r == '!' || r == '\'' || r == '|':
			w += 30
		case r == ' ' || r == 'f' || r == 't' || r == 'r' || r == '(' || r == ')' || r == '-':
			w += 38
		case r == 'm' || r == 'w' || r == 'M' || r == 'W' || r == '@':
			w += 92
		case r >= 'A' && r <= 'Z' || r == '_' || r == '…' || r == '×':
			w += 72
		case r >= '0' && r <= '9':
			w += 60
		default:
			w += 58
		}
	}
	return (w*size + 99) / 100
}

// fitWidth shortens s to what a box of w user units holds at size (an
// ellipsis marks the cut).
func fitWidth(s string, w, size int) string {
	if textWidth(s, size) <= w {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if t := string(r[:n]) + "…"; textWidth(t, size) <= w {
			return t
		}
	}
	return "…"
}

// breakWord breaks s into lines that each fit w user units at size,
// never cutting it: first where a run of letters meets a run of digits
// (BARREL1: BARREL, 1), then, for a piece still too wide, between
// characters, as many on a line as fit. Joined, the lines are s.
func breakWord(s string, w, size int) []string {
	if textWidth(s, size) <= w {
		return []string{s}
	}
	var pieces []string
	r := []rune(s)
	start := 0
	for i := 1; i <= len(r); i++ {
		if i == len(r) || unicode.IsDigit(r[i]) != unicode.IsDigit(r[i-1]) {
			pieces = append(pieces, string(r[start:i]))
			start = i
		}
	}
	var out []string
	line := ""
	for _, p := range pieces {
		if line != "" && textWidth(line+p, size) <= w {
			line += p
			continue
		}
		if line != "" {
			out = append(out, line)
			line = ""
		}
		for _, c := range p {
			if line != "" && textWidth(line+string(c), size) > w {
				out = append(out, line)
				line = ""
			}
			line += string(c)
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// title gives the group just opened its title: a tooltip, and what a
// screen reader says of it (a name drawn short or broken, whole).
func (c *canvas) title(s string) {
	if s != "" {
		c.body.WriteString("<title>" + esc(s) + "</title>\n")
	}
}

// gap is the distance between the baselines of two lines at size.
func gap(size int) int { return max(size, minText) + 3 }

// wrapText breaks s at spaces into lines that fit w user units at size; a
// word wider than a line is broken over lines (breakWord), never cut.
func wrapText(s string, w, size int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case textWidth(line+" "+word, size) <= w:
			line += " " + word
		default:
			out = append(out, breakWord(line, w, size)...)
			line = word
		}
	}
	if line != "" {
		out = append(out, breakWord(line, w, size)...)
	}
	return out
}

// document wraps the drawing: the viewBox, the title and description a
// screen reader announces, the language of its words.
func (c *canvas) document(lang, title, desc string) []byte {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="board" role="img" aria-labelledby="board-title board-desc"`)
	b.WriteString(` viewBox="0 0 ` + itoa(c.w) + " " + itoa(c.h) + `" width="100%" preserveAspectRatio="xMidYMin meet"`)
	b.WriteString(` lang="` + esc(lang) + `" font-family="system-ui, sans-serif" fill="#222">` + "\n")
	b.WriteString(`<title id="board-title">` + esc(title) + "</title>\n")
	b.WriteString(`<desc id="board-desc">` + esc(desc) + "</desc>\n")
	b.WriteString(`<rect class="paper" x="0" y="0" width="` + itoa(c.w) + `" height="` + itoa(c.h) + `" fill="#fffdf7"/>` + "\n")
	b.Write(c.body.Bytes())
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// Seat colours: each seat also carries its number (1-5) in text, so the
// drawing never relies on colour alone.
var seatColours = []string{"#c0392b", "#1f6fb2", "#2e8b3e", "#d9822b", "#7b4fa0", "#555555"}

func seatColour(seat int) string {
	if seat < 0 {
		return "#999999"
	}
	return seatColours[seat%len(seatColours)]
}

// token draws a seat's marker: a disc in its colour with its number.
// The disc's class, "seat<N>" (seat from 0), lets tests find whose it is.
// Its number is minText high, so the disc is at least 8 units across.
func (c *canvas) token(x, y, r, seat int) {
	r = max(r, 8)
	class := "seat-"
	if seat >= 0 {
		class = "seat" + itoa(seat)
	}
	c.body.WriteString("<circle")
	c.attrs("class", class, "cx", itoa(x), "cy", itoa(y), "r", itoa(r), "fill", seatColour(seat), "stroke", "#222")
	c.body.WriteString("/>\n")
	label := "?"
	if seat >= 0 {
		label = itoa(seat + 1)
	}
	c.text(x, y+5, minText, "middle", "#fff", label)
}
