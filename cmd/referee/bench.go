package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/tools/bench"
)

// cmdBench runs the end-to-end benchmark.
func cmdBench(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "bench", "[--games N] [--players K] [--only a,b] [--real] [--deciding-bots] [--sizes 10,1000,10000] [--moves M] [--json]")
	games := fs.Int("games", 6, "concurrent bot games in the mail runs")
	players := fs.Int("players", 2, "players per game (the nearest count each game allows)")
	real := fs.Bool("real", false, "use Dovecot and Postfix (needs root and the servers installed) instead of the embedded stack")
	sizes := fs.String("sizes", "10,1000,10000", "live-game counts of the scale part, growing (\"\" or none: skip it)")
	moves := fs.Int("moves", 100, "moves timed at each size")
	bulk := fs.Bool("bulk", false, "load the scale part's games by copying a few, straight through the store")
	noMail := fs.Bool("no-mail", false, "skip the mail runs (referee and echo)")
	pages := fs.Bool("pages", false, "count the pages each timed move of the scale part and each commit of the mail runs write, per bucket and kind (slow; times not comparable)")
	deciding := fs.Bool("deciding-bots", false, "the referee run's players decide on each prompt, reading the referee's store (default: answers planned before the run)")
	gamesFlag := fs.String("only", "", "comma-separated games to play, round-robin (default: every registered game)")
	seed := fs.String("seed", "bench", "seed of the games")
	dir := fs.String("dir", "", "directory for the stores (default: a temporary directory, removed after)")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up a mail run after this long")
	profile := fs.String("profile", "", "write a CPU profile of each mail run to this directory")
	traceDir := fs.String("trace", "", "write a Go execution trace of each mail run to this directory (go tool trace)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	verbose := fs.Bool("v", false, "log warnings to stderr")
	opts := kvFlag{}
	fs.Var(opts, "option", "game option as game.key=value (repeatable)")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	o := bench.Options{Games: *games, Players: *players, Real: *real, Moves: *moves, Bulk: *bulk, Pages: *pages, NoMail: *noMail, Seed: *seed,
		Dir: *dir, Timeout: *timeout, Progress: env.stderr, Sizes: []int{}, ProfileDir: *profile, TraceDir: *traceDir,
		DecidingBots: *deciding}
	if s := strings.TrimSpace(*sizes); s != "" && s != "none" {
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				return fmt.Errorf("%w: --sizes %q: want growing positive counts", errUsage, *sizes)
			}
			o.Sizes = append(o.Sizes, n)
		}
	}
	if *gamesFlag != "" {
		o.GameNames = strings.Split(*gamesFlag, ",")
	}
	var err error
	if o.GameOptions, err = opts.byGame(); err != nil {
		return err
	}
	if *verbose {
		o.Logger = slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	rep, err := bench.Run(ctx, o)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.WriteTable(env.stdout)
	return nil
}
