package bymail

// A player's tournament commands at their own address (JOIN, WITHDRAW,
// STANDINGS; RATING is in ratings.go), and the entries the organiser's
// ENTER, WITHDRAW and REPLACE share with them.

import (
	"cmp"
	"strings"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/tournament"
)

// noTournament answers a command naming no tournament.
func (c *playerCmd) noTournament() string {
	return c.d.tourText(c.p.Lang, "error.no_tournament", map[string]any{"id": c.id, "command": c.d.h.Word(c.p.Lang, c.cmd.Keyword)})
}

// playerJoin enters the player (a JOIN naming no tournament is a game's);
// the confirmation mail answers.
func playerJoin(c *playerCmd) (string, error) {
	if c.id == "" || !c.d.rec.HasTournament(c.id) {
		return "", errNotMine
	}
	t, err := c.d.load(c.id)
	if err != nil {
		return "", err
	}
	if msg := c.d.tourJoin(t, c.p); msg != "" {
		return msg, nil
	}
	return "", c.d.saveTour(t)
}

func playerWithdraw(c *playerCmd) (string, error) {
	if c.id == "" || !c.d.rec.HasTournament(c.id) {
		return c.noTournament(), nil
	}
	t, err := c.d.load(c.id)
	if err != nil {
		return "", err
	}
	// Issue 23: "WITHDRAW <t> <address>" names whom to withdraw; a player
	// may name only their own address (the organiser's command withdraws
	// others).
	if len(c.f) > 2 && !mailmsg.SameMailbox(strings.Trim(c.f[2], "<>"), c.p.Address) {
		return c.d.tourText(c.p.Lang, "error.withdraw_other", map[string]any{"id": t.ID,
			"command": c.d.h.Word(c.p.Lang, "WITHDRAW")}), nil
	}
	if place := t.WaitingPlace(c.p.Address); place > 0 {
		t.Waitlist = append(t.Waitlist[:place-1:place-1], t.Waitlist[place:]...)
		return c.d.tourText(c.p.Lang, "info.withdrawn", map[string]any{"id": t.ID}), c.d.saveTour(t)
	}
	e := t.Entrant(c.p.Address)
	if e == nil || e.Withdrawn > 0 {
		return c.d.tourText(c.p.Lang, "error.not_entered", map[string]any{"id": t.ID}), nil
	}
	if err := c.d.tourWithdraw(t, e); err != nil {
		return "", err
	}
	return c.d.tourText(c.p.Lang, "info.withdrawn", map[string]any{"id": t.ID}), c.d.saveTour(t)
}

func playerStandings(c *playerCmd) (string, error) {
	if c.id == "" || !c.d.rec.HasTournament(c.id) {
		return c.noTournament(), nil
	}
	t, err := c.d.load(c.id)
	if err != nil {
		return "", err
	}
	return c.d.tourStandingsText(t, c.p.Lang), nil
}

// tourJoin enters a player; it returns a message for the player when the
// entry is refused (error.<key>, in their language), "" when done (and the
// confirmation is queued).
func (d *desk) tourJoin(t *tournament.Tournament, p *Player) string {
	if e := d.tourEnter(t, p, false); e != nil {
		return d.tourText(p.Lang, "error."+e.Key, e.Data)
	}
	return ""
}

// tourEnter enters a player; late (the organiser's ENTER) also once the
// tournament runs: a late entry, paired from the next round (Swiss and
// tables only; the others' pairings are fixed at the start). A refusal
// is an Error whose key is the same for the player (error.<key>) and the
// organiser (err.<key>).
func (d *desk) tourEnter(t *tournament.Tournament, p *Player, late bool) *Error {
	running := t.Status == tournament.StatusRunning && (t.Format == tournament.Swiss || t.Format == tournament.Tables)
	switch {
	case late && running && t.Entrant(p.Address) == nil && len(t.Entrants) < d.h.MaxEntrants():
		e := tournament.Entrant{ID: len(t.Entrants), Address: p.Address, Name: p.Name, Lang: p.Lang, Joined: len(t.Rounds) + 1}
		t.Entrants = append(t.Entrants, e)
		lang := e.Lang
		if lang == "" {
			lang = "en"
		}
		d.tourMail(t, e, "confirm", mailData{Late: d.tourText(lang, "audit.late", map[string]any{"name": e.Name, "from": e.Joined})})
		return nil
	case t.Status != tournament.StatusSignup || (!t.Close.IsZero() && !d.now.Before(t.Close)):
		return fail("closed", "id", t.ID, "address", p.Address)
	case t.Entrant(p.Address) != nil:
		return fail("already", "id", t.ID, "address", p.Address)
	case t.WaitingPlace(p.Address) > 0:
		return fail("already_waiting", "id", t.ID, "place", t.WaitingPlace(p.Address), "address", p.Address)
	case len(t.Entrants)+len(t.Waitlist) >= d.h.MaxEntrants(): // issue 23: bounded
		return fail("full", "id", t.ID, "max", d.h.MaxEntrants(), "address", p.Address)
	case t.Full():
		// Issue 24: beyond the organiser's cap, a waiting list.
		e := tournament.Entrant{Address: p.Address, Name: p.Name, Lang: p.Lang}
		t.Waitlist = append(t.Waitlist, e)
		d.tourMail(t, e, "waitlist", mailData{Place: len(t.Waitlist), Cap: t.Cap})
		return nil
	}
	e := tournament.Entrant{ID: len(t.Entrants), Address: p.Address, Name: p.Name, Lang: p.Lang}
	t.Entrants = append(t.Entrants, e)
	d.tourMail(t, e, "confirm", mailData{})
	return nil
}

// tourWithdraw takes an entrant out: before the start their entry is
// dropped; later they are not paired again and their open game is
// forfeited (their results so far stay, so everyone's tie-breaks stay
// right).
func (d *desk) tourWithdraw(t *tournament.Tournament, e *tournament.Entrant) error {
	if t.Status == tournament.StatusSignup {
		var keep []tournament.Entrant
		for _, x := range t.Entrants {
			if x.ID != e.ID {
				x.ID = len(keep)
				keep = append(keep, x)
			}
		}
		t.Entrants = keep
		// The first on the waiting list takes the place.
		if len(t.Waitlist) > 0 && !t.Full() {
			w := t.Waitlist[0]
			t.Waitlist = t.Waitlist[1:]
			w.ID = len(t.Entrants)
			t.Entrants = append(t.Entrants, w)
			d.tourMail(t, w, "confirm", mailData{})
		}
		return nil
	}
	if e.Withdrawn > 0 {
		return nil
	}
	e.Withdrawn = len(t.Rounds) + 1
	if n := len(t.Rounds); n > 0 {
		for _, m := range t.Rounds[n-1].Matches {
			if m.Decided() || m.GameID == "" {
				continue
			}
			for _, s := range m.Seats {
				if s == e.ID {
					if err := d.forfeit(t, m.GameID, e.ID); err != nil {
						return err
					}
				}
			}
		}
	}
	return d.tourAdvance(t)
}

// tourReplace hands an entrant's place (and history) to another player;
// the open game's seat goes with it.
func (d *desk) tourReplace(t *tournament.Tournament, e *tournament.Entrant, inv Invitee) (string, error) {
	p, err := d.h.EnsurePlayer(strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return "", err
	}
	if t.Entrant(p.Address) != nil {
		return "", fail("already_in", "address", p.Address, "id", t.ID)
	}
	old := e.Address
	e.Previous = append(e.Previous, old)
	// Who played which game: the old player's rounds end with the last
	// round whose game they finished (the open game passes on); they
	// played that game in part when a move was made in it (Into).
	through, into := len(t.Rounds), 0
	if n := len(t.Rounds); n > 0 {
		for _, m := range t.Rounds[n-1].Matches {
			for _, s := range m.Seats {
				if s == e.ID && !m.Decided() {
					through = n - 1
					if m.GameID == "" {
						continue
					}
					if gi, err := d.h.Game(m.GameID); err == nil && gi.Moves > 0 {
						into = n
					}
				}
			}
		}
	}
	e.Before = append(e.Before, tournament.Stint{Name: e.Name, Address: old, Through: through, Into: into})
	e.Address, e.Name, e.Lang = p.Address, cmp.Or(inv.Name, p.Name), p.Lang
	if n := len(t.Rounds); n > 0 {
		for _, m := range t.Rounds[n-1].Matches {
			if m.Decided() || m.GameID == "" {
				continue
			}
			if err := d.h.ReplaceSeat(m.GameID, old, inv); err != nil {
				return "", err
			}
		}
	}
	d.tourMail(t, *e, "confirm", mailData{})
	return d.orgText(t, "replaced", map[string]any{"address": p.Address, "old": old}), nil
}
