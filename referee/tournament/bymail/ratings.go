package bymail

// Ratings: every game's end moves its players' Glicko-2 (two seats) and
// Weng-Lin (more) ratings; RATING shows them.

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"

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

// rated are the ratings of a game's players by seat, before the game
// and after it (both nil when the game rates nobody).
type rated struct {
	before, after []tournament.Rating
}

// rateEnd moves the ratings of a finished game's players, through
// tournament.RateMatch: every game with a result counts, an adjudicated
// one too (and is counted in Rating.Adjudicated, which marks the rating).
// It returns the players' ratings by seat before and after the game.
func (d *desk) rateEnd(g GameEnd) (rated, error) {
	state := tournament.MatchDone
	if g.Adjudicated {
		state = tournament.MatchAdjudicated
	}
	m := tournament.Match{Seats: make([]int, len(g.Addresses)), Rank: g.Rank, State: state}
	if !tournament.Rated(m) {
		return rated{}, nil
	}
	rs := make([]tournament.Rating, len(g.Addresses))
	for i, addr := range g.Addresses {
		r, err := d.loadRating(g.Game, addr)
		if err != nil {
			return rated{}, err
		}
		if i < len(g.Names) {
			r.Name = g.Names[i]
		}
		rs[i] = r
	}
	before := rs
	rs, _ = tournament.RateMatch(slices.Clone(rs), m)
	for i, r := range rs {
		raw, err := json.Marshal(r)
		if err != nil {
			return rated{}, err
		}
		if err := d.rec.PutRating(g.Game, g.Addresses[i], raw); err != nil {
			return rated{}, err
		}
	}
	return rated{before: before, after: rs}, nil
}

// keepRatings stores a tournament match's players' ratings with the
// match, as standings show them: the ratings they came with
// (Match.RatingsBefore) and the new ones (Match.Ratings).
func keepRatings(t *tournament.Tournament, m *tournament.Match, rs rated) {
	if len(rs.after) != len(m.Seats) || len(rs.before) != len(m.Seats) {
		return
	}
	m.Ratings, m.RatingsBefore = make([]float64, len(m.Seats)), make([]float64, len(m.Seats))
	for i := range m.Seats {
		m.Ratings[i] = tournament.RatingValue(rs.after[i], t.Table)
		m.RatingsBefore[i] = tournament.RatingValue(rs.before[i], t.Table)
	}
}

// rateAdjudicated rates a tournament game adjudicated at once (scored as
// it stands): its players are the match's entrants, at their addresses
// now (a replacement's, after REPLACE).
func (d *desk) rateAdjudicated(t *tournament.Tournament, r, k int, gid string, rank []int) error {
	m := &t.Rounds[r].Matches[k]
	end := GameEnd{ID: gid, Game: t.Game, Rank: rank, Adjudicated: true}
	for _, e := range m.Seats {
		end.Addresses = append(end.Addresses, t.Entrants[e].Address)
		end.Names = append(end.Names, t.Entrants[e].Name)
	}
	rs, err := d.rateEnd(end)
	keepRatings(t, m, rs)
	return err
}

// ratingShort is the rating shown in standings: Glicko-2 for two-player
// tables, Weng-Lin's μ−3σ (times 40, on a scale like Elo's) for more; ""
// before the first rated game. adjudicated: adjudicated games count in
// it (the standings mark it).
func (d *desk) ratingShort(game, addr string, table int) (rating string, adjudicated bool) {
	r, err := d.loadRating(game, addr)
	if err != nil {
		return "", false
	}
	if table == 2 {
		if r.Duels == 0 {
			return "", false
		}
		return fmt.Sprintf("%.0f", r.Glicko.R), r.Adjudicated > 0
	}
	if r.Tables == 0 {
		return "", false
	}
	return fmt.Sprintf("%.0f", 1000+40*r.WengLin.Ordinal()), r.Adjudicated > 0
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
			"ordinal": fmt.Sprintf("%.0f", 1000+40*r.WengLin.Ordinal()), "adjudicated": r.Adjudicated})
	}
	return d.tourText(p.Lang, "rating", map[string]any{"rows": rows, "game": game})
}

// ratingHistory is the rating history of entrant e's place (issue 24):
// first the rating it started from (Round 0), then its rating after each
// complete round, read from the ratings stored with its rated matches as
// each game ended (Match.Ratings: every rated game of the holder's
// counted, here and elsewhere). The start is the rating its first rated
// game began from (Match.RatingsBefore: a player who arrived rated starts
// there, never at a newcomer's), a newcomer's when it has no rated game
// yet; a round before it shows the start. A round whose game began from
// another rating than the row before shows (a new holder after REPLACE,
// or games elsewhere in between) says so (RatingStep.Before). A record
// from before ratings were stored (a rated match of e without them) is
// recomputed from the tournament's games alone (recomputedHistory;
// recomputed is true).
func ratingHistory(t *tournament.Tournament, e int) (steps []RatingStep, recomputed bool) {
	start := tournament.RatingValue(tournament.NewRating(t.Game, ""), t.Table)
	found := false
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			for i, x := range m.Seats {
				if x != e || !tournament.Rated(m) {
					continue
				}
				if len(m.Ratings) != len(m.Seats) {
					return recomputedHistory(t, e), true
				}
				if !found && len(m.RatingsBefore) == len(m.Seats) {
					start = m.RatingsBefore[i]
				}
				found = true
			}
		}
	}
	last := ratingText(start)
	out := []RatingStep{{Round: 0, Rating: last}}
	for _, rd := range t.Rounds {
		step := RatingStep{Round: rd.N}
		for _, m := range rd.Matches {
			for i, x := range m.Seats {
				if x != e || !tournament.Rated(m) {
					continue
				}
				if len(m.RatingsBefore) == len(m.Seats) {
					if b := ratingText(m.RatingsBefore[i]); b != last {
						step.Before = b
					}
				}
				last = ratingText(m.Ratings[i])
			}
		}
		if rd.Complete() {
			step.Rating = last
			out = append(out, step)
		}
	}
	if len(out) == 1 {
		return nil, false
	}
	return out, false
}

// ratingText is a rating as the pages show it.
func ratingText(r float64) string { return fmt.Sprintf("%.0f", r) }

// recomputedHistory is entrant e's rating history from the tournament's
// rated games alone, everyone starting as a newcomer (Round 0), then
// after each complete round: what the stored ratings say when the players
// have no other rated games.
func recomputedHistory(t *tournament.Tournament, e int) []RatingStep {
	ratings := make([]tournament.Rating, len(t.Entrants))
	for i := range ratings {
		ratings[i] = tournament.NewRating(t.Game, strconv.Itoa(i))
	}
	out := []RatingStep{{Round: 0, Rating: ratingText(tournament.RatingValue(ratings[e], t.Table))}}
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			rs := make([]tournament.Rating, len(m.Seats))
			for i, x := range m.Seats {
				rs[i] = ratings[x]
			}
			if rs, ok := tournament.RateMatch(rs, m); ok {
				for i, x := range m.Seats {
					ratings[x] = rs[i]
				}
			}
		}
		if rd.Complete() {
			out = append(out, RatingStep{Round: rd.N, Rating: ratingText(tournament.RatingValue(ratings[e], t.Table))})
		}
	}
	if len(out) == 1 {
		return nil
	}
	return out
}
