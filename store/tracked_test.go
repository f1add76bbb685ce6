package store

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// Every read is tracked (issue 25): the type the core reads through, Tx,
// holds the rule of speculations. Each of its methods is classified here,
// and a new method fails this test until it is: a read a speculation can
// check is recorded and a change to what it read makes the commit fail
// (each tracked read is tried against a write of what it read); any other
// read or write makes the speculation wide, so that it never commits; the
// writes a speculation keeps are replayed at its commit; rulesets never
// change (stored under their hash).
func TestEveryReadIsTracked(t *testing.T) {
	type read struct {
		read   func(tx *Tx)
		change func(tx *Tx) error
	}
	tracked := map[string]read{
		"Game":      {func(tx *Tx) { tx.Game("g1") }, func(tx *Tx) error { return tx.PutGame("g1", []byte(`{"v":2}`)) }},
		"GameStamp": {func(tx *Tx) { tx.GameStamp("g1") }, func(tx *Tx) error { return tx.PutGame("g1", []byte(`{"v":2}`)) }},
		"TakeDecoded": {func(tx *Tx) { tx.TakeDecoded("g1") }, func(tx *Tx) error {
			return tx.PutGame("g1", []byte(`{"v":2}`))
		}},
		"Seen": {func(tx *Tx) { tx.Seen("k1") }, func(tx *Tx) error {
			return tx.MarkInbound(InboundRecord{Keys: []string{"k1"}, Received: t0})
		}},
		"Token": {func(tx *Tx) { tx.Token("s1") }, func(tx *Tx) error {
			return tx.PutToken("s1", Token{Kind: "seat", Game: "g1"})
		}},
		"Player":         {func(tx *Tx) { tx.Player("ann@x") }, func(tx *Tx) error { return tx.PutPlayer("ann@x", []byte(`{}`)) }},
		"PlayerIs":       {func(tx *Tx) { tx.PlayerIs("ann@x", []byte(`{}`)) }, func(tx *Tx) error { return tx.PutPlayer("ann@x", []byte(`{"n":1}`)) }},
		"Organiser":      {func(tx *Tx) { tx.Organiser("org@x") }, func(tx *Tx) error { return tx.PutOrganiser("org@x", []byte(`{}`)) }},
		"GameTournament": {func(tx *Tx) { tx.GameTournament("g1") }, func(tx *Tx) error { return tx.SetGameTournament("g1", "t1") }},
		"Log": {func(tx *Tx) { tx.Log("g1", 1, func(uint64, []byte) error { return nil }) }, func(tx *Tx) error {
			_, err := tx.AppendLog("g1", []byte(`{}`))
			return err
		}},
		"LogLen": {func(tx *Tx) { tx.LogLen("g1") }, func(tx *Tx) error { _, err := tx.AppendLog("g1", []byte(`{}`)); return err }},
	}
	// Reads and writes that make a speculation wide, each with a call.
	nothing := func(string) error { return nil }
	wide := map[string]func(tx *Tx){
		"AttemptCount": func(tx *Tx) { tx.AttemptCount("a") }, "AttemptKeys": func(tx *Tx) { tx.AttemptKeys("a") },
		"BeginAttempt":     func(tx *Tx) { tx.BeginAttempt("a") },
		"BeginAttemptFrom": func(tx *Tx) { tx.BeginAttemptFrom("a", 1) }, "EndAttempt": func(tx *Tx) { tx.EndAttempt("a") },
		"Cursor": func(tx *Tx) { tx.Cursor("c") }, "PutCursor": func(tx *Tx) { tx.PutCursor("c", Cursor{}) },
		"DeleteToken": func(tx *Tx) { tx.DeleteToken("s") }, "Tokens": func(tx *Tx) { tx.Tokens(func(string, Token) error { return nil }) },
		"TokensOf": func(tx *Tx) { tx.TokensOf("org", func(string, Token) error { return nil }) },
		"PutToken": func(tx *Tx) { tx.PutToken("s9", Token{}) }, "PutPlayer": func(tx *Tx) { tx.PutPlayer("b@x", nil) },
		"PutOrganiser": func(tx *Tx) { tx.PutOrganiser("o@x", nil) },
		"Players":      func(tx *Tx) { tx.Players(func(string, []byte) error { return nil }) },
		"Due":          func(tx *Tx) { tx.Due("outbox", t0, 0) }, "DueOrder": func(tx *Tx) { tx.DueOrder("outbox", func(time.Time, uint64) (bool, error) { return true, nil }) },
		"NextDue": func(tx *Tx) { tx.NextDue("outbox") }, "QueueItem": func(tx *Tx) { tx.QueueItem("outbox", 1) },
		"QueueLen": func(tx *Tx) { tx.QueueLen("outbox") }, "Items": func(tx *Tx) { tx.Items("outbox", func(Item) error { return nil }) },
		"Retired": func(tx *Tx) { tx.Retired("outbox", func(Item) error { return nil }) },
		"DueRows": func(tx *Tx) { tx.DueRows("outbox", t0, 0) }, "Payload": func(tx *Tx) { tx.Payload("outbox", 1) },
		"Attempt": func(tx *Tx) { tx.Attempt("outbox", 1, t0, t0) }, "Retry": func(tx *Tx) { tx.Retry("outbox", 1, t0, "") },
		"Finish": func(tx *Tx) { tx.Finish("outbox", 1, Sent, t0, t0, "") }, "PruneRetired": func(tx *Tx) { tx.PruneRetired("outbox", t0) },
		"DueWakes": func(tx *Tx) { tx.DueWakes(t0, 0) }, "NextWake": func(tx *Tx) { tx.NextWake() }, "Wake": func(tx *Tx) { tx.Wake("g1") },
		"StaleWakes": func(tx *Tx) { tx.StaleWakes(t0, 0) }, "DropStaleWakes": func(tx *Tx) { tx.DropStaleWakes(t0) },
		"TickWakes": func(tx *Tx) { tx.TickWakes(t0, 0) }, "DropStaleWakesAtCommit": func(tx *Tx) { tx.DropStaleWakesAtCommit(t0) },
		"HasGame": func(tx *Tx) { tx.HasGame("g1") }, "Games": func(tx *Tx) { tx.Games(func(string, []byte) error { return nil }) },
		"GameIDs": func(tx *Tx) { tx.GameIDs(nothing) }, "GameCount": func(tx *Tx) { tx.GameCount() },
		"GameCounts": func(tx *Tx) { tx.GameCounts() }, "GameIndexBuilt": func(tx *Tx) { tx.GameIndexBuilt() },
		"GameIndexOf": func(tx *Tx) { tx.GameIndexOf("g1") }, "GamesOfAddress": func(tx *Tx) { tx.GamesOfAddress("a@x", nothing) },
		"GamesOfOrganiser":     func(tx *Tx) { tx.GamesOfOrganiser("o@x", nothing) },
		"GamesOfOrganiserFrom": func(tx *Tx) { tx.GamesOfOrganiserFrom("o@x", "g1", func(string) (bool, error) { return true, nil }) },
		"JoinableGames":        func(tx *Tx) { tx.JoinableGames(func(string) (bool, error) { return true, nil }) },
		"JoinableCount":        func(tx *Tx) { tx.JoinableCount() }, "GamesWithStatus": func(tx *Tx) { tx.GamesWithStatus("running", nothing) },
		"ForgetGameIndex":   func(tx *Tx) { tx.ForgetGameIndex() },
		"SetGameIndexBuilt": func(tx *Tx) { tx.SetGameIndexBuilt() }, "ListedGames": func(tx *Tx) { tx.ListedGames(nothing) },
		"SetGameListed": func(tx *Tx) { tx.SetGameListed("g1", true) }, "SetGameTournament": func(tx *Tx) { tx.SetGameTournament("g1", "t") },
		"HasTournament": func(tx *Tx) { tx.HasTournament("t") }, "Tournament": func(tx *Tx) { tx.Tournament("t") },
		"Tournaments":        func(tx *Tx) { tx.Tournaments(func(string, []byte) error { return nil }) },
		"PutTournament":      func(tx *Tx) { tx.PutTournament("t", nil) },
		"PutTournamentMatch": func(tx *Tx) { tx.PutTournamentMatch("t", 0, 0, []byte("{}")) },
		"TournamentMatches":  func(tx *Tx) { tx.TournamentMatches("t", func(int, int, []byte) error { return nil }) }, "Rating": func(tx *Tx) { tx.Rating("g", "a") },
		"Ratings": func(tx *Tx) { tx.Ratings("g", func(string, string, []byte) error { return nil }) }, "PutRating": func(tx *Tx) { tx.PutRating("g", "a", nil) },
		"PruneInbound": func(tx *Tx) { tx.PruneInbound(t0) }, "PruneReplay": func(tx *Tx) { tx.PruneReplay(t0) },
		"PruneVERP": func(tx *Tx) { tx.PruneVERP(t0) }, "VERP": func(tx *Tx) { tx.VERP("v") },
		"UseReplayToken": func(tx *Tx) { tx.UseReplayToken("r", "m", t0) }, "Quarantine": func(tx *Tx) { tx.Quarantine(Quarantined{}) },
		"Quarantined":           func(tx *Tx) { tx.Quarantined(func(Quarantined) error { return nil }) },
		"PutRuleset":            func(tx *Tx) { tx.PutRuleset("sha", nil) },
		"TakeDecodedTournament": func(tx *Tx) { tx.TakeDecodedTournament("t") },
		"KeepDecodedTournament": func(tx *Tx) { tx.KeepDecodedTournament("t", []byte("{}"), nil) },
		"PageTournament":        func(tx *Tx) { tx.PageTournament("t") },
		"KeepPageTournament":    func(tx *Tx) { tx.KeepPageTournament("t", []byte("{}"), nil) },
	}
	// Writes a speculation keeps and replays at its commit.
	kept := map[string]bool{"AppendLog": true, "PutGame": true, "SetWake": true, "PutVERP": true, "Enqueue": true, "EnqueueBody": true,
		"MarkInbound": true, "KeepDecoded": true, "IndexGame": true}
	other := map[string]bool{"Ruleset": true, "Speculating": true, "Wide": true}

	typ := reflect.TypeOf(&Tx{})
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		_, tr := tracked[name]
		_, wi := wide[name]
		if !tr && !wi && !kept[name] && !other[name] {
			t.Errorf("Tx.%s is not classified: a speculation must track it or go wide on it", name)
		}
	}
	seed := func(t *testing.T) *DB {
		db := open(t)
		if err := db.Update(func(tx *Tx) error {
			if err := tx.PutGame("g1", []byte(`{"v":1}`)); err != nil {
				return err
			}
			_, err := tx.AppendLog("g1", []byte(`{}`))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return db
	}
	for name, r := range tracked {
		t.Run("tracked/"+name, func(t *testing.T) {
			db := seed(t)
			s, err := db.Speculate(func(tx *Tx) error {
				r.read(tx)
				return tx.MarkInbound(InboundRecord{Keys: []string{"mine"}, Received: t0})
			})
			if err != nil || s.Wide() {
				t.Fatalf("speculation: %v, wide %v", err, s.Wide())
			}
			if err := db.Update(r.change); err != nil {
				t.Fatal(err)
			}
			if err := db.Commit(s, nil); !errors.Is(err, ErrConflict) {
				t.Errorf("%s read, then changed: the commit says %v", name, err)
			}
		})
	}
	for name, call := range wide {
		t.Run("wide/"+name, func(t *testing.T) {
			db := seed(t)
			s, _ := db.Speculate(func(tx *Tx) error { call(tx); return nil })
			if !s.Wide() {
				t.Errorf("Tx.%s in a speculation did not make it wide", name)
			}
		})
	}
}
