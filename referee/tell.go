package referee

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// mailView is the tell stage of the unit of work (issue 13.3): a pure
// view that turns one game after the apply stage (its record, its table,
// its log since the oldest seat's last mail) and what the apply stage
// changed into the mails each seat gets. It reads no store and no clock
// (now is given) and changes nothing it is given: the seats come back as
// told, with the game's mail counter, in a toldGame, and the caller
// persists them with the mails. The golden tests of tell_test.go drive it
// without a store.
type mailView struct {
	*changes
	g      *Game
	tb     *engine.Table // nil before the start
	eg     engine.Game
	render *Renderer
	now    time.Time
	// domain is the right-hand side of the Message-IDs.
	domain string
	// receiptWindow is Options.ReceiptWindow (receipts.go).
	receiptWindow time.Duration
	// log holds the entries from the oldest seat's Seen+1 on.
	log []Entry
	// finalLog is the published log, attached to the mails of a game that
	// ended (the caller reads it when changes.ended).
	finalLog []byte

	seats []Seat
	nonce int
	out   []*Outgoing
}

// toldGame is what the mail view returns: the mails in seat order (not
// yet composed, without date, sender or bounce address: enqueue adds
// them), the seats as told (what each has seen, their threads, the halt
// explained, the next digest) and the game's mail counter.
type toldGame struct {
	Mails []*Outgoing
	Seats []Seat
	Nonce int
}

// mails writes the mail of every seat that gets one.
func (v *mailView) mails() (*toldGame, error) {
	v.seats, v.nonce, v.out = slices.Clone(v.g.Seats), v.g.Nonce, nil
	for i := range v.seats {
		if err := v.mailSeat(i); err != nil {
			return nil, err
		}
	}
	return &toldGame{Mails: v.out, Seats: v.seats, Nonce: v.nonce}, nil
}

func (v *mailView) reader(seat int) Reader {
	rd := readerOf(v.g, seat)
	if seat >= 0 && seat < len(v.seats) {
		rd.Lang = v.seats[seat].Lang
	}
	return rd
}

func (v *mailView) token() int { return tableToken(v.tb) }

// messageID numbers the next mail of the game to seat.
func (v *mailView) messageID(seat int) string {
	v.nonce++
	return messageIDFor(v.g.ID, seat, v.token(), v.nonce, v.domain)
}

// tableToken is a table's state token (0 before the start).
func tableToken(tb *engine.Table) int {
	if tb == nil {
		return 0
	}
	return tb.Token()
}

// messageIDFor is the Message-ID of a game's mail:
// <rf.<game>.<seat>.<token>.<nonce>@domain>, seat "x" for none.
func messageIDFor(game string, seat, token, nonce int, domain string) string {
	s := "x"
	if seat >= 0 {
		s = fmt.Sprint(seat)
	}
	if token < 0 {
		token = 0
	}
	return fmt.Sprintf("<rf.%s.%s.%d.%d@%s>", game, s, token, nonce, domain)
}

// waitingNames lists the names of the seats game g waits for.
func waitingNames(g *Game, tb *engine.Table) []string {
	var out []string
	seen := map[int]bool{}
	for _, d := range tb.Waiting() {
		if !seen[d.Seat] {
			seen[d.Seat] = true
			out = append(out, g.Seats[d.Seat].Name)
		}
	}
	sort.Strings(out)
	return out
}
