// Command referee is the play-by-email and webhook game referee: one binary
// with subcommands for the daemon, the embedded demo, offline play, replays
// and self-play.
//
// It owns the command line: the subcommands, their flags and their output. It
// must not hold the referee's logic (the core, the wiring and the tools do)
// nor link a test rig (TestBinaryHasNoTestRig).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, env *cliEnv, args []string) error
}

// cliEnv is what a subcommand may touch: its streams (tests substitute them).
type cliEnv struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

var commands = map[string]command{
	"games":      {"list the games, their variants, options and player counts", cmdGames},
	"play":       {"play a game offline from a script or stdin (organisers: check disputes)", cmdPlay},
	"replay":     {"re-run an exported game log from its seed and confirm every state", cmdReplay},
	"selfplay":   {"play many complete games with the engine's bots, checking invariants", cmdSelfplay},
	"serve":      {"run the referee daemon (IMAP intake, SMTP outbox, deadlines, webhooks)", cmdServe},
	"org":        {"run organiser commands on the store, or register an organiser (daemon stopped)", cmdOrganiser},
	"game":       {"game new: create a game and queue its invitations (daemon stopped)", cmdGame},
	"export":     {"write a game's complete log, for referee replay", cmdExport},
	"compact":    {"prune old records and give their space back to the disk (daemon stopped)", cmdCompact},
	"demo":       {"bots play every game by real mail on an embedded mail stack (no setup needed)", cmdDemo},
	"tournament": {"tournament export ID (the record, seed once over) and tournament replay FILE (check every pairing)", cmdTournament},
	"bench":      {"end-to-end benchmark: bot games by mail, an echo baseline, store and memory at 10 to 10,000 games", cmdBench},
}

// errUsage marks a usage error (exit status 2).
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &cliEnv{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, env *cliEnv) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(env.stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.stderr, "referee: unknown command %q\n\n", args[0])
		usage(env.stderr)
		return 2
	}
	if err := c.run(ctx, env, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(env.stderr, "referee %s: %v\n", args[0], err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "referee: a play-by-email and webhook board-game referee")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: referee <command> [flags]   (referee <command> -h for its flags)")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(env *cliEnv, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: referee %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags that may come before or after positional args.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// kvFlag collects repeated key=value flags.
type kvFlag map[string]string

func (k kvFlag) String() string {
	var parts []string
	for a, b := range k {
		parts = append(parts, a+"="+b)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (k kvFlag) Set(s string) error {
	a, b, ok := strings.Cut(s, "=")
	if !ok || a == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	k[a] = b
	return nil
}

// byGame splits --option game.key=value flags into each game's options.
func (k kvFlag) byGame() (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for gk, v := range k {
		g, key, ok := strings.Cut(gk, ".")
		if !ok || g == "" || key == "" {
			return nil, fmt.Errorf("%w: --option %s=%s: want game.key=value", errUsage, gk, v)
		}
		if out[g] == nil {
			out[g] = map[string]string{}
		}
		out[g][key] = v
	}
	return out, nil
}
