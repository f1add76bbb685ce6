package tell

// PublicLog is a game's log as a spectator reads it (rd: seat -1) on its
// page: a dated line an event of every step (as the log keeps it for
// everyone: engine.Event.For) and of every public entry, never an input.
func PublicLog(r *Renderer, rd Reader, all []Entry) ([]string, error) {
	var out []string
	for _, e := range all {
		if e.Kind == EntryInput || e.Kind != EntryStep && !e.Vis.Public {
			continue
		}
		ls, err := EntryLines(r, rd, e)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			out = append(out, e.At.UTC().Format("01-02 15:04")+"  "+l)
		}
	}
	return out, nil
}
