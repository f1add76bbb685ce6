package bymail

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
)

// batchHost is a recHost whose games open (their ids noted), whose
// entrants' mails are kept, and whose round openings go in batches of
// batch games (Host.OpenBatch), the later batches run by the test as the
// core runs them (OpenDue after each unit of work that asked OpenLater).
// A game it opens fails with fail's error (nil: none); a unit of work
// that asks Undo is run again with the operation undone, as the core
// runs it (nothing of the undone run kept, its mails dropped).
type batchHost struct {
	*recHost
	batch int
	sent  []Mail
	later bool
	fail  func(id string) error
	// org are the organiser's mails, warned the log's lines.
	org, warned []string
	undone      map[string]string
	// cached, when set, are the records the desk reads and writes (the
	// store's decoded tournaments with them); after is called after each
	// unit of work's flush.
	cached *cachedRecords
	after  func()
	// also, when set, runs in each later batch's unit of work after it
	// (another command of the same unit).
	also func(d *desk) error
}

func (h *batchHost) Records() Records {
	if h.cached != nil {
		return h.cached
	}
	return h.rec
}

func (h *batchHost) OpenGame(ng NewGame) error {
	if h.fail != nil {
		if err := h.fail(ng.ID); err != nil {
			return err
		}
	}
	h.rec.byGame[ng.ID] = ng.Tournament
	return nil
}
func (h *batchHost) MailEntrant(m Mail) error { h.sent = append(h.sent, m); return nil }
func (h *batchHost) MailOrganiser(_, _, text string) error {
	h.org = append(h.org, text)
	return nil
}
func (h *batchHost) OpenBatch() int         { return h.batch }
func (h *batchHost) OpenLater(string, bool) { h.later = true }
func (h *batchHost) Warn(msg string, kv ...any) {
	h.warned = append(h.warned, fmt.Sprint(append([]any{msg}, kv...)...))
}
func (h *batchHost) Undone(key string) (string, bool) { msg, ok := h.undone[key]; return msg, ok }
func (h *batchHost) Undo(key string, err error) error {
	var u undoErr
	if errors.As(err, &u) { // as the core's: an undo already asked for stays
		return u
	}
	return undoErr{key, err.Error()}
}

// undoErr is batchHost's Undo: the unit of work runs again.
type undoErr struct{ key, msg string }

func (e undoErr) Error() string { return "undo " + e.key + ": " + e.msg }

// unit runs fn as the core runs a unit of work: a new Kept, the desk, the
// flush; a unit that asks Undo leaves nothing (Kept, mails) and runs
// again with the operation undone.
func (h *batchHost) unit(t *testing.T, fn func(d *desk) error) {
	t.Helper()
	h.undone = nil
	for try := 0; ; try++ {
		h.kept, h.later = tourrec.Kept{}, false
		sent, org := len(h.sent), len(h.org)
		err := fn(newDesk(h))
		var u undoErr
		if errors.As(err, &u) && try < 3 { // a step undone may undo the one around it
			h.sent, h.org = h.sent[:sent], h.org[:org]
			if h.undone == nil {
				h.undone = map[string]string{}
			}
			h.undone[u.key] = u.msg
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := h.kept.Flush(h.Records(), h.now); err != nil {
			t.Fatal(err)
		}
		if h.after != nil {
			h.after()
		}
		return
	}
}

// roundMailCase is one generated round opening: the field, the late
// entrants (paired from the round opened, or entered for a later one),
// the byes asked for, the withdrawn, the entrants' languages.
type roundMailCase struct {
	format          string
	n, table        int
	lateNow, lateOn int // late entrants joined for round 2, for round 3
	asked, gone     int // entrants who asked for a bye in round 2, withdrew after round 1
	lang            string
}

// openRoundTwo builds the case's tournament with round 1 decided and
// opens round 2 in batches of batch games (0: one batch), each batch its
// own unit of work; it returns every entrant's round mail by address.
func openRoundTwo(t *testing.T, c roundMailCase, batch int) (map[string][]string, *tournament.Tournament) {
	t.Helper()
	h := newBatchHost(t, batch)
	h.openRoundTwo(t, c, 0)
	if tr := loadTourT(t, h.rec); len(tr.Rounds) != 2 || tr.Opening {
		t.Fatalf("%d rounds, opening %v", len(tr.Rounds), tr.Opening)
	}
	byTo := map[string][]string{}
	for _, m := range h.sent {
		if strings.Contains(m.Subject, "2") {
			byTo[m.To] = append(byTo[m.To], m.Subject+"\n"+m.Body)
		}
	}
	return byTo, loadTourT(t, h.rec)
}

func newBatchHost(t *testing.T, batch int) *batchHost {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	h := &batchHost{recHost: &recHost{testHost: newTestHost(t, now)}, batch: batch}
	h.rec.byGame = map[string]string{}
	if batch == 0 {
		h.batch = 1 << 20
	}
	return h
}

// openRoundTwo builds the case's tournament and opens its round 2, the
// later batches run while one asks for the next (Host.OpenLater), at
// most tries units (0: no limit).
func (h *batchHost) openRoundTwo(t *testing.T, c roundMailCase, tries int) {
	t.Helper()
	now := h.now
	langs := []string{"en", "it", "fr", "nl"}
	unit := func(fn func(d *desk) error) { t.Helper(); h.unit(t, fn) }
	unit(func(d *desk) error {
		s := tournament.Settings{Game: "toy", Format: c.format, Table: c.table, NumRounds: 3, OrgLang: c.lang,
			Deadline: 72 * time.Hour, Public: true}
		if err := tournament.Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 4}); err != nil {
			return err
		}
		tr := &tournament.Tournament{ID: "cup", Organiser: "org@x.test", Settings: s, Seed: "seed",
			Status: tournament.StatusRunning, Key: "k", Created: now, Started: now}
		tr.Commitment = engine.Commitment(tr.Seed)
		for i := range c.n {
			tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x.test", i),
				Name: fmt.Sprintf("Player %d", i), Lang: langs[(i+len(c.lang))%len(langs)]})
		}
		rd, err := tr.NextRound()
		if err != nil {
			return err
		}
		rd.Opened, rd.Due = now, now.Add(72*time.Hour)
		tr.Rounds = append(tr.Rounds, rd)
		for k := range rd.Matches {
			m := &tr.Rounds[0].Matches[k]
			if m.State == tournament.MatchBye {
				continue
			}
			m.GameID = fmt.Sprintf("cupr1t%d", m.Table)
			rank := make([]int, len(m.Seats))
			for s := range rank {
				rank[s] = 1 + (s+k)%len(rank)
			}
			if _, _, err := tr.Record(m.GameID, tournament.MatchDone, rank, nil); err != nil {
				return err
			}
		}
		for i := range c.gone {
			tr.Entrants[1+2*i].Withdrawn = 2
		}
		for i := range c.asked {
			tr.Entrants[2+2*i].Byes = []int{2}
		}
		for i := range c.lateNow + c.lateOn {
			joined := 2
			if i >= c.lateNow {
				joined = 3
			}
			id := len(tr.Entrants)
			tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: id, Address: fmt.Sprintf("late%d@x.test", i),
				Name: fmt.Sprintf("Late %d", i), Lang: langs[(id+1)%len(langs)], Joined: joined})
		}
		return d.saveTour(tr)
	})
	h.now = now.Add(time.Hour)
	unit(func(d *desk) error {
		tr, err := d.load("cup")
		if err != nil {
			return err
		}
		if err := d.openRound(tr); err != nil {
			return err
		}
		return d.saveTour(tr)
	})
	for units := 0; h.later; units++ {
		if tries > 0 && units == tries {
			return
		}
		if units > c.n {
			t.Fatal("the round opening does not end")
		}
		h.now = h.now.Add(time.Second) // a later batch runs later
		unit(func(d *desk) error {
			if err := OpenDue(h, "cup"); err != nil || h.also == nil {
				return err
			}
			return h.also(d)
		})
	}
}

func loadTourT(t *testing.T, rec Records) *tournament.Tournament {
	t.Helper()
	tr, err := tourrec.Load(rec, "cup")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestRoundMailNeverDependsOnBatching (issue 24; the rule in doc.go): a
// round mail depends on the round, never on how its opening was batched.
// Round 2 of a generated tournament opened in one unit of work and in
// batches of 1, 2 and 3 games: every entrant gets the same round mails,
// byte for byte, exactly one when the round seats them (a game, named,
// or a bye) and none when it seats them nowhere (withdrawn before it,
// entered late for a later round, out of a knockout; before, a round
// opened in one batch mailed them "You play game , seat 0"). Generated:
// Swiss, tables, knockout and round robin, fields of 4 to 13 (odd: a
// bye), late entrants for the round and for the next, byes asked for,
// withdrawals, the entrants' and the organiser's four languages.
func TestRoundMailNeverDependsOnBatching(t *testing.T) {
	var cases []roundMailCase
	langs := []string{"en", "it", "fr", "nl"}
	i := 0
	for _, f := range []struct {
		format   string
		n, table int
	}{{"swiss", 4, 2}, {"swiss", 7, 2}, {"swiss", 10, 2}, {"swiss", 13, 2}, {"tables", 9, 3}, {"tables", 12, 3},
		{"tables", 11, 4}, {"knockout", 8, 2}, {"knockout", 11, 2}, {"knockout", 12, 3}, {"roundrobin", 6, 2}, {"roundrobin", 9, 2}} {
		lates, bys := [][2]int{{0, 0}, {1, 0}, {2, 1}, {0, 2}}, [][2]int{{0, 0}, {1, 0}, {1, 1}}
		if f.format == "knockout" || f.format == "roundrobin" {
			// No late entry nor bye asked for (their pairings are fixed
			// at the start, tourEnter): withdrawals only.
			lates, bys = lates[:1], [][2]int{{0, 0}, {0, 1}, {0, 2}}
		}
		for _, late := range lates {
			for _, by := range bys {
				cases = append(cases, roundMailCase{f.format, f.n, f.table, late[0], late[1], by[0], by[1], langs[i%4]})
				i++
			}
		}
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%d/t%d/late%d+%d/asked%d/gone%d/%s", c.format, c.n, c.table, c.lateNow, c.lateOn, c.asked, c.gone, c.lang)
		t.Run(name, func(t *testing.T) {
			one, tr := openRoundTwo(t, c, 0)
			game := map[int]string{} // each seated entrant's game ("": a bye)
			for _, m := range tr.Rounds[1].Matches {
				for _, e := range m.Seats {
					game[e] = m.GameID
				}
			}
			for _, e := range tr.Entrants {
				g, seated := game[e.ID]
				if want := e.Plays(2) || e.AskedBye(2) && e.Withdrawn != 2; want != seated && c.format != "knockout" {
					t.Fatalf("%s (joined %d, withdrawn %d) seated %v in round 2", e.Address, e.Joined, e.Withdrawn, seated)
				}
				want := 0
				if seated {
					want = 1
				}
				if got := len(one[e.Address]); got != want {
					t.Errorf("one batch: %s (joined %d, withdrawn %d): %d round mails, want %d", e.Address, e.Joined, e.Withdrawn, got, want)
				} else if want == 1 && g != "" && !strings.Contains(one[e.Address][0], g) {
					t.Errorf("one batch: %s's round mail does not name their game %s:\n%s", e.Address, g, one[e.Address][0])
				}
			}
			if len(game) == len(tr.Entrants) && c.lateOn+c.gone > 0 {
				t.Fatal("the case has nobody the round leaves out")
			}
			for _, batch := range []int{1, 2, 3} {
				got, _ := openRoundTwo(t, c, batch)
				for _, e := range tr.Entrants {
					if !slices.Equal(got[e.Address], one[e.Address]) {
						t.Errorf("batches of %d: %s (joined %d) got\n%s\nin one batch\n%s", batch, e.Address, e.Joined,
							strings.Join(got[e.Address], "\n---\n"), strings.Join(one[e.Address], "\n---\n"))
					}
				}
			}
		})
	}
}
