package tell

import "time"

// PublicLog is a game's log as a spectator reads it (rd: seat -1) on its
// page: a dated line an event of every step (as the log keeps it for
// everyone: engine.Event.For) and of every public entry, never an input.
func PublicLog(r *Renderer, rd Reader, all []Entry) ([]string, error) {
	return DatedLines(r, rd, all, time.UTC, func(e Entry) bool {
		return e.Kind != EntryInput && (e.Kind == EntryStep || e.Vis.Public)
	})
}

// DatedLines are the lines of the entries keep takes (nil: every one) as
// rd reads them, each after its entry's time in loc ("01-02 15:04"): the
// log of a game's page and of a seat's LOG.
func DatedLines(r *Renderer, rd Reader, all []Entry, loc *time.Location, keep func(Entry) bool) ([]string, error) {
	var out []string
	for _, e := range all {
		if keep != nil && !keep(e) {
			continue
		}
		ls, err := EntryLines(r, rd, e)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			out = append(out, e.At.In(loc).Format("01-02 15:04")+"  "+l)
		}
	}
	return out, nil
}
