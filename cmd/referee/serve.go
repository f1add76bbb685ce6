package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/referee/tell"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// cmdServe runs the daemon until SIGINT or SIGTERM.
func cmdServe(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "serve", "--config referee.toml")
	path := fs.String("config", "referee.toml", "configuration file")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := config.Load(*path)
	if err != nil {
		return err
	}
	d, err := daemon.New(cfg, daemon.Options{Logger: newLogger(cfg, env.stderr)})
	if err != nil {
		return err
	}
	return d.Run(ctx)
}

func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	ho := &slog.HandlerOptions{Level: cfg.LogLevel()}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, ho))
	}
	return slog.New(slog.NewTextHandler(w, ho))
}

// offline opens the store of a configuration for the organiser commands
// run from the command line (the daemon must be stopped: it holds the
// store's lock). Mails these commands cause wait in the outbox until the
// daemon runs.
func offline(env *cliEnv, path string) (*referee.Referee, *config.Config, func(), error) {
	cfg, err := loadStoreOnly(path)
	if err != nil {
		return nil, nil, nil, err
	}
	r, db, err := daemon.Offline(cfg)
	if errors.Is(err, daemon.ErrLocked) {
		return nil, nil, nil, fmt.Errorf("the daemon is running and holds %s: send your commands by mail to your organiser "+
			"address (the daemon logs it at start; or write HELP to %s from your address to get it), or stop the daemon first",
			cfg.StorePath(), cfg.RefereeAddress())
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return r, cfg, func() { db.Close() }, nil
}

// cmdOrganiser runs organiser commands, or registers an organiser.
func cmdOrganiser(_ context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "org", "--config referee.toml [--as ORGANISER] (add ADDRESS | COMMAND... | - for stdin)")
	path := fs.String("config", "referee.toml", "configuration file")
	as := fs.String("as", "", "the organiser address the commands are run as (default: the first configured organiser)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: give commands, \"-\" to read them from stdin, or add ADDRESS", errUsage)
	}
	r, cfg, done, err := offline(env, *path)
	if err != nil {
		return err
	}
	defer done()
	if pos[0] == "add" {
		if len(pos) != 2 {
			return fmt.Errorf("%w: org add ADDRESS", errUsage)
		}
		secret, err := r.AddOrganiser(pos[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "organiser %s: write your organiser commands to %s+org.%s@%s\n", pos[1], cfg.Referee.LocalPart, secret, cfg.Domain)
		return nil
	}
	who := *as
	if who == "" && len(cfg.Organisers) > 0 {
		who = cfg.Organisers[0]
	}
	if who == "" {
		return fmt.Errorf("%w: --as ORGANISER (no organiser in the configuration)", errUsage)
	}
	text := strings.Join(pos, " ")
	if text == "-" {
		b, err := io.ReadAll(env.stdin)
		if err != nil {
			return err
		}
		text = string(b)
	}
	lines, err := r.Organise(who, text)
	if err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(env.stdout, l)
	}
	return nil
}

// cmdGame is "game new": organiser sugar for a NEW mail.
func cmdGame(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 || args[0] != "new" {
		return fmt.Errorf("%w: game new GAME --player ADDRESS:NAME[:LANG[:ZONE]]... [flags]", errUsage)
	}
	fs := newFlags(env, "game new", "GAME --config referee.toml --player ann@example.org:Ann:it ... [--id ID] [--variant V] [--option k=v]... [--players N] [--open] [--deadline 48h,place=24h] [--ruleset FILE] [--as ORGANISER]")
	path := fs.String("config", "referee.toml", "configuration file")
	as := fs.String("as", "", "organiser address (default: the first configured organiser)")
	id := fs.String("id", "", "game id (default: the next free g<n>)")
	variant := fs.String("variant", "", "variant")
	players := fs.Int("players", 0, "number of seats (default: the number of --player)")
	open := fs.Bool("open", false, "open game: registered players may JOIN it")
	deadline := fs.String("deadline", "", "deadline policy, e.g. 48h,place=24h,at=20:00,days=mon-fri")
	rulesetFile := fs.String("ruleset", "", "ruleset data file overriding the game's default")
	opts := kvFlag{}
	fs.Var(opts, "option", "game option key=value (repeatable)")
	var invite []string
	fs.Func("player", "ADDRESS:NAME[:LANG[:ZONE]] (repeatable)", func(s string) error { invite = append(invite, s); return nil })
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one GAME", errUsage)
	}
	r, cfg, done, err := offline(env, *path)
	if err != nil {
		return err
	}
	defer done()
	ng := referee.NewGame{ID: *id, Game: pos[0], Variant: *variant, Options: opts, Players: *players, Open: *open, Organiser: *as}
	if ng.Organiser == "" && len(cfg.Organisers) > 0 {
		ng.Organiser = cfg.Organisers[0]
	}
	if len(ng.Options) == 0 {
		ng.Options = nil
	}
	if *deadline != "" {
		p, err := referee.ParsePolicy(*deadline)
		if err != nil {
			return err
		}
		ng.Policy = &p
	}
	if *rulesetFile != "" {
		if ng.Ruleset, err = os.ReadFile(*rulesetFile); err != nil {
			return err
		}
	}
	for _, p := range invite {
		f := strings.Split(p, ":")
		inv := referee.Invitee{Address: f[0]}
		if len(f) > 1 {
			inv.Name = f[1]
		}
		if len(f) > 2 {
			inv.Lang = f[2]
		}
		if len(f) > 3 {
			inv.TZ = f[3]
		}
		ng.Invite = append(ng.Invite, inv)
	}
	g, err := r.CreateGame(ng)
	if err != nil {
		return refusalWords(err)
	}
	fmt.Fprintf(env.stdout, "game %s created: %s, %d seats, seed commitment %s\n", g.ID, g.Game, g.Players, g.Commitment)
	fmt.Fprintln(env.stdout, "the invitations wait in the outbox until the daemon runs")
	return nil
}

// refusalWords is err as the organiser's door words it in English when it
// is a refusal of the organiser's request (a seating's, a deadline
// policy's, a hook's: a code and its parameters, issue 24), else err.
func refusalWords(err error) error {
	var e *organise.Error
	if !errors.As(organise.Refusal(err), &e) {
		return err
	}
	rd, rerr := tell.NewRenderer()
	if rerr != nil {
		return err
	}
	s, rerr := e.Words(organise.Templates{R: rd}, "en")
	if rerr != nil {
		return err
	}
	return errors.New(s)
}

// cmdExport writes a game's complete log (the input of referee replay).
func cmdExport(_ context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "export", "GAME --config referee.toml [--reveal]")
	path := fs.String("config", "referee.toml", "configuration file")
	reveal := fs.Bool("reveal", false, "include the seed of a game still running (organisers only: it reveals every future die)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one GAME", errUsage)
	}
	r, _, done, err := offline(env, *path)
	if err != nil {
		return err
	}
	defer done()
	lg, err := r.ExportLog(pos[0], *reveal)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(env.stdout)
	enc.SetIndent("", " ")
	return enc.Encode(lg)
}

// cmdCompact prunes what the referee keeps only for a while (old
// de-duplication records, bounce ids, replay tokens) and rewrites the store
// without the free pages: bbolt reuses freed space but never shrinks the
// file (issue 11: a mail bomb left a store of 1.47 GB behind).
func cmdCompact(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "compact", "--config referee.toml")
	path := fs.String("config", "referee.toml", "configuration file")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: compact takes no arguments", errUsage)
	}
	r, cfg, done, err := offline(env, *path)
	if err != nil {
		return err
	}
	n, err := r.Prune(ctx)
	done()
	if err != nil {
		return err
	}
	before, after, err := daemon.Compact(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "pruned %d old records; %s: %d bytes -> %d bytes\n", n, cfg.StorePath(), before, after)
	return nil
}

// loadStoreOnly loads a configuration for the commands that only use the
// store (org, game new): they send no mail and read none, so the IMAP,
// SMTP and webhook passwords are not needed (they stand in when unset;
// the daemon checks the real ones when it starts).
func loadStoreOnly(path string) (*config.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	// The secrets that are required alone (the SendGrid and Postmark
	// passwords pair with a user name in the file and stay as they are).
	secret := map[string]bool{"REFEREE_IMAP_PASSWORD": true, "REFEREE_SMTP_PASSWORD": true,
		"REFEREE_WEBHOOK_SECRET": true, "REFEREE_HOOKS_SECRET": true}
	env := func(k string) (string, bool) {
		if secret[k] {
			return "unused-offline-unused-offline", true
		}
		if secret[strings.TrimSuffix(k, "_FILE")] {
			return "", false
		}
		return os.LookupEnv(k)
	}
	cfg, err := config.Parse(data, env)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}
