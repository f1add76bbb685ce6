package bymail

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// recHost is a testHost whose games end as the test says: they are
// running until then, closing one is a no-op, an adjudication scores
// what the test drew, and the mails are counted.
type recHost struct {
	*testHost
	mails int
	// scored is the result Adjudicate returns.
	scored *Result
}

func (h *recHost) MailEntrant(Mail) error                     { h.mails++; return nil }
func (h *recHost) MailOrganiser(string, string, string) error { h.mails++; return nil }
func (h *recHost) CloseGame(string, string, ...any) error     { return nil }
func (h *recHost) Adjudicate(string) (*Result, error)         { return h.scored, nil }
func (h *recHost) Game(string) (GameInfo, error) {
	return GameInfo{Status: "running", Started: true}, nil
}
func (h *recHost) ReplyTo(a string) Reply                         { return Reply{To: a, Address: "referee@x.test"} }
func (h *recHost) ReplaceSeat(string, string, Invitee) error      { return nil }
func (h *recHost) EnsurePlayer(a, n, l, z string) (Player, error) { return Player{a, n, l, z}, nil }

// world is one store of the test: its records written by units of work of
// the desk, as match records where only matches changed, or (whole) every
// tournament saved whole, as before match records.
type world struct {
	t     *testing.T
	h     *recHost
	whole bool
	units int
}

func newWorld(t *testing.T, whole bool, now time.Time) *world {
	h := &recHost{testHost: newTestHost(t, now)}
	h.rec.byGame = map[string]string{}
	return &world{t: t, h: h, whole: whole}
}

// unit runs fn as one unit of work: a new Kept, the desk, the flush.
func (w *world) unit(fn func(d *desk) error) {
	w.t.Helper()
	w.h.kept = tourrec.Kept{}
	if err := fn(newDesk(w.h)); err != nil {
		w.t.Fatalf("unit %d: %v", w.units, err)
	}
	if w.whole {
		w.h.kept.Loaded("cup", nil) // saved whole, as before match records
	}
	w.h.flush()
	w.units++
}

// load is the tournament as a new unit of work reads it.
func (w *world) load(id string) *tournament.Tournament {
	w.t.Helper()
	t, err := tourrec.Load(w.h.rec, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return t
}

// recScenario is one generated tournament: its format, size, table and
// language, and the random source of its results.
type recScenario struct {
	format  string
	n, size int
	lang    string
	seed    uint64
}

// step is one thing that happens to a tournament, applied alike to both
// worlds (the same results, drawn once).
type step func(w *world)

// TestMatchRecordsEqualWholeRecords (issues 24, 25): a generated
// tournament whose games' results arrive as match records (a game's end,
// an adjudication, a forfeit, the ratings kept with a match, a
// correction) reads back, after every unit of work, exactly as the same
// tournament saved whole every time: the record, the standings and
// tie-breaks, the ratings, the wake entry, the standings mail and the
// page in every language, and every draw replays. Match records are
// written (a game's end writes no whole record) and folded when a round
// closes (none left once the next round is drawn). Generated: Swiss and
// tables, even and odd fields (byes), tables of 2 to 4, four languages.
func TestMatchRecordsEqualWholeRecords(t *testing.T) {
	langs := []string{"en", "it", "fr", "nl"}
	var scs []recScenario
	for i, c := range []struct {
		format  string
		n, size int
	}{{"swiss", 8, 2}, {"swiss", 9, 2}, {"swiss", 24, 2}, {"tables", 12, 3}, {"tables", 11, 4}, {"tables", 13, 3}} {
		scs = append(scs, recScenario{c.format, c.n, c.size, langs[i%len(langs)], uint64(i + 1)})
	}
	for _, sc := range scs {
		t.Run(fmt.Sprintf("%s/%d/%d/%s", sc.format, sc.n, sc.size, sc.lang), func(t *testing.T) {
			runRecScenario(t, sc)
		})
	}
}

func runRecScenario(t *testing.T, sc recScenario) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	a, b := newWorld(t, false, now), newWorld(t, true, now)
	rng := rand.New(rand.NewPCG(sc.seed, 24))
	both := func(s step) {
		t.Helper()
		s(a)
		s(b)
		compareWorlds(t, a, b, sc.lang)
	}
	s := tournament.Settings{Game: "toy", Format: sc.format, Table: sc.size, NumRounds: 3, OrgLang: sc.lang}
	if err := tournament.Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	both(func(w *world) {
		w.unit(func(d *desk) error {
			tr := &tournament.Tournament{ID: "cup", Organiser: "org@x.test", Settings: s, Seed: "seed", Status: tournament.StatusRunning,
				Key: "k", Created: now, Started: now}
			tr.Commitment = engine.Commitment(tr.Seed)
			for i := range sc.n {
				tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x.test", i), Name: fmt.Sprintf("P%d", i), Lang: sc.lang})
			}
			return d.saveTour(tr)
		})
	})
	matchUnits := 0
	for round := 1; ; round++ {
		tr := a.load("cup")
		if tr.Status != tournament.StatusRunning {
			break
		}
		if round > 1 && (len(tr.Rounds) != round-1 || !tr.Opening) {
			t.Fatalf("round %d not due: %d rounds, opening %v", round, len(tr.Rounds), tr.Opening)
		}
		// The round opens (as OpenDue would): a whole record, which folds
		// the round before's match records.
		both(func(w *world) {
			w.unit(func(d *desk) error {
				tr, err := d.load("cup")
				if err != nil {
					return err
				}
				rd, err := tr.NextRound()
				if err != nil {
					return err
				}
				rd.Opened, rd.Due = d.now, d.now.Add(72*time.Hour)
				for k := range rd.Matches {
					if rd.Matches[k].State != tournament.MatchBye {
						rd.Matches[k].GameID = fmt.Sprintf("cupr%dt%d", rd.N, rd.Matches[k].Table)
						w.h.rec.byGame[rd.Matches[k].GameID] = "cup"
					}
				}
				tr.Rounds, tr.Opening = append(tr.Rounds, rd), false
				return d.saveTour(tr)
			})
		})
		if left := len(a.h.rec.matches["cup"]); left != 0 {
			t.Fatalf("round %d drawn with %d match records left", round, left)
		}
		rd := a.load("cup").Rounds[round-1]
		order := rng.Perm(len(rd.Matches))
		for i, k := range order {
			m := rd.Matches[k]
			if m.State == tournament.MatchBye {
				continue
			}
			rank := make([]int, len(m.Seats))
			scores := make([]int, len(m.Seats))
			for s := range rank {
				rank[s], scores[s] = 1+rng.IntN(len(m.Seats)), rng.IntN(40)
			}
			last := i == len(order)-1
			puts := a.h.rec.puts
			switch how := rng.IntN(4); how {
			case 0, 1: // the game ends (GameEnded), finished by the players or the bots
				end := GameEnd{ID: m.GameID, Game: "toy", Rank: rank, Scores: scores, Adjudicated: how == 1}
				for _, e := range m.Seats {
					end.Addresses = append(end.Addresses, fmt.Sprintf("p%d@x.test", e))
					end.Names = append(end.Names, fmt.Sprintf("P%d", e))
				}
				both(func(w *world) { w.unit(func(d *desk) error { return d.gameEnded(end) }) })
			case 2: // ADJUDICATE: scored at once, and rated
				both(func(w *world) {
					w.h.scored = &Result{Rank: rank, Scores: scores}
					w.unit(func(d *desk) error {
						tr, err := d.load("cup")
						if err != nil {
							return err
						}
						if _, err := d.adjudicateGame(tr, m.GameID); err != nil {
							return err
						}
						if err := d.tourAdvance(tr); err != nil {
							return err
						}
						return d.saveTour(tr)
					})
				})
			case 3: // FORFEIT of a seat
				e := m.Seats[rng.IntN(len(m.Seats))]
				both(func(w *world) {
					w.unit(func(d *desk) error {
						tr, err := d.load("cup")
						if err != nil {
							return err
						}
						if err := d.forfeit(tr, m.GameID, e); err != nil {
							return err
						}
						if err := d.tourAdvance(tr); err != nil {
							return err
						}
						return d.saveTour(tr)
					})
				})
			}
			if !last {
				matchUnits++
				if a.h.rec.puts != puts {
					t.Fatalf("round %d: a game's end (not the round's last) wrote the whole record", round)
				}
			}
			// Now and then the organiser corrects a decided result
			// (RESULT): a match record too, while the round is open.
			if !last && rng.IntN(3) == 0 {
				back := a.load("cup").Rounds[round-1].Matches[k]
				places := make([]int, len(back.Seats))
				for s := range places {
					places[s] = 1 + rng.IntN(len(back.Seats))
				}
				both(func(w *world) {
					w.unit(func(d *desk) error {
						tr, err := d.load("cup")
						if err != nil {
							return err
						}
						if err := tr.Rounds[round-1].Matches[k].SetResult(places, len(tr.Rounds)); err != nil {
							return err
						}
						return d.saveTour(tr)
					})
				})
				if got := a.load("cup").Rounds[round-1].Matches[k]; !got.Corrected || len(got.Changes) == 0 {
					t.Fatalf("the correction is not read back: %+v", got)
				}
			}
		}
	}
	final := a.load("cup")
	if final.Status != tournament.StatusOver {
		t.Fatalf("the tournament ended %s", final.Status)
	}
	if matchUnits == 0 || a.h.rec.matchPuts == 0 {
		t.Fatalf("no match records written (%d units, %d records)", matchUnits, a.h.rec.matchPuts)
	}
	if a.h.rec.puts >= b.h.rec.puts {
		t.Errorf("%d whole records written with match records, %d without", a.h.rec.puts, b.h.rec.puts)
	}
	if err := tournament.Replay(final); err != nil {
		t.Errorf("the draws do not replay: %v", err)
	}
}

// compareWorlds fails unless both worlds read the same: the record, the
// ratings, the wake entries, the standings and the page in lang.
func compareWorlds(t *testing.T, a, b *world, lang string) {
	t.Helper()
	ta, tb := a.load("cup"), b.load("cup")
	if !reflect.DeepEqual(ta, tb) {
		ja, _ := json.Marshal(ta)
		jb, _ := json.Marshal(tb)
		t.Fatalf("after unit %d the records differ:\nmatch records: %s\nwhole:         %s", a.units, ja, jb)
	}
	if !maps.EqualFunc(a.h.rec.ratings, b.h.rec.ratings, func(x, y []byte) bool { return string(x) == string(y) }) {
		t.Fatalf("after unit %d the ratings differ", a.units)
	}
	if !maps.EqualFunc(a.h.rec.wakes, b.h.rec.wakes, time.Time.Equal) {
		t.Fatalf("after unit %d the wake entries differ: %v, %v", a.units, a.h.rec.wakes, b.h.rec.wakes)
	}
	if !reflect.DeepEqual(ta.Standings(), tb.Standings()) {
		t.Fatalf("after unit %d the standings differ", a.units)
	}
	da, db := newDesk(a.h), newDesk(b.h)
	if sa, sb := da.tourStandingsText(ta, lang), db.tourStandingsText(tb, lang); sa != sb {
		t.Fatalf("after unit %d the standings text differs:\n%s\n%s", a.units, sa, sb)
	}
	if pa, pb := da.tourPage(ta, lang), db.tourPage(tb, lang); !reflect.DeepEqual(pa, pb) {
		t.Fatalf("after unit %d the pages differ", a.units)
	}
}

// TestMatchRecordsFoldIsIdempotent (issues 24, 25): whatever a crash
// leaves between a match record and the fold, the tournament reads the
// same. A unit of work that stops before its commit leaves the record as
// it was (its match record is not there) and, run again, leaves what it
// would have; a whole record that already holds a match's result with
// its match record still there (a fold that wrote the record and not yet
// deleted) reads as the record, and so does one with every match record
// applied twice; a match record that names a match the record no longer
// has, or another game (a round drawn again), is left out; and the next
// whole record deletes every one of them. For every game of a generated
// round.
func TestMatchRecordsFoldIsIdempotent(t *testing.T) {
	for _, n := range []int{6, 7, 12} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			w := newWorld(t, false, now)
			w.unit(func(d *desk) error {
				tr, err := toyCup(t, n)
				if err != nil {
					return err
				}
				rd := &tr.Rounds[0]
				for k := range rd.Matches {
					if rd.Matches[k].State != tournament.MatchBye {
						rd.Matches[k].GameID = fmt.Sprintf("cupr1t%d", rd.Matches[k].Table)
						w.h.rec.byGame[rd.Matches[k].GameID] = "cup"
					}
				}
				return d.saveTour(tr)
			})
			var played []tournament.Match
			for _, m := range w.load("cup").Rounds[0].Matches {
				if m.State != tournament.MatchBye {
					played = append(played, m)
				}
			}
			// Every game but the last (whose end closes the round: a
			// whole record).
			for _, m := range played[:len(played)-1] {
				end := GameEnd{ID: m.GameID, Game: "toy", Rank: []int{2, 1}, Scores: []int{10, 12}}
				for _, e := range m.Seats {
					end.Addresses = append(end.Addresses, fmt.Sprintf("p%d@x.test", e))
					end.Names = append(end.Names, fmt.Sprintf("P%d", e))
				}
				before := snapshotRecords(w.h.rec)
				beforeTour := w.load("cup")
				// The unit of work stops before its commit: nothing of it.
				w.h.kept = tourrec.Kept{}
				if err := newDesk(w.h).gameEnded(end); err != nil {
					t.Fatal(err)
				}
				w.h.rec = before // rolled back
				if got := w.load("cup"); !reflect.DeepEqual(got, beforeTour) {
					t.Fatalf("%s: a unit of work that did not commit changed the record", m.GameID)
				}
				w.h.rec = snapshotRecords(before)
				w.unit(func(d *desk) error { return d.gameEnded(end) })
				if w.h.rec.puts != before.puts || len(w.h.rec.matches["cup"]) == len(before.matches["cup"]) {
					t.Fatalf("%s: the game's end wrote the whole record, or no match record", m.GameID)
				}
			}
			want := w.load("cup")
			if len(w.h.rec.matches["cup"]) == 0 {
				t.Fatal("no match records to fold")
			}
			// The fold wrote the whole record and the match records are
			// still there: the same tournament.
			raw, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			w.h.rec.tours["cup"] = raw
			if got := w.load("cup"); !reflect.DeepEqual(got, want) {
				t.Fatal("a record with its match records folded in and still there reads otherwise")
			}
			// Applied twice: the same.
			twice := w.load("cup")
			if _, err := tourrec.Overlay(w.h.rec, twice); err != nil || !reflect.DeepEqual(twice, want) {
				t.Fatalf("match records applied twice: %v", err)
			}
			// Stale records: a match the record does not have, another
			// game at a match's place.
			stale := snapshotRecords(w.h.rec)
			stale.PutTournamentMatch("cup", 5, 0, []byte(`{"table":1,"seats":[0,1],"game_id":"x","state":"done","rank":[1,2]}`))
			stale.PutTournamentMatch("cup", 0, 99, []byte(`{"table":1,"seats":[0,1],"game_id":"x","state":"done","rank":[1,2]}`))
			stale.PutTournamentMatch("cup", 0, 0, []byte(`{"table":1,"seats":[0,1],"game_id":"cupr1t1x0","state":"done","rank":[2,1]}`))
			w.h.rec = stale
			if got := w.load("cup"); !reflect.DeepEqual(got, want) {
				t.Fatal("a stale match record was applied")
			}
			// The next whole record deletes them all.
			w.unit(func(d *desk) error {
				tr, err := d.load("cup")
				if err != nil {
					return err
				}
				tr.Rounds[0].Told = true // a change outside the matches
				return d.saveTour(tr)
			})
			if left := len(w.h.rec.matches["cup"]); left != 0 {
				t.Fatalf("%d match records left after a whole record", left)
			}
			want.Rounds[0].Told = true
			if got := w.load("cup"); !reflect.DeepEqual(got, want) {
				t.Fatal("the fold changed the tournament")
			}
		})
	}
}

// snapshotRecords copies the records (a transaction's starting point).
func snapshotRecords(m *memRecords) *memRecords {
	c := *m
	c.tours, c.ratings, c.wakes, c.byGame = maps.Clone(m.tours), maps.Clone(m.ratings), maps.Clone(m.wakes), maps.Clone(m.byGame)
	c.matches = map[string]map[[2]int][]byte{}
	for id, ms := range m.matches {
		c.matches[id] = maps.Clone(ms)
	}
	return &c
}
