package referee

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// orgGameFamily are an organiser's game commands (the table's "org-games"
// family, see commands.go): creating games, and acting on one. Their help
// is their row of org.help (org.help.<KEYWORD>); PLAYER and RULESET belong
// to the NEW above them.
var orgGameFamily = []command{
	{Keyword: "NEW", Who: byOrganiser, Usage: "NEW <game> [id=] [variant=] [players=] [open] [deadline=48h,place=24h] [option=value]...",
		Row: 1, org: orgNew},
	{Keyword: "PLAYER", Who: byOrganiser, Usage: "PLAYER <address> <name> [en|it|fr|nl] [Area/City]", Row: 2, org: orgPlayer},
	{Keyword: "RULESET", Who: byOrganiser, Usage: "RULESET", Row: 3, org: orgRuleset},
	{Keyword: "INVITE", Who: byOrganiser, Usage: "INVITE <game> <address> <name> [lang] [zone]", Row: 4, onGame: orgInvite},
	{Keyword: "LIST", Who: byOrganiser, Usage: "LIST", Row: 5, org: orgListCmd},
	{Keyword: "STATUS", Who: byOrganiser, Usage: "STATUS <game>", Row: 6, Unlogged: true, onGame: orgStatus},
	{Keyword: "PAUSE", Who: byOrganiser, Usage: "PAUSE <game>", Row: 7, onGame: orgPause},
	{Keyword: "RESUME", Who: byOrganiser, Usage: "RESUME <game>", Help: "org.help.PAUSE", onGame: orgResume},
	{Keyword: "EXTEND", Who: byOrganiser, Usage: "EXTEND <game> <seat> <hours>", Row: 8, onGame: orgExtend},
	{Keyword: "REPLACE", Who: byOrganiser, Usage: "REPLACE <game> <seat> <address> <name> [lang]", Row: 9, onGame: orgReplace},
	{Keyword: "KICK", Who: byOrganiser, Usage: "KICK <game> <seat>", Row: 10, onGame: orgKick},
	{Keyword: "ROLLBACK", Who: byOrganiser, Usage: "ROLLBACK <game> <token>", Row: 11, onGame: orgRollback},
	{Keyword: "POLICY", Who: byOrganiser, Usage: "POLICY <game> <policy>", Row: 12, onGame: orgPolicy},
	{Keyword: "ERRATUM", Who: byOrganiser, Usage: "ERRATUM <game>", Row: 13, org: orgErratum},
	{Keyword: "HOOK", Who: byOrganiser, Usage: "HOOK <game> <https url> [generic|discord] [events]", Row: 14, onGame: orgHook},
	{Keyword: "UNHOOK", Who: byOrganiser, Usage: "UNHOOK <game> <hook id>", Row: 15, onGame: orgUnhook},
	{Keyword: "ABORT", Who: byOrganiser, Usage: "ABORT <game>", Row: 16, onGame: orgAbort},
	{Keyword: "PUBLISH", Who: byOrganiser, Usage: "PUBLISH <game> [listed|off]", Row: 17, onGame: orgPublish},
	{Keyword: "HELP", Who: byOrganiser, Usage: "HELP", Row: 18, org: orgHelpCmd},
}

// orgCall is one line of an organiser's script, as its handler sees it.
type orgCall struct {
	w       orgWork
	org     string
	kw      string
	cmd     *command
	f       []string // the words of the line, the keyword first
	lines   []string // the whole script
	i       int      // the line's index; a handler that reads the rest moves it to the end
	ng      *NewGame // the game the NEW above describes, not created yet
	results []string
	// err is the failure of the line's command (its answer says it).
	err error
}

// orgScript runs an organiser's commands and returns one result line each.
// Each command is all or none: one that fails after it changed something
// through the desk rolls the unit of work back, to run again without it
// (a redoError, undo.go).
func (w orgWork) orgScript(org, text string) ([]string, error) {
	c := &orgCall{w: w, org: org, lines: strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")}
	w.answerLang = w.orgMailLang(text)
	failed := map[string]string{} // the lines to undo
	read, unread := 0, 0
	for ; c.i < len(c.lines); c.i++ {
		line := c.lines[c.i]
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if read++; read > MaxOrgLines { // issue 23: bounded per mail
			unread++
			continue
		}
		c.f, c.kw = f, strings.ToUpper(f[0])
		if c.kw != "PLAYER" && c.kw != "RULESET" {
			c.finish()
		}
		if tk := w.orgTourKeyword(f[0]); tk != "" {
			f[0], c.kw = tk, tk
		}
		key := fmt.Sprintf("org line %d", c.i)
		if msg, undone := w.undone[key]; undone {
			c.results = append(c.results, msg)
			continue
		}
		before, n := w.deskWrites, len(c.results)
		c.err = nil
		res := c.run()
		if res != "" {
			c.results = append(c.results, res)
		}
		var re *redoError
		if errors.As(c.err, &re) {
			maps.Copy(re.undo, failed)
			return nil, c.err // a step of the desk's failed midway
		}
		if c.err != nil && w.deskWrites != before {
			failed[key] = strings.Join(c.results[n:], "\n")
		}
	}
	c.finish()
	if unread > 0 {
		c.results = append(c.results, fmt.Sprintf("only the first %d command lines of a mail are read: the %d after them were not; send them in another mail", MaxOrgLines, unread))
	}
	if len(failed) > 0 {
		return nil, &redoError{undo: failed}
	}
	return c.results, nil
}

// run runs the line through the keyword's rows, in order; a keyword that
// is none of the organiser's still names a game (its checks come first).
func (c *orgCall) run() string {
	var res string
	var err error
	ran := false
	for _, cmd := range lookupCommands(byOrganiser, c.kw) {
		c.cmd = cmd
		if cmd.onGame != nil {
			res, err = c.w.orgOnGame(c.org, c.f, cmd, cmd.onGame)
			ran = true
			break
		}
		var ok bool
		if res, ok, err = cmd.org(c); ok {
			ran = true
			break
		}
	}
	if !ran {
		res, err = c.w.orgOnGame(c.org, c.f, &command{Keyword: c.kw, Who: byOrganiser}, orgUnknown(c.kw))
	}
	if err != nil {
		res, c.err = c.kw+": "+err.Error(), err
	}
	return res
}

// finish creates the game the NEW above describes.
func (c *orgCall) finish() {
	ng := c.ng
	if ng == nil {
		return
	}
	c.ng = nil
	gw, err := c.w.createGame(*ng)
	if err != nil {
		c.results = append(c.results, "NEW "+ng.Game+": "+err.Error())
		return
	}
	c.results = append(c.results, fmt.Sprintf("NEW: created game %s (%s, %d seats); the invitations are sent.\n"+
		"  Seed commitment (SHA-256 of the seed, revealed at the end):\n  %s", gw.g.ID, gw.g.Game, gw.g.Players, gw.g.Commitment))
}

// rest is the rest of the script after this line, which ends the script.
func (c *orgCall) rest() []byte {
	rest := strings.Join(c.lines[c.i+1:], "\n")
	c.i = len(c.lines)
	return []byte(rest)
}

func orgNew(c *orgCall) (string, bool, error) {
	ng, err := parseNew(c.org, c.f[1:])
	c.ng = ng
	if err != nil {
		return "NEW: " + err.Error(), true, nil
	}
	return "", true, nil
}

func orgPlayer(c *orgCall) (string, bool, error) {
	if c.ng == nil {
		return "PLAYER: only after NEW", true, nil
	}
	inv, err := parseInvitee(c.f[1:])
	if err != nil {
		return "PLAYER: " + err.Error(), true, nil
	}
	c.ng.Invite = append(c.ng.Invite, inv)
	return "", true, nil
}

// orgRuleset: the rest of the message is the data file of the game being
// created by the NEW above.
func orgRuleset(c *orgCall) (string, bool, error) {
	if c.ng == nil {
		return "RULESET: only after NEW", true, nil
	}
	c.ng.Ruleset = c.rest()
	return "", true, nil
}

// orgErratum: the rest of the message is the corrected data file.
func orgErratum(c *orgCall) (string, bool, error) {
	rest := c.rest()
	res, err := c.w.orgOnGame(c.org, c.f, c.cmd, func(gw *gameWork, _ []string) (string, error) { return gw.erratum(rest) })
	return res, true, err
}

func orgListCmd(c *orgCall) (string, bool, error) {
	res, err := c.w.orgList(c.org)
	return res, true, err
}

func orgHelpCmd(c *orgCall) (string, bool, error) {
	res, err := c.w.orgHelp(c.org, "org.help")
	return res, true, err
}

// orgUnknown answers a keyword that is none of the organiser's, once the
// game it names is found: the list of commands, from the table.
func orgUnknown(kw string) func(*gameWork, []string) (string, error) {
	return func(*gameWork, []string) (string, error) {
		return "", fmt.Errorf("unknown organiser command %s; the commands (HELP explains):\n%s", kw, orgCommandList())
	}
}

// orgCommandList lists the organiser's keywords, the games' then the
// tournaments', in lines of at most 72 columns.
func orgCommandList() string {
	var games, tours []string
	seen := map[string]bool{}
	for _, c := range orgGameFamily {
		if !seen[c.Keyword] {
			seen[c.Keyword] = true
			games = append(games, c.Keyword)
		}
	}
	games[len(games)-1] += "; for tournaments:"
	for _, c := range orgTourFamily {
		if c.Keyword == "NEW" {
			tours = append(tours, "NEW TOURNAMENT")
			continue
		}
		tours = append(tours, c.Keyword)
	}
	return wrapWords(games, 72, "  ") + "\n" + wrapWords(tours, 72, "  ")
}

// wrapWords writes words in lines of at most width columns, each line
// starting with indent.
func wrapWords(words []string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for i, w := range words {
		switch {
		case i == 0:
			b.WriteString(indent)
			col = len(indent)
		case col+1+len(w) > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// orgOnGame runs a command that names a game: "<CMD> <game> ...".
func (w orgWork) orgOnGame(org string, f []string, cmd *command, do func(*gameWork, []string) (string, error)) (string, error) {
	kw := strings.ToUpper(f[0])
	if len(f) < 2 {
		return "", fmt.Errorf("usage: %s <game> ...", kw)
	}
	id := strings.ToLower(f[1])
	if w.games[id] == nil && !w.tx.HasGame(id) { // a game NEW created earlier in this mail counts
		return "", fmt.Errorf("no game %q", id)
	}
	gw, err := w.game(id)
	if err != nil {
		return "", err
	}
	if gw.g.Organiser != "" && gw.g.Organiser != org {
		return "", fmt.Errorf("game %s belongs to another organiser", id)
	}
	return w.orgLogged(gw, kw, f[2:], !cmd.Unlogged, do)
}

// orgLogged runs an organiser action and logs it (every organiser action
// that may change the game is logged and announced).
func (w orgWork) orgLogged(gw *gameWork, kw string, args []string, logged bool, do func(*gameWork, []string) (string, error)) (string, error) {
	res, err := do(gw, args)
	if err != nil {
		return "", err
	}
	if logged {
		public := make([]string, len(args))
		for i, a := range args {
			public[i] = a
			if strings.Contains(a, "@") || strings.Contains(a, "://") {
				public[i] = "…" // addresses and hook URLs stay private
			}
		}
		if _, err := gw.log(Entry{Kind: EntryOrg, Seat: -1, Vis: engine.Public, Params: map[string]any{"command": kw, "args": public}}); err != nil {
			return "", err
		}
	}
	return kw + " " + gw.g.ID + ": " + res, nil
}

// seatArg reads args[i] as a seat of the game: a name, an address or a
// number.
func (gw *gameWork) seatArg(args []string, i int) (int, error) {
	if len(args) <= i {
		return -1, fmt.Errorf("name a seat (name or number)")
	}
	for k, s := range gw.g.Seats {
		if strings.EqualFold(s.Name, args[i]) || strings.EqualFold(s.Address, args[i]) || fmt.Sprint(k+1) == args[i] {
			return k, nil
		}
	}
	return -1, fmt.Errorf("no seat %q", args[i])
}

// orgPublish: the game's public page (the spectators' view), by
// unguessable address (gamepages.go).
func orgPublish(gw *gameWork, args []string) (string, error) { return gw.publish(args) }

func orgStatus(gw *gameWork, _ []string) (string, error) {
	g := gw.g
	var b strings.Builder
	variant := ""
	if g.Variant != "" {
		variant = " (" + g.Variant + ")"
	}
	fmt.Fprintf(&b, "%s%s, %s, move %d\n  %d of %d seats taken; deadlines %s",
		gw.eg.Info().Title, variant, g.Status, gw.token(), len(g.Seats), g.Players, g.Policy.String())
	waiting := map[int]bool{}
	if gw.tb != nil && g.Status == StatusRunning {
		for _, d := range gw.tb.Waiting() {
			waiting[d.Seat] = true
		}
	}
	for k, s := range g.Seats {
		fmt.Fprintf(&b, "\n  %d. %s <%s>, %s", k+1, s.Name, s.Address, s.State)
		if s.Bot != "" {
			fmt.Fprintf(&b, ", played by the bot")
		}
		if s.MissedTotal > 0 {
			fmt.Fprintf(&b, ", missed %d", s.MissedTotal)
		}
		if waiting[k] {
			b.WriteString("\n     to move")
			if s.Deadline != nil && !s.Deadline.Due.IsZero() {
				fmt.Fprintf(&b, ", due %s", s.Deadline.Due.UTC().Format("Mon 2 Jan 15:04 UTC"))
			}
		}
	}
	return b.String(), nil
}

func orgPause(gw *gameWork, _ []string) (string, error) {
	g := gw.g
	if g.Status != StatusRunning {
		return "", fmt.Errorf("the game is %s", g.Status)
	}
	g.Status, g.PausedAt = StatusPaused, gw.w.now
	gw.announce(nil, "paused")
	return "paused", nil
}

func orgResume(gw *gameWork, _ []string) (string, error) {
	g := gw.g
	if g.Status != StatusPaused {
		return "", fmt.Errorf("the game is %s", g.Status)
	}
	shift := gw.w.now.Sub(g.PausedAt)
	for i := range g.Seats {
		if dl := g.Seats[i].Deadline; dl != nil {
			if !dl.Due.IsZero() {
				dl.Due = dl.Due.Add(shift)
			}
			for k := range dl.Reminders {
				dl.Reminders[k] = dl.Reminders[k].Add(shift)
			}
		}
	}
	g.Status, g.PausedAt = StatusRunning, time.Time{}
	gw.announce(nil, "resumed", "shift", math.Round(shift.Hours()*10)/10)
	return "resumed; deadlines moved by " + shift.Round(time.Minute).String(), nil
}

func orgExtend(gw *gameWork, args []string) (string, error) {
	g := gw.g
	seat, err := gw.seatArg(args, 0)
	if err != nil {
		return "", err
	}
	if len(args) < 2 {
		return "", fmt.Errorf("usage: EXTEND <game> <seat> <hours>")
	}
	h, err := parseHours(args[1])
	if err != nil {
		return "", err
	}
	dl := g.Seats[seat].Deadline
	if dl == nil || dl.Due.IsZero() {
		return "", fmt.Errorf("%s has no running deadline", g.Seats[seat].Name)
	}
	dl.Due = dl.Due.Add(time.Duration(h * float64(time.Hour)))
	dl.Reminders, dl.Sent = g.Policy.Remind(gw.w.now, dl.Due), 0
	gw.announce(nil, "extended", "seat", seat, "name", g.Seats[seat].Name, "hours", h,
		"due", dl.Due.Format(time.RFC3339))
	return fmt.Sprintf("%s's deadline is now %s", g.Seats[seat].Name, dl.Due.Format(time.RFC3339)), nil
}

func orgReplace(gw *gameWork, args []string) (string, error) {
	seat, err := gw.seatArg(args, 0)
	if err != nil {
		return "", err
	}
	inv, err := parseInvitee(args[1:])
	if err != nil {
		return "", err
	}
	return gw.replace(seat, inv)
}

func orgKick(gw *gameWork, args []string) (string, error) {
	g := gw.g
	seat, err := gw.seatArg(args, 0)
	if err != nil {
		return "", err
	}
	s := &g.Seats[seat]
	if g.Status == StatusForming {
		gw.dropSeat = append(gw.dropSeat, seat)
	}
	s.State, s.Bot, s.Deadline = SeatKicked, gw.botName(), nil
	if err := gw.w.tx.DeleteToken(s.Secret); err != nil {
		return "", err
	}
	gw.announce(nil, "kicked", "seat", seat, "name", s.Name)
	return s.Name + " removed; the seat is played by the bot", nil
}

func orgRollback(gw *gameWork, args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("usage: ROLLBACK <game> <token>")
	}
	to, err := strconv.Atoi(args[0])
	if err != nil || to < 0 {
		return "", fmt.Errorf("token %q: want a move number", args[0])
	}
	return gw.rollback(to)
}

func orgAbort(gw *gameWork, _ []string) (string, error) {
	g := gw.g
	if g.Status == StatusOver || g.Status == StatusAborted {
		return "", fmt.Errorf("the game is already %s", g.Status)
	}
	g.Status, g.Ended = StatusAborted, gw.w.now
	for i := range g.Seats {
		g.Seats[i].Deadline = nil
	}
	gw.announce(nil, "aborted", "seed", g.Seed)
	return "aborted; the seed was revealed to the players", nil
}

func orgPolicy(gw *gameWork, args []string) (string, error) {
	p, err := ParsePolicy(strings.Join(args, ","))
	if err != nil {
		return "", err
	}
	gw.g.Policy = p
	gw.announce(nil, "policy", "policy", p.View())
	return "policy now " + p.String() + " (from the next decision)", nil
}

func orgHook(gw *gameWork, args []string) (string, error) { return gw.hookCommand("HOOK", args) }

func orgUnhook(gw *gameWork, args []string) (string, error) { return gw.hookCommand("UNHOOK", args) }

func orgInvite(gw *gameWork, args []string) (string, error) {
	inv, err := parseInvitee(args)
	if err != nil {
		return "", err
	}
	if gw.g.Status != StatusForming {
		return "", fmt.Errorf("the game has started; use REPLACE")
	}
	if err := gw.invite(inv); err != nil {
		return "", err
	}
	return "invited " + inv.Address, nil
}
