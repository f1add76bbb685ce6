package organise

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/templates"
)

// gameRows are an organiser's game commands (the "org-games" family):
// creating games, and acting on one, one handler a keyword. Their help is
// their row of org.help (org.help.<KEYWORD>); PLAYER and RULESET belong
// to the NEW above them.
var gameRows = []Row{
	{Keyword: "NEW", Usage: "NEW <game> [id=] [variant=] [players=] [open] [deadline=48h,place=24h] [option=value]...", Row: 1, Run: newGame},
	{Keyword: "PLAYER", Usage: "PLAYER <address> <name> [en|it|fr|nl] [Area/City]", Row: 2, Run: player},
	{Keyword: "RULESET", Usage: "RULESET", Row: 3, Run: ruleset},
	{Keyword: "INVITE", Usage: "INVITE <game> <address> <name> [lang] [zone]", Row: 4, Run: onGame(invite)},
	{Keyword: "LIST", Usage: "LIST [<game>]", Row: 5, Run: list},
	{Keyword: "STATUS", Usage: "STATUS <game>", Row: 6, Unlogged: true, Run: onGame(status)},
	{Keyword: "PAUSE", Usage: "PAUSE <game>", Row: 7, Run: onGame(pause)},
	{Keyword: "RESUME", Usage: "RESUME <game>", Help: "org.help.PAUSE", Run: onGame(resume)},
	{Keyword: "EXTEND", Usage: "EXTEND <game> <seat> <hours>", Row: 8, Run: onGame(extend)},
	{Keyword: "REPLACE", Usage: "REPLACE <game> <seat> <address> <name> [lang]", Row: 9, Run: onGame(replace)},
	{Keyword: "KICK", Usage: "KICK <game> <seat>", Row: 10, Run: onGame(kick)},
	{Keyword: "ROLLBACK", Usage: "ROLLBACK <game> <token>", Row: 11, Run: onGame(rollback)},
	{Keyword: "POLICY", Usage: "POLICY <game> <policy>", Row: 12, Run: onGame(policy)},
	{Keyword: "ERRATUM", Usage: "ERRATUM <game>", Row: 13, Run: erratum},
	{Keyword: "HOOK", Usage: "HOOK <game> <https url> [generic|discord] [moves,turn,end,org,chat]", Row: 14, Run: onGame(hook)},
	{Keyword: "UNHOOK", Usage: "UNHOOK <game> <hook id>", Row: 15, Run: onGame(hook)},
	{Keyword: "ABORT", Usage: "ABORT <game>", Row: 16, Run: onGame(abort)},
	{Keyword: "PUBLISH", Usage: "PUBLISH <game> [listed|off]", Row: 17, Run: onGame(publish)},
	{Keyword: "HELP", Usage: "HELP", Row: 18, Run: help},
}

func init() {
	for i := range gameRows {
		gameRows[i].Family = FamilyGames
	}
}

var gameIDRe = regexp.MustCompile(`^[a-z][a-z0-9]{1,23}$`)

// onGame makes the handler of a command that names a game ("<CMD> <game>
// ..."): the game is found and checked to be the organiser's, the action
// run, and logged unless the row is Unlogged (every organiser action that
// may change the game is logged and announced).
func onGame(do func(c *Call, g Game, args []string) (string, error)) func(*Call) (string, bool, error) {
	return func(c *Call) (string, bool, error) {
		res, err := c.onGame(do)
		return res, true, err
	}
}

func (c *Call) onGame(do func(c *Call, g Game, args []string) (string, error)) (string, error) {
	if len(c.f) < 2 {
		return "", c.usage()
	}
	id := strings.ToLower(c.f[1])
	g, ok, err := c.h.Game(id)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fail("no_game", "game", id)
	}
	if o := g.Info().Organiser; o != "" && o != c.org {
		return "", fail("not_yours", "game", id)
	}
	args := c.f[2:]
	res, err := do(c, g, args)
	if err != nil {
		c.touched = !doorError(err)
		return "", err
	}
	if !c.row.Unlogged {
		public := make([]string, len(args))
		for i, a := range args {
			public[i] = a
			if strings.Contains(a, "@") || strings.Contains(a, "://") {
				public[i] = "…" // addresses and hook URLs stay private
			}
		}
		if err := g.Log(c.kw, public); err != nil {
			c.touched = true
			return "", err
		}
	}
	return c.kw + " " + id + ": " + res, nil
}

// seatArg reads args[i] as a seat of the game: a name, an address or a
// number.
func seatArg(g Game, args []string, i int) (int, error) {
	if len(args) <= i {
		return -1, fail("seat_missing")
	}
	for k, s := range g.Info().Seats {
		if strings.EqualFold(s.Name, args[i]) || strings.EqualFold(s.Address, args[i]) || strconv.Itoa(k+1) == args[i] {
			return k, nil
		}
	}
	return -1, fail("no_seat", "seat", args[i])
}

func newGame(c *Call) (string, bool, error) {
	ng, err := parseNew(c.h, c.org, c.f[1:])
	c.ng, c.ngKey, c.ngFrom = ng, c.key, len(c.results)
	if err != nil {
		return c.errLine("NEW", err), true, nil
	}
	return "", true, nil
}

func player(c *Call) (string, bool, error) {
	if c.ng == nil {
		return c.errLine("PLAYER", fail("only_after_new", "keyword", "PLAYER")), true, nil
	}
	inv, err := ParseInvitee(c.h, c.f[1:])
	if err != nil {
		return c.errLine("PLAYER", err), true, nil
	}
	c.ng.Invite = append(c.ng.Invite, inv)
	return "", true, nil
}

// ruleset: the rest of the message is the data file of the game being
// created by the NEW above.
func ruleset(c *Call) (string, bool, error) {
	if c.ng == nil {
		return c.errLine("RULESET", fail("only_after_new", "keyword", "RULESET")), true, nil
	}
	c.ng.Ruleset = c.rest()
	return "", true, nil
}

// erratum: the rest of the message is the corrected data file.
func erratum(c *Call) (string, bool, error) {
	rest := c.rest()
	res, err := c.onGame(func(c *Call, g Game, _ []string) (string, error) {
		if !g.Info().Started {
			return "", fail("erratum_not_started")
		}
		version, sha, err := g.Erratum(rest)
		if err != nil {
			return "", err
		}
		return c.text("org.done.ERRATUM", "version", version, "sha", sha[:12]), nil
	})
	return res, true, err
}

// ListPage is the most games one LIST answers (issue 25: long answers
// paged); LIST <game> lists from that game on.
const ListPage = 50

func list(c *Call) (string, bool, error) {
	from := ""
	if len(c.f) > 1 {
		from = strings.ToLower(c.f[1])
	}
	games, next, more, err := c.h.List(c.org, from, ListPage)
	// An empty page after a game named says from where (LIST past the
	// last game is no "no games yet"), the name clipped to keep the
	// line within 80 columns.
	from = mailfmt.ClipLine(from, 20)
	return c.text("org.done.LIST", "games", games, "next", next, "more", more, "from", from), true, err
}

func help(c *Call) (string, bool, error) {
	res, err := c.h.Help(c.lang, c.org)
	return res, true, err
}

func status(c *Call, g Game, _ []string) (string, error) {
	gi := g.Info()
	type seat struct {
		SeatInfo
		N       int
		Waiting bool
		Due     string
	}
	seats := make([]seat, len(gi.Seats))
	for _, k := range g.Waiting() {
		if k >= 0 && k < len(seats) {
			seats[k].Waiting = true
		}
	}
	for k, s := range gi.Seats {
		seats[k].SeatInfo, seats[k].N = s, k+1
		if !s.Due.IsZero() {
			seats[k].Due = templates.FormatShort(c.lang, s.Due.UTC()) + " UTC"
		}
	}
	return c.text("org.done.STATUS", "title", g.Title(), "variant", gi.Variant, "status", gi.Status, "move", gi.Move,
		"taken", len(gi.Seats), "players", gi.Players, "policy", g.Policy(), "seats", seats), nil
}

func pause(c *Call, g Game, _ []string) (string, error) {
	if st := g.Info().Status; st != "running" {
		return "", fail("status", "status", st)
	}
	g.Pause()
	return c.text("org.done.PAUSE"), nil
}

func resume(c *Call, g Game, _ []string) (string, error) {
	if st := g.Info().Status; st != "paused" {
		return "", fail("status", "status", st)
	}
	shift := g.Resume()
	return c.text("org.done.RESUME", "shift", shift.Round(time.Minute).String()), nil
}

func extend(c *Call, g Game, args []string) (string, error) {
	seat, err := seatArg(g, args, 0)
	if err != nil {
		return "", err
	}
	if len(args) < 2 {
		return "", c.usage()
	}
	h, err := c.h.ParseHours(args[1])
	if err != nil {
		return "", fail("hours", "value", args[1])
	}
	s := g.Info().Seats[seat]
	if s.Due.IsZero() {
		return "", fail("no_deadline", "name", s.Name)
	}
	due := g.Extend(seat, time.Duration(h*float64(time.Hour)))
	return c.text("org.done.EXTEND", "name", s.Name, "due", due.Format(time.RFC3339)), nil
}

func replace(c *Call, g Game, args []string) (string, error) {
	seat, err := seatArg(g, args, 0)
	if err != nil {
		return "", err
	}
	inv, err := ParseInvitee(c.h, args[1:])
	if err != nil {
		return "", c.ownUsage(err)
	}
	name := g.Info().Seats[seat].Name
	addr, err := g.Replace(seat, inv)
	if err != nil {
		return "", err
	}
	return c.text("org.done.REPLACE", "seat", seat+1, "name", name, "address", addr), nil
}

func kick(c *Call, g Game, args []string) (string, error) {
	seat, err := seatArg(g, args, 0)
	if err != nil {
		return "", err
	}
	if err := g.Kick(seat); err != nil {
		return "", err
	}
	return c.text("org.done.KICK", "name", g.Info().Seats[seat].Name), nil
}

func rollback(c *Call, g Game, args []string) (string, error) {
	if len(args) != 1 {
		return "", c.usage()
	}
	to, err := strconv.Atoi(args[0])
	if err != nil || to < 0 {
		return "", fail("token", "value", args[0])
	}
	gi := g.Info()
	if !gi.Started {
		return "", fail("not_started")
	}
	if to >= gi.Move {
		return "", fail("past", "move", to, "now", gi.Move)
	}
	if err := g.Rollback(to); err != nil {
		return "", err
	}
	return c.text("org.done.ROLLBACK", "move", to), nil
}

func abort(c *Call, g Game, _ []string) (string, error) {
	if st := g.Info().Status; st == "over" || st == "aborted" {
		return "", fail("already", "status", st)
	}
	g.Abort()
	return c.text("org.done.ABORT"), nil
}

func policy(c *Call, g Game, args []string) (string, error) {
	p, err := g.SetPolicy(strings.Join(args, ","))
	if err != nil {
		return "", err
	}
	return c.text("org.done.POLICY", "policy", p), nil
}

func hook(c *Call, g Game, args []string) (string, error) { return g.Hook(c.kw, args) }

// publish: the game's public page (the spectators' view), by unguessable
// address.
func publish(_ *Call, g Game, args []string) (string, error) { return g.Publish(args) }

func invite(c *Call, g Game, args []string) (string, error) {
	inv, err := ParseInvitee(c.h, args)
	if err != nil {
		return "", c.ownUsage(err)
	}
	gi := g.Info()
	if gi.Status != "forming" {
		return "", fail("started")
	}
	addr := strings.ToLower(strings.TrimSpace(inv.Address))
	for _, s := range gi.Seats {
		if strings.EqualFold(s.Address, addr) {
			return "", fail("in_game", "address", addr, "game", gi.ID)
		}
	}
	if len(gi.Seats) >= gi.Players {
		return "", fail("full", "game", gi.ID)
	}
	if err := g.Invite(inv); err != nil {
		return "", err
	}
	return c.text("org.done.INVITE", "address", inv.Address), nil
}
