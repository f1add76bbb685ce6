package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/pbem-referee/referee/engine"
)

func cmdReplay(_ context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "replay", "LOG.json")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one LOG file", errUsage)
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	var log engine.Log
	if err := json.Unmarshal(data, &log); err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	g, err := engine.Lookup(log.Game)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "replaying %s: seed commitment %s, %d steps\n", log.Game, engine.Commitment(log.Config.Seed), len(log.Steps))
	st, err := engine.Replay(g, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "ok: every step matches (%d moves, %d random draws)\n", st.Head().Moves, st.Head().Rand.Drawn())
	if res := st.Result(); res != nil {
		for _, sc := range ranked(res) {
			fmt.Fprintf(env.stdout, "   %d. %-12s %4d\n", res.Rank[sc.Seat], st.Head().Seats[sc.Seat], sc.Total)
		}
	} else {
		fmt.Fprintln(env.stdout, "the game was not finished")
	}
	return nil
}

// ranked returns the scores in ranking order (ties in seat order): engines
// list them by seat.
func ranked(res *engine.Result) []engine.Score {
	out := append([]engine.Score(nil), res.Scores...)
	sort.SliceStable(out, func(a, b int) bool { return res.Rank[out[a].Seat] < res.Rank[out[b].Seat] })
	return out
}
