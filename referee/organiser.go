package referee

import (
	"cmp"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/referee/enginelog"
	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/referee/organise"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// orgRequest handles an organiser's mail: the tag "org.<secret>" must match
// a configured organiser, and the sender must be that organiser's address
// (records.AuthOrganiser).
func (w orgWork) orgRequest(req *Request, out *Outcome) error {
	org, ok := records.AuthOrganiser(w.tx, w.r.opt.Organisers, req.Secret, req.From, req.SenderVerified)
	if !ok {
		out.Status, out.Detail = OutcomeIgnored, "organiser authentication failed"
		w.allowAnon(req)
		return nil
	}
	out.Status = OutcomeApplied
	results, lang, err := organise.Script(orgHostOf(w.work), org, req.Text)
	if err != nil {
		return err
	}
	if err := w.recordOrgLang(org, lang); err != nil {
		return err
	}
	return w.orgMailIn(org, lang, results, req.MessageID)
}

// recordOrgLang records lang, the language of the organiser's mail, in
// the same transaction as the mail: on the organiser's own record (the
// notes about a game they never wrote about come in it), and on every
// game of that organiser the mail created or named (the games this unit
// of work holds): the notes the core later sends the organiser on its
// own (org.org_*) are in it (issue 22).
func (w orgWork) recordOrgLang(org, lang string) error {
	if !templates.IsLanguage(lang) {
		return nil
	}
	for _, gw := range w.games {
		if strings.EqualFold(gw.g.Organiser, org) {
			gw.g.OrgLang = lang
		}
	}
	return records.SaveOrganiser(w.tx, org, records.Organiser{Lang: lang, At: w.now})
}

// orgLang is the language of the notes to the game's organiser: the one
// recorded with the game (Game.OrgLang: their last command mail naming
// it), else that of the game's tournament (lang= at NEW TOURNAMENT: a
// round drawn by the clock), else that of the organiser's last mail of
// any kind (their record), else English.
func (gw *gameWork) orgLang() string {
	if templates.IsLanguage(gw.g.OrgLang) {
		return gw.g.OrgLang
	}
	if tid := gw.w.tx.GameTournament(gw.g.ID); tid != "" {
		if lang := bymail.OrgLang(gw.w.desk().Records(), tid); lang != "" {
			return lang
		}
	}
	if rec, ok := records.LoadOrganiser(gw.w.tx, gw.g.Organiser); ok && templates.IsLanguage(rec.Lang) {
		return rec.Lang
	}
	return "en"
}

// parseInvitee reads "<address> <name> [lang] [time zone]" (the desk's
// ENTER and REPLACE).
func parseInvitee(f []string) (Invitee, error) {
	return organise.ParseInvitee(organise.Templates{}, f)
}

// replace gives a seat to a new player, who gets a hand-over brief. The
// seat keeps its name in the game (the engine knows it by that name); the
// newcomer is greeted by their own.
// It returns the address now playing the seat.
func (gw *gameWork) replace(seat int, inv Invitee) (string, error) {
	g := gw.g
	s := &g.Seats[seat]
	old := *s
	// The outgoing player is told in their own language, before the seat
	// changes hands.
	gw.extra = append(gw.extra, &Outgoing{Game: g.ID, Seat: -1, Kind: "replaced", To: old.Address, ToName: old.Greeting(),
		Subject:   gw.text(seat, "subject.replaced", map[string]any{"game": g.ID}),
		MessageID: gw.w.messageID(g, -1, gw.token()), Body: gw.text(seat, "mail.replaced", map[string]any{"game": g.ID}), Lang: old.Lang})
	if err := gw.w.tx.DeleteToken(s.Secret); err != nil {
		return "", err
	}
	p, err := seating.EnsurePlayer(seatingHost{gw.w}, strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return "", err
	}
	secret, err := gw.w.newToken(storeSeatToken(g.ID, p.Address), "")
	if err != nil {
		return "", err
	}
	state := SeatPlaying
	if g.Status == StatusForming {
		state = SeatInvited
	}
	*s = Seat{Name: old.Name, Player: cmp.Or(inv.Name, p.Name), Before: records.HandOver(old, gw.token()), Address: p.Address,
		Lang: cmp.Or(inv.Lang, p.Lang), TZ: cmp.Or(inv.TZ, p.TZ), Secret: secret, State: state, Notify: DefaultNotify,
		Format: "text", Seen: old.Seen}
	gw.announce(nil, "replaced", "seat", seat, "name", old.Greeting())
	gw.announce([]int{seat}, "handover", "old", old.Greeting(), "player_token", p.Secret)
	gw.seat(seat).force = true
	gw.seat(seat).acted = true
	return p.Address, nil
}

// rollback restores the game to the state after move `to` (in the past
// of a started game: organise checks), by replaying the logged steps from
// the seed. Queued orders are dropped.
func (gw *gameWork) rollback(to int) error {
	lg, err := gw.engineLog()
	if err != nil {
		return err
	}
	enginelog.Rollback(lg, to)
	st, err := engine.Replay(gw.eg, *lg)
	if err != nil {
		return err
	}
	gw.tb = engine.WrapTable(gw.eg, st)
	gw.tb.HashSteps = true
	if _, err := gw.log(Entry{Kind: EntryRollback, Seat: -1, Vis: engine.Public, Params: map[string]any{"to": to}}); err != nil {
		return err
	}
	if gw.g.Status == StatusOver {
		gw.g.Status, gw.g.Ended = StatusRunning, time.Time{}
	}
	for i := range gw.g.Seats {
		gw.g.Seats[i].Deadline, gw.g.Seats[i].Before = nil, records.RolledBack(gw.g.Seats[i].Before, to)
		gw.seat(i).force = true
	}
	gw.announce(nil, "rollback", "to", to)
	return nil
}

// erratum switches the game (started: organise checks) to a corrected
// data file from now on: its version and SHA-256.
func (gw *gameWork) erratum(data []byte) (version, sha string, err error) {
	st, err := engine.ApplyErratum(gw.eg, gw.tb.State, data)
	if err != nil {
		return "", "", err
	}
	queues := gw.tb.Queues
	gw.tb = engine.WrapTable(gw.eg, st)
	gw.tb.Queues = queues
	gw.tb.HashSteps = true
	sha = engine.RulesetSHA(data)
	if err := gw.w.tx.PutRuleset(sha, data); err != nil {
		return "", "", err
	}
	gw.g.RulesetSHA = sha
	if _, err := gw.log(Entry{Kind: EntryErratum, Seat: -1, Vis: engine.Public, Ruleset: sha,
		Params: map[string]any{"version": st.Head().RulesetVersion}}); err != nil {
		return "", "", err
	}
	gw.announce(nil, "erratum", "version", st.Head().RulesetVersion, "sha", sha)
	return st.Head().RulesetVersion, sha, nil
}

// orgMail answers an organiser, in English (orgMailIn: in a language).
func (w orgWork) orgMail(org string, results []string, inReplyTo string) error {
	return w.orgMailIn(org, "en", results, inReplyTo)
}

// orgMailIn answers an organiser in lang: the frame (organise's
// Templates.Mail) around the result lines, already in lang
// (organise.Script).
func (w orgWork) orgMailIn(org, lang string, results []string, inReplyTo string) error {
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	subject, body, err := organise.Templates{R: w.r.render.Renderer}.Mail(lang, results)
	if err != nil {
		return err
	}
	m := &Outgoing{Seat: -1, Kind: "org", To: org, Subject: subject, MessageID: w.messageID(nil, -1, 0), Body: body,
		Lang: lang, InReplyTo: inReplyTo, Tag: w.orgTag(org)}
	if inReplyTo != "" {
		m.AutoSubmitted, m.References = "auto-replied", []string{inReplyTo}
	}
	return w.enqueue(m)
}

// orgTag returns the tag of an organiser's address (none if it has none:
// records.OrganiserSecret).
func (w *work) orgTag(org string) mailmsg.Tag {
	if s := records.OrganiserSecret(w.tx, w.r.opt.Organisers, org); s != "" {
		return mailmsg.Tag{Kind: mailmsg.TagOrg, Secret: s, Seat: mailmsg.NoSeat, Token: mailmsg.NoToken}
	}
	return mailmsg.Tag{}
}

// AddOrganiser registers an organiser address and returns its secret: the
// organiser writes to <local>+org.<secret>@<domain>. Calling it again for
// the same address returns the existing secret.
func (r organisers) AddOrganiser(addr string) (string, error) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if !strings.Contains(addr, "@") {
		return "", errorf("%q is not an address", addr)
	}
	var secret string
	_, err := r.update(func(w *work) error {
		if tag := w.orgTag(addr); tag.Secret != "" {
			secret = tag.Secret
			return nil
		}
		var err error
		secret, err = w.newToken(store.Token{Kind: string(KindOrg), Address: addr}, "")
		return err
	})
	return secret, err
}

// DeliveryFailed records that mail to an address failed permanently (the
// SMTP server refused it, or retries gave up): the player is marked failing
// and the organisers of the player's games are told.
func (r organisers) DeliveryFailed(to, reason string) error {
	_, err := r.update(func(w *work) error {
		p, err := loadPlayer(w.tx, to)
		if err != nil {
			return nil // not a player (an organiser or a stranger)
		}
		if p.Failing {
			return nil // already known: tell organisers once
		}
		p.Failing = true
		if err := savePlayer(w.tx, p); err != nil {
			return err
		}
		return w.alertBounce(p.Address, reason)
	})
	return err
}

// Organise runs organiser commands from the command line (the same language
// as organiser mails) and returns the result lines. The organiser is
// trusted: the caller has access to the store.
func (r organisers) Organise(org, text string) ([]string, error) {
	var results []string
	_, err := r.update(func(w *work) error {
		var err error
		results, _, err = organise.Script(orgHostOf(w), strings.ToLower(org), text)
		return err
	})
	return results, err
}

// orgHelp renders the organiser's help (name "org.help") or the answer to
// an organiser who wrote to the plain address ("org.hello"), in lang
// (cmdtable.OrgHelp), with their own address.
func (w *work) orgHelp(lang, org, name string) (string, error) {
	var games []string
	for _, g := range engine.Games() {
		games = append(games, g.Info().Name)
	}
	addr := ""
	if tag := w.orgTag(org); tag.Secret != "" {
		addr = w.r.plus(tag.String())
	}
	return cmdtable.OrgHelp(w.r.render.Renderer, lang, name, addr, games)
}

// orgHello answers a configured organiser who wrote to the referee without
// their tag: their organiser address and the organiser help, at most once
// an hour (guard.OrgHelloEvery). It reports whether req came from an organiser.
func (w orgWork) orgHello(req *Request, out *Outcome) (bool, error) {
	from := strings.ToLower(req.From)
	if w.orgTag(from).Secret == "" {
		return false, nil
	}
	if !req.SenderVerified {
		out.Status, out.Detail = OutcomeIgnored, "untagged mail from an organiser's address failed authentication"
		return true, nil
	}
	if !w.r.orgHello.Allow(from, w.now, guard.OrgHelloEvery) {
		out.Status, out.Detail = OutcomeIgnored, "untagged organiser mail; answered recently"
		return true, nil
	}
	text, err := w.orgHelp("en", from, "org.hello")
	if err != nil {
		return true, err
	}
	out.Status, out.Detail = OutcomeAnswered, "untagged organiser mail; sent the organiser address"
	return true, w.orgMail(from, []string{text}, req.MessageID)
}

// OrganiserAddresses returns each organiser's address (organiser -> the
// referee's plus address with their secret), for the daemon to log at start.
func (r organisers) OrganiserAddresses() (map[string]string, error) {
	var out map[string]string
	err := r.db.View(func(tx *store.Tx) error {
		var err error
		out, err = records.OrganiserSecrets(tx, r.opt.Organisers)
		return err
	})
	for a, s := range out {
		out[a] = r.plus("org." + s)
	}
	return out, err
}
