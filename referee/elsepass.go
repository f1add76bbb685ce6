package referee

import (
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
