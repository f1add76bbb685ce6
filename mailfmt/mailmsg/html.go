package mailmsg

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxQuoteDepth caps the "> " prefixes written for nested blockquotes.
const maxQuoteDepth = 8

// HTMLToText converts an HTML mail body into readable plain text for
// command extraction:
//
//   - block elements (p, div, headings, tables rows, ...) and <br> end lines;
//   - list items become lines of their own, without bullets or numbers (a
//     player who types orders as a list sends valid commands);
//   - table cells are separated by a space;
//   - <hr> becomes a line of underscores, as Outlook's separator in text;
//   - <blockquote> content is prefixed with "> " per level, so quoted
//     replies can be stripped like plain-text quotes;
//   - known signature containers (Gmail, Thunderbird, Outlook mobile) are
//     preceded by a "-- " delimiter line;
//   - scripts, styles, heads, titles and comments are dropped; entities are
//     decoded; whitespace is collapsed outside <pre>.
//
// The result is not normalised further (see Parse for that).
func HTMLToText(src string) string {
	c := htmlConv{}
	z := html.NewTokenizer(strings.NewReader(src))
	z.SetMaxBuf(len(src) + 4096)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			c.endLine()
			return c.result()
		case html.TextToken:
			if c.skip > 0 {
				continue
			}
			c.text(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			var attrs map[string]string
			if hasAttr {
				attrs = map[string]string{}
				for {
					k, v, more := z.TagAttr()
					if len(attrs) < 16 {
						attrs[string(k)] = string(v)
					}
					if !more {
						break
					}
				}
			}
			c.start(a, tt == html.SelfClosingTagToken, attrs)
		case html.EndTagToken:
			name, _ := z.TagName()
			c.end(atom.Lookup(name))
		}
	}
}

type htmlConv struct {
	out     strings.Builder
	line    strings.Builder
	lineHas bool // line has content (text written)
	space   bool // a collapsed space is pending
	depth   int  // blockquote depth
	pre     int
	skip    int
	blanks  int // blank lines written in a row
}

func (c *htmlConv) result() string {
	return strings.TrimRight(c.out.String(), "\n") + "\n"
}

func (c *htmlConv) prefix() string {
	d := min(c.depth, maxQuoteDepth)
	if d == 0 {
		return ""
	}
	return strings.Repeat("> ", d)
}

// endLine finishes the current line if it has content.
func (c *htmlConv) endLine() {
	if !c.lineHas {
		c.space = false
		return
	}
	c.out.WriteString(strings.TrimRight(c.line.String(), " "))
	c.out.WriteByte('\n')
	c.line.Reset()
	c.lineHas, c.space = false, false
	c.blanks = 0
}

// hardBreak ends the current line, writing an empty (or quote-only) line
// when nothing was on it, at most two in a row.
func (c *htmlConv) hardBreak() {
	if c.lineHas {
		c.endLine()
		return
	}
	if c.blanks >= 2 {
		return
	}
	c.out.WriteString(strings.TrimRight(c.prefix(), " "))
	c.out.WriteByte('\n')
	c.blanks++
	c.space = false
}

func (c *htmlConv) write(s string) {
	if s == "" {
		return
	}
	if !c.lineHas {
		c.line.WriteString(c.prefix())
		c.lineHas = true
	} else if c.space {
		c.line.WriteByte(' ')
	}
	c.space = false
	c.line.WriteString(s)
}

func (c *htmlConv) text(s string) {
	if c.pre > 0 {
		lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
		for i, l := range lines {
			if i > 0 {
				c.hardBreak()
			}
			if l != "" {
				c.write(l)
			}
		}
		return
	}
	lead := len(s) > 0 && isHTMLSpace(s[0])
	trail := len(s) > 0 && isHTMLSpace(s[len(s)-1])
	words := strings.FieldsFunc(s, func(r rune) bool { return r < 0x80 && isHTMLSpace(byte(r)) })
	if len(words) == 0 {
		if lead && c.lineHas {
			c.space = true
		}
		return
	}
	if lead && c.lineHas {
		c.space = true
	}
	for i, w := range words {
		if i > 0 {
			c.space = true
		}
		c.write(w)
	}
	if trail {
		c.space = true
	}
}

func isHTMLSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'
}

func isSignatureContainer(attrs map[string]string) bool {
	id := strings.ToLower(attrs["id"])
	switch id {
	case "signature", "ms-outlook-mobile-signature", "applemailsignature", "divtagdefaultwrapper-signature":
		return true
	}
	for _, cl := range strings.Fields(strings.ToLower(attrs["class"])) {
		switch cl {
		case "gmail_signature", "moz-signature", "signature", "elementtoproof-signature":
			return true
		}
	}
	return false
}

func (c *htmlConv) start(a atom.Atom, selfClosing bool, attrs map[string]string) {
	switch a {
	case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template, atom.Noscript, atom.Object, atom.Svg, atom.Math:
		if !selfClosing {
			c.skip++
		}
		return
	}
	if c.skip > 0 {
		return
	}
	switch a {
	case atom.Br:
		c.hardBreak()
	case atom.Hr:
		c.endLine()
		c.write("________________________________")
		c.endLine()
	case atom.Blockquote:
		c.endLine()
		c.depth++
	case atom.Pre:
		c.endLine()
		c.pre++
	case atom.Div:
		c.endLine()
		if isSignatureContainer(attrs) {
			// The standard delimiter, trailing space included.
			c.out.WriteString(c.prefix() + "-- \n")
			c.blanks = 0
		}
	case atom.Td, atom.Th:
		if c.lineHas {
			c.space = true
		}
	case atom.Img:
		// images carry no commands
	default:
		if isBlock(a) {
			c.endLine()
		}
	}
}

func (c *htmlConv) end(a atom.Atom) {
	switch a {
	case atom.Script, atom.Style, atom.Head, atom.Title, atom.Template, atom.Noscript, atom.Object, atom.Svg, atom.Math:
		if c.skip > 0 {
			c.skip--
		}
		return
	}
	if c.skip > 0 {
		return
	}
	switch a {
	case atom.Blockquote:
		c.endLine()
		if c.depth > 0 {
			c.depth--
		}
	case atom.Pre:
		c.endLine()
		if c.pre > 0 {
			c.pre--
		}
	case atom.Div:
		c.endLine()
	case atom.Td, atom.Th:
		c.space = c.lineHas
	case atom.P:
		c.endLine()
	default:
		if isBlock(a) {
			c.endLine()
		}
	}
}

func isBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Li,
		atom.Dl, atom.Dt, atom.Dd, atom.Table, atom.Tr, atom.Thead, atom.Tbody, atom.Tfoot,
		atom.Caption, atom.Address, atom.Article, atom.Aside, atom.Footer, atom.Header,
		atom.Section, atom.Nav, atom.Main, atom.Figure, atom.Figcaption, atom.Form,
		atom.Fieldset, atom.Center, atom.Details, atom.Summary, atom.Body, atom.Html:
		return true
	}
	return false
}
