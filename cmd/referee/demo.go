package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/tools/demo"
)

// cmdDemo runs the embedded demo: bots play every game by real mail on an
// in-process mail stack.
func cmdDemo(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "demo", "[--players N] [--seed S] [--dir DIR] [--games a,b] [--human you@example.test [--game NAME]] [--option game.key=value]...")
	players := fs.Int("players", 2, "players per game (the nearest count each game allows)")
	seed := fs.String("seed", "demo", "seed of the games and the bots")
	dir := fs.String("dir", "", "output directory for the store, transcripts and logs (default: a new temporary directory)")
	gamesFlag := fs.String("games", "", "comma-separated games to play (default: every registered game)")
	human := fs.String("human", "", "leave one seat for a person with this address (its domain becomes the mail domain)")
	humanGame := fs.String("game", "", "the game whose seat the person takes (default: dicebrewing)")
	bot := fs.String("bot", "", "engine bot the players consult (default: each game's sensible bot)")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up after this long (bot games only; 0: never)")
	verbose := fs.Bool("v", false, "log the daemon's warnings to stderr")
	tour := fs.Bool("tournament", false, "run a Swiss tournament of bots by mail per game instead (see --entrants, --rounds)")
	entrants := fs.Int("entrants", 4, "with --tournament: entrants per tournament")
	rounds := fs.Int("rounds", 2, "with --tournament: Swiss rounds")
	roundTime := fs.Duration("round-time", 20*time.Second, "with --tournament: each round's deadline, the games not over then adjudicated (0: none)")
	sync := fs.Bool("sync", false, "with --tournament: sync the store to disk at every commit (a demo's store need not survive a crash)")
	keep := fs.Bool("keep", false, "with --tournament: keep serving the pages until interrupted")
	opts := kvFlag{}
	fs.Var(opts, "option", "game option as game.key=value (repeatable), e.g. dicebrewing.round_limit=6")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	o := demo.Options{Dir: *dir, Players: *players, Seed: *seed, Bot: *bot, Human: *human, HumanGame: *humanGame,
		Out: env.stdout, Timeout: *timeout}
	if *gamesFlag != "" {
		o.Games = strings.Split(*gamesFlag, ",")
	}
	var err error
	if o.GameOptions, err = opts.byGame(); err != nil {
		return err
	}
	if *human != "" {
		o.Timeout = 0
	}
	if *tour {
		return runTournamentDemo(ctx, env, o, *entrants, *rounds, *keep, *verbose, !*sync, *roundTime)
	}
	if *verbose {
		o.Logger = slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	fmt.Fprintf(env.stdout, "referee demo: embedded IMAP and SMTP on 127.0.0.1, bots playing every game by mail\n")
	_, err = demo.Run(ctx, o)
	return err
}

// runTournamentDemo is "demo --tournament".
// It is short by default (issue 24: 4 minutes on a quiet machine, 1.5 GB):
// 4 bots a tournament, 2 rounds of at most 20 s (the games not over then
// adjudicated), Dice Brewing games of 3 rounds (round_limit, unless
// --option sets it), the store not synced.
func runTournamentDemo(ctx context.Context, env *cliEnv, o demo.Options, entrants, rounds int, keep, verbose, noSync bool, roundTime time.Duration) error {
	if o.GameOptions == nil {
		o.GameOptions = map[string]map[string]string{}
	}
	if _, set := o.GameOptions["dicebrewing"]["round_limit"]; !set {
		if o.GameOptions["dicebrewing"] == nil {
			o.GameOptions["dicebrewing"] = map[string]string{}
		}
		o.GameOptions["dicebrewing"]["round_limit"] = "3"
	}
	to := demo.TournamentOptions{Dir: o.Dir, Games: o.Games, Players: entrants, Rounds: rounds, Seed: o.Seed,
		GameOptions: o.GameOptions, Out: env.stdout, Timeout: o.Timeout, Keep: keep, NoSync: noSync, RoundTime: roundTime}
	if keep {
		to.Timeout = 0
	}
	if verbose {
		to.Logger = slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	fmt.Fprintf(env.stdout, "referee demo --tournament: embedded IMAP and SMTP on 127.0.0.1, %d bots per Swiss tournament, by mail\n", entrants)
	res, err := demo.RunTournament(ctx, to)
	if err != nil {
		return err
	}
	if !res.Replayed {
		return fmt.Errorf("a tournament's pairings do not replay from its seed")
	}
	return nil
}
