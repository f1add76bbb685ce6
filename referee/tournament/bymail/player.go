package bymail

// A player's tournament commands at their own address (JOIN, WITHDRAW,
// STANDINGS; RATING is in ratings.go), and the entries the organiser's
// ENTER, WITHDRAW and REPLACE share with them.

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/pbem-referee/referee/referee/tournament"
)

// tourPlayer runs a registered player's tournament command (JOIN or
// WITHDRAW <tournament>, STANDINGS <tournament>, RATING [game]); ok is
// false when the line is not one.
func (d *desk) tourPlayer(p *Player, kw string, f []string) (string, bool, error) {
	id := ""
	if len(f) > 1 {
		id = strings.ToLower(f[1])
	}
	switch kw {
	case "JOIN":
		if id == "" || !d.rec.HasTournament(id) {
			return "", false, nil // a game's JOIN
		}
	case "WITHDRAW", "STANDINGS":
		if id == "" || !d.rec.HasTournament(id) {
			return d.tourText(p.Lang, "error.no_tournament", map[string]any{"id": id, "command": d.h.Word(p.Lang, kw)}), true, nil
		}
	case "RATING":
		return d.ratingText(p, id), true, nil
	default:
		return "", false, nil
	}
	t, err := loadTour(d.rec, id)
	if err != nil {
		return "", true, err
	}
	var out string
	switch kw {
	case "JOIN":
		if msg := d.tourJoin(t, p); msg != "" {
			return msg, true, nil
		}
		out = "" // the confirmation mail answers
	case "WITHDRAW":
		e := t.Entrant(p.Address)
		if e == nil || e.Withdrawn > 0 {
			return d.tourText(p.Lang, "error.not_entered", map[string]any{"id": t.ID}), true, nil
		}
		if err := d.tourWithdraw(t, e); err != nil {
			return "", true, err
		}
		out = d.tourText(p.Lang, "info.withdrawn", map[string]any{"id": t.ID})
	case "STANDINGS":
		return d.tourStandingsText(t, p.Lang), true, nil
	}
	return out, true, d.saveTour(t)
}

// tourJoin enters a player; it returns a message for the player when the
// entry is refused, "" when done (and the confirmation is queued).
func (d *desk) tourJoin(t *tournament.Tournament, p *Player) string {
	switch {
	case t.Status != tournament.StatusSignup || (!t.Close.IsZero() && !d.now.Before(t.Close)):
		return d.tourText(p.Lang, "error.closed", map[string]any{"id": t.ID})
	case t.Entrant(p.Address) != nil:
		return d.tourText(p.Lang, "error.already", map[string]any{"id": t.ID})
	}
	e := tournament.Entrant{ID: len(t.Entrants), Address: p.Address, Name: p.Name, Lang: p.Lang}
	t.Entrants = append(t.Entrants, e)
	d.tourMail(t, e, "confirm", nil)
	return ""
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
		return "", fmt.Errorf("%s is already in %s", p.Address, t.ID)
	}
	old := e.Address
	e.Previous = append(e.Previous, old)
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
	d.tourMail(t, *e, "confirm", nil)
	return d.orgText(t, "replaced", map[string]any{"address": p.Address, "old": old}), nil
}
