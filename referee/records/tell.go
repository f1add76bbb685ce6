package records

import "github.com/pbem-referee/referee/referee/tell"

// What the tell stage (package referee/tell) reads of a record, in its
// plain values, and what it gives back to keep in it: the fields are the
// record's, copied, never decided here.

// TellGame is the game as the tell stage reads it: its id, engine,
// status, seed and commitment, nonce, and every seat (TellSeat).
func (g *Game) TellGame() *tell.Game {
	tg := &tell.Game{ID: g.ID, Game: g.Game, Status: g.Status, Seed: g.Seed, Commitment: g.Commitment, Nonce: g.Nonce,
		Seats: make([]tell.Seat, len(g.Seats))}
	for i, s := range g.Seats {
		tg.Seats[i] = s.TellSeat()
	}
	return tg
}

// Reader is seat's reader of the game, in the seat's language (-1: an
// observer, in English).
func (g *Game) Reader(seat int) tell.Reader {
	lang := "en"
	if seat >= 0 && seat < len(g.Seats) {
		lang = g.Seats[seat].Lang
	}
	return g.ReaderIn(seat, lang)
}

// ReaderIn is seat's reader of the game in lang (-1: an observer): the
// seats named by who holds them now, an event by who held the seat at
// its move (Holding), a command by its seats' holders (Names: the
// engine's names, tell.Reader.Command).
func (g *Game) ReaderIn(seat int, lang string) tell.Reader {
	names, before := g.Holding()
	game := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		game[i] = s.Name
	}
	return tell.Reader{Game: g.Game, Lang: lang, Seat: seat, Seats: names, Before: before, Names: game}
}

// Holding are the names of who holds each seat now, and each seat's
// earlier holders (nil when no seat changed hands): tell.Holding.
func (g *Game) Holding() (names []string, before [][]tell.Holder) {
	seats := make([]tell.Seat, len(g.Seats))
	for i, s := range g.Seats {
		seats[i] = tell.Seat{Name: s.Name, Player: s.Player, Before: s.Before}
	}
	return tell.Holding(seats)
}

// HoldingNames are the names of who holds each seat now (Holding).
func (g *Game) HoldingNames() []string {
	names, _ := g.Holding()
	return names
}

// TellSeat is the seat as the tell stage reads it (Due: its running
// deadline, zero when none).
func (s Seat) TellSeat() tell.Seat {
	ts := tell.Seat{Name: s.Name, Player: s.Player, Before: s.Before, Address: s.Address, Lang: s.Lang, TZ: s.TZ, Secret: s.Secret,
		State: s.State, Bot: s.Bot, Notify: s.Notify, Format: s.Format, Receipts: s.Receipts,
		Seen: s.Seen, StateSeq: s.StateSeq, Thread: s.Thread, LastMail: s.LastMail, HaltShown: s.HaltShown,
		DigestDue: s.DigestDue, Held: s.Held}
	if s.Deadline != nil {
		ts.Due = s.Deadline.Due
	}
	return ts
}

// Told keeps in the seat what the tell stage says it has now been told:
// what it has seen, its thread, its last mail, its digest and held
// receipt.
func (s *Seat) Told(t tell.Seat) {
	s.Seen, s.StateSeq, s.Thread, s.LastMail, s.HaltShown = t.Seen, t.StateSeq, t.Thread, t.LastMail, t.HaltShown
	s.DigestDue, s.Held = t.DigestDue, t.Held
}

// TellEntry is the log entry as the tell stage reads it.
func (e Entry) TellEntry() tell.Entry {
	return tell.Entry{Seq: e.Seq, At: e.At, Kind: e.Kind, Seat: e.Seat, Vis: e.Vis, Text: e.Text, Params: e.Params, Step: e.Step}
}

// TellEntries are the entries as the tell stage reads them.
func TellEntries(all []Entry) []tell.Entry {
	out := make([]tell.Entry, len(all))
	for i, e := range all {
		out[i] = e.TellEntry()
	}
	return out
}
