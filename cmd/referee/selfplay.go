package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
)

func cmdSelfplay(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "selfplay", "GAME [--games N] [--players K] [--seed S] [--variant V] [--option k=v]... [--bots random,greedy,...] [--check=true]")
	games := fs.Int("games", 100, "number of games")
	players := fs.Int("players", 0, "players per game (default: the game's minimum)")
	seed := fs.String("seed", "1", "base seed")
	variant := fs.String("variant", "", "variant")
	opts := kvFlag{}
	fs.Var(opts, "option", "game option key=value (repeatable)")
	bots := fs.String("bots", "", "bot per seat, comma-separated (default: the game's second bot for every seat, else random)")
	check := fs.Bool("check", true, "check the game's invariants after every move")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one GAME", errUsage)
	}
	g, err := engine.Lookup(pos[0])
	if err != nil {
		return err
	}
	info := g.Info()
	n := *players
	if n == 0 {
		n = info.MinPlayers
	}
	maker, ok := g.(engine.BotMaker)
	if !ok {
		return fmt.Errorf("%s has no bots", info.Name)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i+1)
	}
	botNames := make([]string, n)
	for i := range botNames {
		botNames[i] = info.BestBot()
	}
	if *bots != "" {
		list := strings.Split(*bots, ",")
		for i := range botNames {
			botNames[i] = list[i%len(list)]
		}
	}
	seatBots := make([]engine.Bot, n)
	for i, b := range botNames {
		if seatBots[i], err = maker.NewBot(b); err != nil {
			return err
		}
	}
	wins := make([]float64, n)
	totalMoves := 0
	start := time.Now()
	for i := 0; i < *games; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		cfg := engine.Config{Variant: *variant, Options: opts, Seats: names, Seed: fmt.Sprintf("%s/%d", *seed, i)}
		rng := rand.New(rand.NewPCG(uint64(i), 99))
		st, moves, err := engine.PlayOut(g, cfg, seatBots, rng, *check, 0)
		if err != nil {
			return fmt.Errorf("game %d (seed %q): %w", i, cfg.Seed, err)
		}
		totalMoves += moves
		w := st.Result().Winners()
		for _, s := range w {
			wins[s] += 1 / float64(len(w))
		}
	}
	el := time.Since(start)
	fmt.Fprintf(env.stdout, "%s: %d games, %d players, %d moves in %v\n", info.Name, *games, n, totalMoves, el.Round(time.Millisecond))
	fmt.Fprintf(env.stdout, "%.1f games/s, %.0f moves/s, invariants checked: %v\n", float64(*games)/el.Seconds(), float64(totalMoves)/el.Seconds(), *check)
	for i := range wins {
		fmt.Fprintf(env.stdout, "   seat %d (%s): %.1f wins (%.0f%%)\n", i+1, botNames[i], wins[i], 100*wins[i]/float64(*games))
	}
	return nil
}
