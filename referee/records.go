package referee

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
)

// The records (the stored game, seat, player and log entry, and their
// bytes) are package referee/records'; the names below keep the core's API
// (referee.Game and the rest). A unit of work loads its games through
// work.game, which takes the games last committed decoded from the store
// (store.Tx.TakeDecoded, kept by flush with store.Tx.KeepDecoded).
type (
	Game     = records.Game
	Seat     = records.Seat
	Vacation = records.Vacation
	Deadline = records.Deadline
	Player   = records.Player
	Entry    = records.Entry
)

// Game and seat states, the default NOTIFY mode, log entry kinds
// (records.Status...).
const (
	StatusForming = records.StatusForming
	StatusRunning = records.StatusRunning
	StatusPaused  = records.StatusPaused
	StatusOver    = records.StatusOver
	StatusAborted = records.StatusAborted

	SeatInvited  = records.SeatInvited
	SeatJoined   = records.SeatJoined
	SeatDeclined = records.SeatDeclined
	SeatPlaying  = records.SeatPlaying
	SeatResigned = records.SeatResigned
	SeatKicked   = records.SeatKicked

	DefaultNotify = records.DefaultNotify

	EntryCreate   = records.EntryCreate
	EntryInvite   = records.EntryInvite
	EntryJoin     = records.EntryJoin
	EntryDecline  = records.EntryDecline
	EntryStart    = records.EntryStart
	EntryInput    = records.EntryInput
	EntryStep     = records.EntryStep
	EntryOrg      = records.EntryOrg
	EntryMissed   = records.EntryMissed
	EntryBot      = records.EntryBot
	EntrySay      = records.EntrySay
	EntryVacation = records.EntryVacation
	EntryResign   = records.EntryResign
	EntryEnd      = records.EntryEnd
	EntryErratum  = records.EntryErratum
	EntryRollback = records.EntryRollback
)

// The records' store functions, under the names the core calls them by.
var (
	loadGame     = records.LoadGame
	decodeGame   = records.DecodeGame
	eachGameHead = records.EachGameHead
	saveGame     = records.SaveGame
	loadPlayer   = records.LoadPlayer
	savePlayer   = records.SavePlayer
	appendEntry  = records.AppendEntry
	entries      = records.Entries
	// The one seat authentication (a mail's seat tag and a webhook's
	// bearer token) and the state token read without decoding the state
	// (records/auth.go).
	authSeat   = records.AuthSeat
	stateToken = records.StateToken
)

// decodedGame is a game's record as the unit of work decoded it, kept by
// the store for the next input of the game (store.Tx.KeepDecoded).
type decodedGame struct {
	g  *Game
	tb *engine.Table
}
