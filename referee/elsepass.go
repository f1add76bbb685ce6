package referee

import (
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// elsePassed tells a seat that a line it queued earlier became a pass when
// its turn came, as its ELSE PASS said, with the reasons (the rule of each
// alternative that could not be played) in the seat's language: never a
// silent pass, never a raw code (issue 12.6).
func (gw *gameWork) elsePassed(st engine.Step, line string) {
	rd := gw.reader(st.Seat)
	var reasons []string
	for _, e := range st.Errors {
		if e == nil {
			continue
		}
		if s, err := gw.w.r.render.Error(rd, e); err == nil && s != "" {
			reasons = append(reasons, s)
		}
	}
	gw.announce([]int{st.Seat}, "else_passed", "line", line, "reasons", reasons)
}

// keepWrittenElsePass gives back, to the orders of a message whose ELSE
// PASS was written in the player's language (ALTRIMENTI PASSA, SINON
// PASSE, ANDERS PAS) and read as "ELSE PASS", the text the player wrote:
// the echo and every later mention quote the player's own words (issue
// 12.7). orig is the message as written, read the text localElsePass made
// of it; lines correspond one to one.
func keepWrittenElsePass(orig, read string, orders []engine.Order) {
	if orig == read {
		return
	}
	ol, rl := strings.Split(orig, "\n"), strings.Split(read, "\n")
	if len(ol) != len(rl) {
		return
	}
	bare := func(l string) string {
		if k := strings.IndexByte(l, '#'); k >= 0 {
			l = l[:k]
		}
		return strings.Join(strings.Fields(l), " ")
	}
	for i := range orders {
		n := orders[i].Line - 1
		if n < 0 || n >= len(ol) || ol[n] == rl[n] || orders[i].Text != bare(rl[n]) {
			continue
		}
		orders[i].Text = bare(ol[n])
	}
}
