package referee

import "github.com/pbem-referee/referee/engine"

// droppedQueued tells the owner of every queued line that an engine report
// dropped (its turn or phase closed: Brew Crafters' season market, a Heaven
// & Ale turn over) what became of it and why, in the next mail the owner
// gets (issue 21: a line confirmed as queued never vanishes). earlier holds
// the lines queued by earlier messages, by tag (nil: every dropped line is
// from an earlier message); a line of the message being answered is in its
// echo instead, with the same reason.
func (gw *gameWork) droppedQueued(rep *engine.Report, earlier map[int]string) {
	for _, d := range rep.Dropped {
		var lines, reasons []string
		rd := gw.reader(d.Seat)
		for i, o := range d.Orders {
			if earlier != nil {
				if _, ok := earlier[o.Tag]; !ok {
					continue
				}
			}
			lines = append(lines, o.Text)
			why := ""
			if i < len(d.Reasons) && d.Reasons[i] != nil {
				if s, err := gw.w.r.render.Error(rd, d.Reasons[i]); err == nil {
					why = s
				}
			}
			reasons = append(reasons, why)
		}
		if len(lines) > 0 {
			gw.announce([]int{d.Seat}, "queued_dropped", "lines", lines, "reasons", reasons)
		}
	}
}
