package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pbem-referee/referee/referee/tournament"
)

// cmdTournament is "tournament export ID" and "tournament replay FILE".
func cmdTournament(_ context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 || (args[0] != "export" && args[0] != "replay") {
		return fmt.Errorf("%w: tournament export --config referee.toml ID | tournament replay FILE.json", errUsage)
	}
	if args[0] == "replay" {
		fs := newFlags(env, "tournament replay", "FILE.json")
		pos, err := parseFlags(fs, args[1:])
		if err != nil {
			return err
		}
		if len(pos) != 1 {
			return fmt.Errorf("%w: want exactly one tournament file", errUsage)
		}
		data, err := os.ReadFile(pos[0])
		if err != nil {
			return err
		}
		var t tournament.Tournament
		if err := json.Unmarshal(data, &t); err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
		if t.Seed == "" {
			return fmt.Errorf("tournament %s: the seed is not revealed yet (it is, once the tournament is over)", t.ID)
		}
		fmt.Fprintf(env.stdout, "replaying %s: seed commitment %s, %d entrants, %d rounds\n", t.ID, t.Commitment, len(t.Entrants), len(t.Rounds))
		if err := tournament.Replay(&t); err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "ok: every pairing of every round is the seed's draw\n")
		for _, s := range t.Standings() {
			fmt.Fprintf(env.stdout, "  %2d. %-18s %5v\n", s.Place, s.Name, s.Points)
		}
		return nil
	}
	fs := newFlags(env, "tournament export", "--config referee.toml ID")
	path := fs.String("config", "referee.toml", "configuration file")
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one tournament id", errUsage)
	}
	r, _, done, err := offline(env, *path)
	if err != nil {
		return err
	}
	defer done()
	t, err := r.TournamentRecord(pos[0])
	if err != nil {
		return err
	}
	if t.Status != tournament.StatusOver {
		t.Seed = "" // secret until the end
	}
	for i := range t.Entrants {
		t.Entrants[i].Address, t.Entrants[i].Previous = "", nil // addresses stay private
	}
	t.Key, t.Organiser = "", ""
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.stdout, "%s\n", b)
	return err
}
