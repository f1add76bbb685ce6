package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/pbem-referee/referee/engine"
)

// The games this binary hosts: each registers itself with the engine
// registry from its package's init function.
import (
	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
)

func cmdGames(_ context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "games", "[--json]")
	asJSON := fs.Bool("json", false, "print the list as JSON")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	games := engine.Games()
	if *asJSON {
		infos := make([]engine.Info, len(games))
		for i, g := range games {
			infos[i] = g.Info()
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	if len(games) == 0 {
		fmt.Fprintln(env.stdout, "no games registered")
	}
	for _, g := range games {
		i := g.Info()
		fmt.Fprintf(env.stdout, "%s  %s  (%s players)\n", i.Name, i.Title, playerRange(i.MinPlayers, i.MaxPlayers))
		for k, v := range i.Variants {
			def := ""
			if k == 0 {
				def = " (default)"
			}
			players := ""
			if len(v.Players) > 0 {
				ps := make([]string, len(v.Players))
				for j, p := range v.Players {
					ps[j] = fmt.Sprint(p)
				}
				players = " [" + strings.Join(ps, ",") + " players]"
			}
			fmt.Fprintf(env.stdout, "    variant %-12s %s%s%s\n", v.Name, v.Description, players, def)
		}
		opts := append([]engine.OptionSpec(nil), i.Options...)
		sort.Slice(opts, func(a, b int) bool { return opts[a].Name < opts[b].Name })
		for _, o := range opts {
			fmt.Fprintf(env.stdout, "    option  %-12s %s: %s\n", o.Name, strings.Join(o.Values, "|"), o.Description)
		}
		if len(i.Bots) > 0 {
			fmt.Fprintf(env.stdout, "    bots    %s\n", strings.Join(i.Bots, ", "))
		}
	}
	return nil
}

func playerRange(min, max int) string {
	if min == max {
		return fmt.Sprint(min)
	}
	return fmt.Sprintf("%d-%d", min, max)
}
