// Package records is the records layer of the core: the stored game,
// seat, player, log entry and organiser (the "games", "players", "log"
// and "organisers" buckets), their encoding, and the small facts the core
// asks of a record (a seat's greeting, the seat of an address, the seats'
// names, a unique name).
//
// It owns the types and their bytes: the only code that encodes and
// decodes the store's game, player, log and organiser records (tournaments
// and ratings have theirs in the desk, package referee/tournament/bymail),
// what the tell stage reads of a record and gives back to keep in it
// (tell.go: Game.TellGame, Game.Reader, Seat.Told, Entry.TellEntry:
// copies, no decision), and what the store's game indexes hold of a game
// (IndexOf), written in the same transaction as the record (SaveGame), and
// read back to find the games open to JOIN without decoding the others
// (OpenGames, paged: through the store's index of the games a player may
// JOIN, Joinable, and its counter, so a seat's LIST reads no other game's
// entry; TestJoinableCountKeptWithTheGames_Issue25) and an organiser's
// games without decoding any (OrganiserGames, paged: the index read from
// the page's first game on, the rest counted from its keys; a game a NEW
// of the same mail created is listed in its place by id,
// TestOrganiserGamesPlaceFreshGames_Issue25). The core re-exports the types under their old names
// (referee.Game, referee.Seat, ...), so that the edges and the tools read
// the records through the core's queries as before. It owns seat
// authentication too, in one place (auth.go, issue 25): a seat's secret
// against the seat's record, for a mail's seat tag and a webhook's bearer
// token alike (AuthSeat), an organiser's tag (AuthOrganiser), each secret
// compared in constant time, and a game's state token read from its record
// without decoding the state (StateToken). A unit of work reads a player
// through Players (issue 24), which decodes a record again only when its
// stored bytes changed and hands each caller its own copy: the same as
// LoadPlayer at every read (TestPlayersLoadAsStored_Issue24). A log
// entry is encoded by hand (entryjson.go, EncodeEntry, issue 24: the
// reflection over the Params of a round's create and start entries),
// into the bytes json.Marshal writes, which stay the stored format
// (TestEntryEncodedAsEncodingJSONDoes_Issue24, FuzzEncodeEntry). A
// game's record holds its engine table without the prompts (issue 25:
// they are asked again from the state when the table is read,
// engine.LoadTable), so that a move changes a third less of the record
// (referee TestColdReadAfterEveryMoveSameMails_Issue25; a record stored
// with them reads and is rewritten without, TestOlderRecordReadAndRewritten_Issue25).
//
// It must not decide anything else about a game (the core and the engines
// do), render a word (templates/ does), read the clock or randomness, or
// open a transaction: it reads and writes through the store.Tx it is
// given.
package records
