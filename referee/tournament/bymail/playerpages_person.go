package bymail

// The page of a person who played in a tournament (issue 24): every holder
// of every place - its first holder, each substitute a REPLACE brought in,
// the one holding it now - has a page listing the games THEY played, at
// /t/<id>-<key>/p/<n>/<k>: n the place's sign-up number, k the holder's
// number in the place's line of holders (1 its first; Entrant.Before, then
// the current one), which REPLACE only appends to, so the address stays.
// A place that never changed hands has one holder, whose page is the
// place's (playerPagePath). Names, places, results and ratings only: never
// an address, though the holders of several places who share an address
// are one person, whose page lists all their places and games.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/referee/tournament"
)

// personPagePath is the address of the page of holder k (from 1: the
// place's first holder, as tournament.Entrant.PlayedHolders counts them)
// of entrant e's place; the place's page when it never changed hands.
func personPagePath(t *tournament.Tournament, e, k int) string {
	if len(t.Entrants[e].Before) == 0 {
		return playerPagePath(t, e)
	}
	return playerPagePath(t, e) + "/" + strconv.Itoa(k)
}

// playedPaths are the pages of who played round n's game for entrant e's
// place, first to last (its PlayedHolders, as CrossCell.Players names
// them).
func playedPaths(t *tournament.Tournament, e, n int) []string {
	hs := t.Entrants[e].PlayedHolders(n)
	out := make([]string, len(hs))
	for i, k := range hs {
		out[i] = personPagePath(t, e, k)
	}
	return out
}

// PersonPage is the page of one person who played in a tournament: the
// places they held and when, and the games they played.
type PersonPage struct {
	ID, Title, TourURL, CrossURL string
	Name                         string
	Table                        int
	// Held are the places they held, in the order of the places' numbers
	// and of their holders.
	Held []PersonStint
	// Games are the games they played, whole or in part, by round.
	Games []PersonGame
}

// PersonStint is a place a person held. They played its rounds First
// through Through whole (none when First > Through), finished round Took
// (a game the holder before them began: 0 none) and began round Into,
// handing it on after a move (0: none).
type PersonStint struct {
	// Place is the place's sign-up number; Holder the place's holder
	// now; URL the place's page.
	Place       int
	Holder, URL string
	// Substitute: they came in by REPLACE. Left is the round in which a
	// REPLACE ended their stint (0: they hold the place still).
	Substitute                 bool
	Left                       int
	First, Through, Took, Into int
}

// PersonGame is one game a person played: as a place's page's game
// (opponents as the holders who played it, each linking their own page),
// the place they played it for, and their rating before and after it
// where it was rated and they finished it (Match.RatingsBefore and
// Ratings, as the game was rated: a game of theirs elsewhere between two
// of the tournament's counts too). Before is empty for a match stored
// without it (a record older than RatingsBefore): never a number guessed
// from their previous game.
type PersonGame struct {
	PlayerGame
	Place                     int
	RatingBefore, RatingAfter string
}

// PersonPageOf returns the page of holder k (from 1) of entrant n's place
// (the sign-up number, from 1) of tournament id when key is its page key
// and it is published (ErrNoPage otherwise).
func PersonPageOf(h Host, id, key string, n, k int) (*PersonPage, error) {
	d := newDesk(h)
	t, err := d.publicTour(id, key)
	if err != nil || n < 1 || n > len(t.Entrants) || k < 1 || k > len(t.Entrants[n-1].Before)+1 {
		return nil, ErrNoPage
	}
	p, mine := personPageHead(t, n, k)
	// The places they held and when (Entrant.Tenures: the one walk of a
	// place's line of holders), and which places those are.
	var places []int
	for e, x := range t.Entrants {
		for tn := range x.Tenures() {
			if !mine(e, tn.K) {
				continue
			}
			st := PersonStint{Place: e + 1, Holder: x.Name, URL: playerPagePath(t, e), Substitute: tn.K > 1,
				First: tn.First, Through: len(t.Rounds), Took: tn.Took, Into: tn.Into}
			if tn.Took > 0 {
				st.First = max(st.First, tn.Took+1) // Took is theirs in part only
			}
			if tn.K <= len(x.Before) {
				st.Through, st.Left = tn.Through, tn.Through+1
			}
			p.Held = append(p.Held, st)
			if len(places) == 0 || places[len(places)-1] != e {
				places = append(places, e)
			}
		}
	}
	// Their games: only the seats of their places are asked who played
	// them, and only their own cells are made (issue 24: not the whole
	// crosstable for one person).
	for _, rd := range t.Rounds {
		for _, m := range rd.Matches {
			for seat, e := range m.Seats {
				if !slices.Contains(places, e) {
					continue
				}
				hs := t.Entrants[e].PlayedHolders(rd.N)
				played, finished := false, false
				for i, j := range hs {
					if mine(e, j) {
						played, finished = true, finished || i == len(hs)-1
					}
				}
				if !played {
					continue
				}
				g := PersonGame{PlayerGame: d.placeGame(t, rd.N, m, seat), Place: e + 1}
				if len(hs) == 1 {
					g.Played, g.PlayedURLs = nil, nil // theirs alone: the page is theirs
				}
				if finished && tournament.Rated(m) && len(m.Ratings) == len(m.Seats) {
					g.RatingAfter = strconv.FormatFloat(m.Ratings[seat], 'f', 0, 64)
					if len(m.RatingsBefore) == len(m.Seats) {
						g.RatingBefore = strconv.FormatFloat(m.RatingsBefore[seat], 'f', 0, 64)
					}
				}
				p.Games = append(p.Games, g)
			}
		}
	}
	return p, nil
}

// personPageHead is the page of holder k (from 1) of place n without its
// stints and games, and mine, which reports whether holder j (from 1) of
// entrant e's place is this person (the same holder, or the same
// address).
func personPageHead(t *tournament.Tournament, n, k int) (*PersonPage, func(e, j int) bool) {
	en := t.Entrants[n-1]
	addr := en.Holder(k).Address
	p := &PersonPage{ID: t.ID, Title: tourTitle(t), TourURL: tourPagePath(t), CrossURL: tourPagePath(t) + "/crosstable",
		Name: en.Holder(k).Name, Table: t.Table}
	mine := func(e, j int) bool {
		if e == n-1 && j == k {
			return true
		}
		a := t.Entrants[e].Holder(j).Address
		return addr != "" && strings.EqualFold(a, addr)
	}
	return p, mine
}
