package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tools/demo"
)

// TestScriptedBotsPlayTheDecidingBotsGames plays every registered game by
// mail twice, once with players that decide each answer when its prompt
// arrives (reading the referee's table, the bench's players before the
// plans) and once with players that send the answers planned before the
// run (demo.PlanGame, demo.ScriptBrain): both runs must verify (every
// game over, replayed, one input per mail, its moves and final state its
// plan's), the two runs' logged moves must be the same, move for move,
// and the report must say how the players decided.
func TestScriptedBotsPlayTheDecidingBotsGames(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end games by mail")
	}
	if raceEnabled {
		// Four runs of every game by mail: minutes under the detector,
		// for paths TestSmallBench (planned players) and the demo's
		// TestDemoEndToEnd (deciding ones) already take under it.
		t.Skip("whole games by mail, run by the Makefile's content target without the race detector")
	}
	n := len(engine.Games())
	for _, players := range []int{2, 3} {
		moves := map[bool]map[string][]string{}
		for _, deciding := range []bool{true, false} {
			got := map[string][]string{}
			o := Options{Games: n, Players: players, Seed: fmt.Sprintf("plan%d", players), Timeout: 4 * time.Minute,
				DecidingBots: deciding, GameOptions: map[string]map[string]string{"dicebrewing": {"round_limit": "3"}},
				afterGames: func(site *demo.Site, ids []string, _ map[string]int, plans map[string]*demo.Plan) {
					for _, id := range ids {
						lg, err := site.Daemon.Referee.ExportLog(id, true)
						if err != nil {
							t.Fatal(err)
						}
						for _, s := range lg.Steps {
							got[id] = append(got[id], fmt.Sprintf("%d %s", s.Seat, s.Cmd))
						}
						if len(plans[id].Moves) == 0 || plans[id].Answers == 0 {
							t.Errorf("%s: empty plan %+v", id, plans[id])
						}
					}
				}}
			o.defaults()
			run := runOnce(t, &o)
			want := map[bool]string{true: "deciding", false: "scripted"}[deciding]
			if !run.Verified || run.Bots != want || run.Moves == 0 {
				t.Fatalf("%d players, %s bots: verified %v (%v), bots %q, %d moves", players, want, run.Verified, run.Problems, run.Bots, run.Moves)
			}
			if len(got) != n {
				t.Fatalf("%d games logged, %d played", len(got), n)
			}
			moves[deciding] = got
			t.Logf("%d players, %s bots: %d moves, %d player mails, %.1fs", players, want, run.Moves, run.PlayerMails, run.Seconds)
		}
		for id, dm := range moves[true] {
			sm := moves[false][id]
			if len(dm) != len(sm) {
				t.Errorf("%d players, %s: %d moves deciding, %d scripted", players, id, len(dm), len(sm))
				continue
			}
			for i := range dm {
				if dm[i] != sm[i] {
					t.Errorf("%d players, %s move %d: %q deciding, %q scripted", players, id, i+1, dm[i], sm[i])
					break
				}
			}
		}
	}
}

// runOnce plays the referee run alone on a fresh embedded stack.
func runOnce(t *testing.T, o *Options) *Throughput {
	t.Helper()
	rec := newRecorder()
	ms, err := demo.StartMailServer(demo.MailOptions{OnDeliver: rec.deliver})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ms.Close() }()
	env := &stackEnv{stack: demo.Embedded{MailServer: ms}, rec: rec, embedded: ms, close: func() {}, name: "embedded"}
	run, err := runGames(context.Background(), env, o, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return run
}
