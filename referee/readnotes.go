package referee

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/reading"
)

// The reading of a mail is the reading room's (package referee/reading,
// issue 25): one reading.Mail per request (Request.read), made once in
// Process, read once per form whatever runs the unit of work again. The
// core gives the room its vocabulary (vocab) and renders what the room
// returns as data (the notes about single lines) in the reader's
// language.

// read is the request's reading: the one Mail of its text.
func (req *Request) read() *reading.Mail {
	if req.reading == nil {
		var greeting, signOff []string
		if req.Read != nil {
			greeting, signOff = req.Read.Greeting, req.Read.SignOff
		}
		req.reading = reading.New(req.Text, greeting, signOff)
	}
	return req.reading
}

// vocab is what the reading knows of a game.
func (r *Referee) vocab(eg engine.Game, game string) reading.Vocab {
	return reading.Vocab{T: r.render.T, Game: eg, Name: game, Referee: cmdtable.ReadingWords}
}

// readAnswers reads a seat's mail as the player meant it (issue 20): the
// reading room's Answers for the game and the seat's language; the lines
// read as chat no longer count among the lines the transport read
// (req.Read.Lines).
func (gw seatMail) readAnswers(seat int, req *Request) *reading.Answers {
	ans := req.read().Answers(gw.w.r.vocab(gw.eg, gw.g.Game), gw.g.Seats[seat].Lang)
	if rd := req.Read; rd != nil && ans.ChatLines > 0 {
		c := *rd
		c.Lines = max(0, c.Lines-ans.ChatLines)
		req.Read = &c
	}
	return ans
}

// answerNotes adds the reply's remarks about single lines, in the
// seat's language.
func (gw seatMail) answerNotes(seat int, notes []reading.Note) {
	if len(notes) == 0 {
		return
	}
	rep := gw.reply(seat)
	rep.Info = append(rep.Info, gw.text(seat, "info.answers", map[string]any{"notes": gw.noteTexts(seat, notes)}))
}

// noteTexts are the reading's notes in the seat's language.
func (gw seatMail) noteTexts(seat int, notes []reading.Note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		data := map[string]any{"line": n.Line, "raw": n.Raw}
		switch n.Kind {
		case reading.NoteAsk:
			data["candidates"] = gw.localWords(seat, n.Candidates)
		case reading.NoteReadAs:
			data = map[string]any{"line": n.Line, "typo": n.Typo, "kw": gw.localWords(seat, []string{n.Keyword})[0]}
		case reading.NoteHint:
			data["hint"] = gw.localLine(seat, n.Hint)
		}
		out[i] = gw.text(seat, string(n.Kind), data)
	}
	return out
}

// localWords are keywords as the seat's reader writes them.
func (gw seatMail) localWords(seat int, kws []string) []string {
	rd := gw.reader(seat)
	out := make([]string, len(kws))
	for i, kw := range kws {
		out[i] = gw.w.r.render.ctx(rd, nil).Kw(kw)
	}
	return out
}

// localLine is a command line as the seat's reader writes it.
func (gw seatMail) localLine(seat int, line string) string {
	return gw.w.r.render.ctx(gw.reader(seat), nil).KwLine(line)
}
