package referee

import (
	"encoding/json"
	"sync/atomic"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/enginelog"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/tell"
)

// The tell stage is package referee/tell: the core hands it one game in
// plain values (the game, its table, its log since the oldest seat's last
// mail, what changed for each seat, the notes) and gets back the mails and
// the seats as told; the core persists them. This file is that boundary.

// reader is seat's reader of the game (records.Game.Reader).
func (gw *gameWork) reader(seat int) Reader { return gw.g.Reader(seat) }

// mail is the tell stage of a game: it gathers what the tell stage reads
// (the log since the oldest seat's last mail, the published log of a game
// that ended), has it write the mails, takes back the seats as told and
// queues the mails.
func (gw teller) mail() error {
	if len(gw.g.Seats) == 0 {
		return nil
	}
	from := gw.g.Seats[0].Seen
	for _, s := range gw.g.Seats {
		from = min(from, s.Seen)
	}
	log, older := gw.logSince(from + 1)
	if gw.ended && gw.finalLog == nil {
		all, err := gw.wholeLog()
		if err != nil {
			return err
		}
		lg, err := enginelog.Rebuild(gw.g, all, gw.w.tx.Ruleset, gw.eg, gw.tb)
		if err != nil {
			return err
		}
		if gw.finalLog, err = json.MarshalIndent(lg, "", " "); err != nil {
			return err
		}
	}
	in := tellInput(gw.g, gw.tb, gw.eg, &gw.changes, log)
	in.Older, in.FinalLog, in.Now = older, gw.finalLog, gw.w.now
	told, err := gw.w.r.teller().Mails(in)
	if err != nil {
		return err
	}
	gw.g.Nonce = told.Nonce
	for i, s := range told.Seats {
		gw.g.Seats[i].Told(s)
	}
	for _, m := range told.Mails {
		if err := gw.w.enqueue(m); err != nil {
			return err
		}
	}
	return nil
}

// teller is the tell stage's configuration.
func (r *Referee) teller() *tell.Teller {
	return &tell.Teller{Render: r.render.Renderer, Domain: r.opt.Domain, ReceiptWindow: r.opt.ReceiptWindow}
}

// logSince is the game's log from seq from on, for the tell stage: the
// entries this unit of work wrote as they are in memory (gameWork.logged:
// nothing it wrote is read back and decoded again), and a reader of the
// older entries from the store, which the tell stage calls only when a
// seat that has not seen them needs them.
func (gw teller) logSince(from uint64) (mem []tell.Entry, older func() ([]tell.Entry, error)) {
	end := gw.firstInMemory()
	for _, e := range gw.logged {
		if e.Seq >= from {
			mem = append(mem, e.TellEntry())
		}
	}
	if end != 0 && from >= end {
		return mem, nil
	}
	return mem, func() ([]tell.Entry, error) {
		es, err := records.EntriesBefore(gw.w.tx, gw.g.ID, from, end)
		logReads.Add(int64(len(es)))
		return records.TellEntries(es), err
	}
}

// wholeLog is the game's whole log, for the published log of a game that
// ended: the entries older than this unit of work from the store, those
// it wrote as they are in memory (issue 25: never read back and decoded).
func (gw teller) wholeLog() ([]Entry, error) {
	es, err := records.EntriesBefore(gw.w.tx, gw.g.ID, 1, gw.firstInMemory())
	finalLogReads.Add(int64(len(es)))
	return append(es, gw.logged...), err
}

// firstInMemory is the seq of the first log entry this unit of work
// wrote and holds in memory (0: none).
func (gw teller) firstInMemory() uint64 {
	if len(gw.logged) == 0 {
		return 0
	}
	return gw.logged[0].Seq
}

// logReads and finalLogReads count the log entries the tell stage read
// back from the store for the mails and for the published log of a game
// that ended (TestTellReadsNothingBack_Issue25,
// TestTellSeatReplyReadsNoLog_Issue25,
// TestFinalLogReadsNothingWritten_Issue25; nothing else reads them).
var logReads, finalLogReads atomic.Int64

// tellInput is one game as the tell stage reads it (records'
// Game.TellGame) with what changed for each seat.
func tellInput(g *Game, tb *engine.Table, eg engine.Game, c *changes, log []tell.Entry) *tell.Input {
	ch := make([]tell.SeatChange, len(g.Seats))
	for i := range g.Seats {
		sc := c.of(i)
		ch[i] = tell.SeatChange{Reply: sc.reply, Answering: sc.answering, Force: sc.force, Reminder: sc.reminder,
			Digest: sc.digest, Asked: sc.asked, Quiet: sc.quiet, Status: sc.status, Full: sc.full}
	}
	return &tell.Input{Game: g.TellGame(), Table: tb, Engine: eg, Log: log, Changes: ch, Notes: c.notes, Ended: c.ended}
}

// tableToken is a table's state token (0 before the start).
func tableToken(tb *engine.Table) int { return tell.TableToken(tb) }

// waitingNames lists who holds the seats game g waits for now (issue 24).
func waitingNames(g *Game, tb *engine.Table) []string { return tell.WaitingNames(g.HoldingNames(), tb) }

// playerTag is the tag of a player's mail.
func playerTag(secret string) mailmsg.Tag { return tell.PlayerTag(secret) }

// Composer returns the outbox composer (tell.Composer).
func Composer(from mailmsg.Address) func(*Outgoing) ([]byte, error) { return tell.Composer(from) }
