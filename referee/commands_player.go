package referee

import (
	"strings"
	"time"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// playerFamily are the commands of a registered player at their own
// address, outside any game's thread (the table's "player" family, see
// commands.go). Their help is help.player, which names each of them.
// The tournaments' rows (the desk's, bymail.PlayerCommands) come first: a
// JOIN naming a tournament is the tournament's, any other JOIN a game's.
var playerFamily = append(deskRows(bymail.PlayerCommands, func(c *command) {
	c.Who, c.Help, c.player = byPlayer, "help.player", playerTour
}), []command{
	{Keyword: "LIST", Who: byPlayer, Usage: "LIST", Help: "help.player", player: playerList},
	{Keyword: "JOIN", Who: byPlayer, Usage: "JOIN <game>", Help: "help.player", player: playerJoin,
		Errors: []string{"usage", "no_game", "not_open", "full", "already_in"}},
	{Keyword: "OBSERVE", Who: byPlayer, Usage: "OBSERVE <game>", Help: "help.player", player: playerObserve,
		Errors: []string{"usage", "no_game"}},
	{Keyword: "LANG", Who: byPlayer, Usage: "LANG en|it|fr|nl", Help: "help.player", player: playerLang},
	{Keyword: "HELP", Who: byPlayer, Usage: "HELP", Help: "help.player", player: playerHelp},
	// The plain address: anyone may register.
	{Keyword: "REGISTER", Who: byAnyone, Usage: "REGISTER [name] [en|it|fr|nl]", Help: "help.REGISTER", anyone: anyoneRegister},
}...)

// playerCall is one command of a player's mail to their own address: the
// handler adds the lines of the answer, or says that another mail answers
// (acted).
type playerCall struct {
	w     playerWork
	p     *Player
	kw    string
	cmd   *command
	f     []string // the words of the line, the keyword first
	lines []string
	acted bool
}

// text adds a template of the referee's to the answer.
func (c *playerCall) text(name string, data map[string]any) {
	c.lines = append(c.lines, c.w.playerText(c.p, name, data))
}

// usage adds the command's syntax.
func (c *playerCall) usage() {
	c.text("error.usage", map[string]any{"Params": map[string]any{"usage": c.cmd.Usage}})
}

// run runs one line through the table; a line that is none of the
// player's commands is answered with the help.
func (c *playerCall) run() error {
	for _, cmd := range lookupCommands(byPlayer, c.kw) {
		c.cmd = cmd
		if ok, err := cmd.player(c); err != nil || ok {
			return err
		}
	}
	c.text("help.player", nil)
	return nil
}

func playerTour(c *playerCall) (bool, error) {
	t, ok, err := bymail.PlayerCommand(c.w.desk(), deskPlayer(c.p), c.kw, c.f)
	if err != nil || !ok {
		return ok, err
	}
	if t == "" {
		c.acted = true // the tournament's own mail answers
	} else {
		c.lines = append(c.lines, t)
	}
	return true, nil
}

func playerList(c *playerCall) (bool, error) {
	t, err := c.w.listOpen(c.p.Lang)
	if err != nil {
		return true, err
	}
	c.lines = append(c.lines, t)
	return true, nil
}

func playerJoin(c *playerCall) (bool, error) {
	if len(c.f) < 2 {
		c.usage()
		return true, nil
	}
	t, err := c.w.joinOpen(c.p, strings.ToLower(c.f[1]))
	if err != nil {
		return true, err
	}
	if t != "" {
		c.lines = append(c.lines, t)
	} else {
		c.acted = true // the game's own mail confirms
	}
	return true, nil
}

func playerObserve(c *playerCall) (bool, error) {
	if len(c.f) < 2 {
		c.usage()
		return true, nil
	}
	w := c.w
	if !w.tx.HasGame(strings.ToLower(c.f[1])) {
		c.text("error.no_game", map[string]any{"game": c.f[1]})
		return true, nil
	}
	if err := w.observe(strings.ToLower(c.f[1]), c.p.Address, c.p.Lang, nil, -1); err != nil {
		return true, err
	}
	c.acted = true
	return true, nil
}

func playerLang(c *playerCall) (bool, error) {
	if len(c.f) == 2 && templates.IsLanguage(strings.ToLower(c.f[1])) {
		c.p.Lang = strings.ToLower(c.f[1])
		if err := savePlayer(c.w.tx, c.p); err != nil {
			return true, err
		}
	}
	c.text("info.lang", nil)
	return true, nil
}

func playerHelp(c *playerCall) (bool, error) {
	c.text("help.player", nil)
	return true, nil
}

// anyoneRegister creates a player from an untagged "REGISTER [name]
// [lang]": the token goes back to the sender's address, so spoofing gains
// nothing.
func anyoneRegister(w *work, req *Request, out *Outcome, f []string) error {
	name, lang := req.FromName, "en"
	if len(f) > 1 {
		name = f[1]
	}
	name = mailfmt.CleanName(name) // issue 23: any text, safe in a header
	if len(f) > 2 && templates.IsLanguage(strings.ToLower(f[2])) {
		lang = strings.ToLower(f[2])
	}
	// The From of an untagged mail is unchecked: the player exists only
	// once a mail with the token, sent to that address, comes back from it
	// (issue 11, item 9). Issue 23, no backscatter: the address is
	// written to only when the sender is authenticated (when the referee
	// requires it), at most once a day, within a global hourly budget;
	// otherwise nothing is sent.
	if w.r.opt.RegisterNeedsAuth && !req.Authenticated {
		out.Status, out.Detail = OutcomeIgnored, "register: sender not authenticated, not answered"
		return nil
	}
	p, err := loadPlayer(w.tx, req.From)
	if err == nil && w.now.Sub(p.Helped) < 24*time.Hour {
		out.Status, out.Detail = OutcomeIgnored, "registration pending; asked recently"
		if !p.Pending {
			out.Detail = "already registered; told recently"
		}
		return nil
	}
	if !w.r.confirms.allow("register", w.now) {
		out.Status, out.Detail = OutcomeIgnored, "register: hourly budget of answers spent, not answered"
		return nil
	}
	switch {
	case err == nil && !p.Pending:
		out.Status, out.Detail = OutcomeAnswered, "already registered"
		p.Helped = w.now
		if err := savePlayer(w.tx, p); err != nil {
			return err
		}
		return w.playerMail(p, "registered", nil, req.MessageID)
	case err == nil:
		p.Name, p.Lang = name, lang
	default:
		if p, err = w.ensurePlayer(req.From, name, lang, ""); err != nil {
			return err
		}
		p.Pending = true
	}
	p.Helped = w.now
	if err := savePlayer(w.tx, p); err != nil {
		return err
	}
	out.Status, out.Detail = OutcomeApplied, "registration pending confirmation"
	return w.playerMail(p, "confirm", nil, req.MessageID)
}
