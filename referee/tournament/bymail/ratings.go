package bymail

// Ratings: every game's end moves its players' Glicko-2 (two seats) and
// Weng-Lin (more) ratings; RATING shows them.

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
)

func (d *desk) loadRating(game, addr string) (tournament.Rating, error) {
	raw, err := d.rec.Rating(game, addr)
	if d.h.IsNotFound(err) {
		return tournament.NewRating(game, addr), nil
	}
	if err != nil {
		return tournament.Rating{}, err
	}
	var r tournament.Rating
	err = json.Unmarshal(raw, &r)
	return r, err
}

// rateGame moves the ratings of a finished game's players.
func (d *desk) rateGame(g GameEnd) error {
	if len(g.Addresses) < 2 || len(g.Rank) != len(g.Addresses) {
		return nil
	}
	rs := make([]tournament.Rating, len(g.Addresses))
	for i, addr := range g.Addresses {
		r, err := d.loadRating(g.Game, addr)
		if err != nil {
			return err
		}
		r.Name = g.Names[i]
		rs[i] = r
	}
	for i, r := range tournament.RateGame(rs, g.Rank) {
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if err := d.rec.PutRating(g.Game, g.Addresses[i], raw); err != nil {
			return err
		}
	}
	return nil
}

// ratingShort is the rating shown in standings: Glicko-2 for two-player
// tables, Weng-Lin's μ−3σ (times 40, on a scale like Elo's) for more; ""
// before the first rated game.
func (d *desk) ratingShort(game, addr string, table int) string {
	r, err := d.loadRating(game, addr)
	if err != nil {
		return ""
	}
	if table == 2 {
		if r.Duels == 0 {
			return ""
		}
		return fmt.Sprintf("%.0f", r.Glicko.R)
	}
	if r.Tables == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f", 1000+40*r.WengLin.Ordinal())
}

// playerRating answers RATING [game].
func playerRating(c *playerCmd) (string, error) { return c.d.ratingText(c.p, c.id), nil }

// ratingText answers RATING [game].
func (d *desk) ratingText(p *Player, game string) string {
	var rows []map[string]any
	var names []string
	for _, eg := range engine.Games() {
		names = append(names, eg.Info().Name)
	}
	sort.Strings(names)
	for _, g := range names {
		if game != "" && g != game {
			continue
		}
		raw, err := d.rec.Rating(g, p.Address)
		if err != nil {
			continue
		}
		var r tournament.Rating
		if json.Unmarshal(raw, &r) != nil {
			continue
		}
		title := g
		if eg, err := engine.Lookup(g); err == nil {
			title = eg.Info().Title
		}
		rows = append(rows, map[string]any{"title": title, "duels": r.Duels, "tables": r.Tables,
			"r": fmt.Sprintf("%.0f", r.Glicko.R), "rd": fmt.Sprintf("%.0f", r.Glicko.RD),
			"mu": fmt.Sprintf("%.1f", r.WengLin.Mu), "sigma": fmt.Sprintf("%.1f", r.WengLin.Sigma),
			"ordinal": fmt.Sprintf("%.0f", 1000+40*r.WengLin.Ordinal())})
	}
	return d.tourText(p.Lang, "rating", map[string]any{"rows": rows, "game": game})
}
