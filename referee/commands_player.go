package referee

import (
	"strings"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/commands"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/templates"
)

// The player's commands are the seat's door's too, package
// referee/commands (the player family: one handler a keyword); the core is
// their host, playerHost: the player, in one unit of work. The plain
// address's REGISTER is the core's (anyoneRegister): it writes the
// player's record and sends the confirmation.

// playerCall is one line of a player's mail to their own address (the
// keyword kw, the words f), with the answer's lines so far; acted says
// that another mail answers, unread that the line is none of the
// player's commands (commands.Unread quotes it, then the help).
type playerCall struct {
	w             playerWork
	p             *Player
	kw            string
	f             []string
	lines         []string
	acted, unread bool
}

// run runs the line through the table.
func (c *playerCall) run() error {
	h := playerHost{c.w, c.p}
	for _, cmd := range cmdtable.Lookup(cmdtable.Player, c.kw) {
		pc := &commands.PlayerCall{Host: h, Row: cmd.Door, Keyword: c.kw, Words: c.f, Lines: c.lines}
		ok, err := pc.Run()
		c.lines, c.acted = pc.Lines, pc.Acted
		if err != nil || ok {
			return err
		}
	}
	c.unread = true
	return nil
}

// playerHost is the core as a player's command sees it (commands.Player).
type playerHost struct {
	w playerWork
	p *Player
}

func (h playerHost) Lang() string { return h.p.Lang }

func (h playerHost) Text(name string, data map[string]any) string {
	return h.w.playerText(h.p, name, data)
}

func (h playerHost) Tournament(kw string, f []string) (string, bool, error) {
	return bymail.PlayerCommand(h.w.desk(), deskPlayer(h.p), kw, f)
}

func (h playerHost) ListOpen() (string, error)          { return h.w.listOpen(h.p.Lang) }
func (h playerHost) JoinOpen(id string) (string, error) { return h.w.joinOpen(h.p, id) }
func (h playerHost) HasGame(id string) bool             { return h.w.tx.HasGame(id) }

func (h playerHost) Observe(id string) error {
	return h.w.observe(id, h.p.Address, h.p.Lang, nil, -1)
}

func (h playerHost) SetLang(lang string) error {
	h.p.Lang = lang
	return savePlayer(h.w.tx, h.p)
}

// untagged are the core's handlers of the commands of an untagged mail
// (the table's rows with Untagged set: cmdtable.Anyone), by keyword.
var untagged = map[string]func(w *work, req *Request, out *Outcome, f []string) error{
	"REGISTER": anyoneRegister,
}

// anyoneRegister creates a player from an untagged "REGISTER [name]
// [lang]": the token goes back to the sender's address, so spoofing gains
// nothing.
func anyoneRegister(w *work, req *Request, out *Outcome, f []string) error {
	name, lang := req.FromName, "en"
	if len(f) > 1 {
		name = f[1]
	}
	name = mailmsg.CleanName(name) // issue 23: any text, safe in a header
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
		if p, err = seating.EnsurePlayer(seatingHost{w}, req.From, name, lang, ""); err != nil {
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
