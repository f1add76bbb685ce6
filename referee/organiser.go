package referee

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// orgRequest handles an organiser's mail: the tag "org.<secret>" must match
// a configured organiser, and the sender must be that organiser's address.
func (w *work) orgRequest(req *Request, out *Outcome) error {
	org := ""
	for addr, secret := range w.r.opt.Organisers {
		if secret != "" && secret == req.Secret {
			org = addr
		}
	}
	if org == "" {
		if tok, err := w.tx.Token(req.Secret); err == nil && tok.Kind == "org" {
			org = tok.Address
		}
	}
	if org == "" || !strings.EqualFold(org, req.From) || !req.SenderVerified {
		out.Status, out.Detail = "ignored", "organiser authentication failed"
		w.allowAnon(req)
		return nil
	}
	out.Status = "applied"
	results := w.orgScript(org, req.Text)
	return w.orgMail(org, results, req.MessageID)
}

// orgScript runs an organiser's commands and returns one result line each.
func (w *work) orgScript(org, text string) []string {
	var results []string
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var ng *NewGame
	finish := func() {
		if ng == nil {
			return
		}
		gw, err := w.createGame(*ng)
		if err != nil {
			results = append(results, "NEW "+ng.Game+": "+err.Error())
		} else {
			results = append(results, fmt.Sprintf("NEW: created game %s (%s, %d seats); the invitations are sent.\n"+
				"  Seed commitment (SHA-256 of the seed, revealed at the end):\n  %s", gw.g.ID, gw.g.Game, gw.g.Players, gw.g.Commitment))
		}
		ng = nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		kw := strings.ToUpper(f[0])
		if kw != "PLAYER" && kw != "RULESET" {
			finish()
		}
		var res string
		var err error
		if tk := w.orgTourKeyword(f[0]); tk != "" {
			f[0], kw = tk, tk
		}
		if tres, ok, terr := w.tourOrg(org, f); ok {
			if res = tres; terr != nil {
				res = kw + ": " + terr.Error()
			}
			results = append(results, res)
			continue
		}
		switch kw {
		case "NEW":
			ng, err = parseNew(org, f[1:])
			if err != nil {
				res = "NEW: " + err.Error()
			}
		case "PLAYER":
			if ng == nil {
				res = "PLAYER: only after NEW"
			} else if inv, perr := parseInvitee(f[1:]); perr != nil {
				res = "PLAYER: " + perr.Error()
			} else {
				ng.Invite = append(ng.Invite, inv)
			}
		case "RULESET":
			// The rest of the message is the data file of the game being
			// created by the NEW above.
			if ng == nil {
				res = "RULESET: only after NEW"
				break
			}
			ng.Ruleset = []byte(strings.Join(lines[i+1:], "\n"))
			i = len(lines)
		case "ERRATUM":
			// The rest of the message is the corrected data file.
			rest := strings.Join(lines[i+1:], "\n")
			i = len(lines)
			res, err = w.orgOnGame(org, f, func(gw *gameWork) (string, error) { return gw.erratum([]byte(rest)) })
		case "LIST":
			res, err = w.orgList(org)
		case "HELP":
			res, err = w.orgHelp(org, "org.help")
		default:
			res, err = w.orgOnGame(org, f, nil)
		}
		if err != nil {
			res = kw + ": " + err.Error()
		}
		if res != "" {
			results = append(results, res)
		}
	}
	finish()
	return results
}

// parseNew reads "NEW <game> [key=value]...": id, variant, players, open,
// seed, deadline (a policy, commas for spaces); other keys are game options.
func parseNew(org string, args []string) (*NewGame, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("usage: NEW <game> [id=] [variant=] [players=] [open] [deadline=48h,place=24h] [option=value]...")
	}
	ng := &NewGame{Game: strings.ToLower(args[0]), Organiser: org, Options: map[string]string{}}
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		switch strings.ToLower(k) {
		case "id":
			ng.ID = strings.ToLower(v)
		case "variant":
			ng.Variant = v
		case "players":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("players=%s: want a number", v)
			}
			ng.Players = n
		case "open":
			ng.Open = v == "" || strings.EqualFold(v, "yes") || v == "true"
		case "seed":
			ng.Seed = v
		case "deadline", "policy":
			p, err := ParsePolicy(v)
			if err != nil {
				return nil, err
			}
			ng.Policy = &p
		default:
			ng.Options[k] = v
		}
	}
	if len(ng.Options) == 0 {
		ng.Options = nil
	}
	return ng, nil
}

// parseInvitee reads "<address> <name> [lang] [time zone]".
func parseInvitee(f []string) (Invitee, error) {
	if len(f) < 2 || !strings.Contains(f[0], "@") {
		return Invitee{}, fmt.Errorf("usage: PLAYER <address> <name> [en|it|fr|nl] [Area/City]")
	}
	// No language given: the player's own (English for a new player).
	inv := Invitee{Address: strings.Trim(f[0], "<>"), Name: f[1]}
	for _, x := range f[2:] {
		if templates.IsLanguage(strings.ToLower(x)) {
			inv.Lang = strings.ToLower(x)
		} else if _, err := time.LoadLocation(x); err == nil {
			inv.TZ = x
		} else {
			return Invitee{}, fmt.Errorf("%q is neither a language nor a time zone", x)
		}
	}
	return inv, nil
}

// orgOnGame runs a command that names a game: "<CMD> <game> ...".
func (w *work) orgOnGame(org string, f []string, do func(*gameWork) (string, error)) (string, error) {
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
	if do != nil {
		return w.orgLogged(gw, kw, f[2:], do)
	}
	args := f[2:]
	return w.orgLogged(gw, kw, args, func(gw *gameWork) (string, error) { return gw.orgCommand(kw, args) })
}

// orgLogged runs an organiser action and logs it (every organiser action is
// logged and announced).
func (w *work) orgLogged(gw *gameWork, kw string, args []string, do func(*gameWork) (string, error)) (string, error) {
	res, err := do(gw)
	if err != nil {
		return "", err
	}
	if kw != "STATUS" {
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

// orgCommand runs PAUSE, RESUME, EXTEND, REPLACE, KICK, ROLLBACK, ABORT,
// POLICY, INVITE and STATUS on a game.
func (gw *gameWork) orgCommand(kw string, args []string) (string, error) {
	g := gw.g
	seatArg := func(i int) (int, error) {
		if len(args) <= i {
			return -1, fmt.Errorf("name a seat (name or number)")
		}
		for k, s := range g.Seats {
			if strings.EqualFold(s.Name, args[i]) || strings.EqualFold(s.Address, args[i]) || fmt.Sprint(k+1) == args[i] {
				return k, nil
			}
		}
		return -1, fmt.Errorf("no seat %q", args[i])
	}
	switch kw {
	case "PUBLISH":
		return gw.publish(args)
	case "STATUS":
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
	case "PAUSE":
		if g.Status != StatusRunning {
			return "", fmt.Errorf("the game is %s", g.Status)
		}
		g.Status, g.PausedAt = StatusPaused, gw.w.now
		gw.announce(nil, "paused")
		return "paused", nil
	case "RESUME":
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
	case "EXTEND":
		seat, err := seatArg(0)
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
		dl.Reminders, dl.Sent = g.Policy.reminders(gw.w.now, dl.Due), 0
		gw.announce(nil, "extended", "seat", seat, "name", g.Seats[seat].Name, "hours", h,
			"due", dl.Due.Format(time.RFC3339))
		return fmt.Sprintf("%s's deadline is now %s", g.Seats[seat].Name, dl.Due.Format(time.RFC3339)), nil
	case "REPLACE":
		seat, err := seatArg(0)
		if err != nil {
			return "", err
		}
		inv, err := parseInvitee(args[1:])
		if err != nil {
			return "", err
		}
		return gw.replace(seat, inv)
	case "KICK":
		seat, err := seatArg(0)
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
	case "ROLLBACK":
		if len(args) != 1 {
			return "", fmt.Errorf("usage: ROLLBACK <game> <token>")
		}
		to, err := strconv.Atoi(args[0])
		if err != nil || to < 0 {
			return "", fmt.Errorf("token %q: want a move number", args[0])
		}
		return gw.rollback(to)
	case "ABORT":
		if g.Status == StatusOver || g.Status == StatusAborted {
			return "", fmt.Errorf("the game is already %s", g.Status)
		}
		g.Status, g.Ended = StatusAborted, gw.w.now
		for i := range g.Seats {
			g.Seats[i].Deadline = nil
		}
		gw.announce(nil, "aborted", "seed", g.Seed)
		return "aborted; the seed was revealed to the players", nil
	case "POLICY":
		p, err := ParsePolicy(strings.Join(args, ","))
		if err != nil {
			return "", err
		}
		g.Policy = p
		gw.announce(nil, "policy", "policy", p.View())
		return "policy now " + p.String() + " (from the next decision)", nil
	case "HOOK", "UNHOOK":
		return gw.hookCommand(kw, args)
	case "INVITE":
		inv, err := parseInvitee(args)
		if err != nil {
			return "", err
		}
		if g.Status != StatusForming {
			return "", fmt.Errorf("the game has started; use REPLACE")
		}
		if err := gw.invite(inv); err != nil {
			return "", err
		}
		return "invited " + inv.Address, nil
	}
	return "", fmt.Errorf("unknown organiser command %s; the commands (HELP explains):\n"+
		"  NEW PLAYER RULESET INVITE LIST STATUS PAUSE RESUME EXTEND REPLACE KICK\n"+
		"  ROLLBACK POLICY ERRATUM HOOK UNHOOK ABORT HELP; for tournaments:\n"+
		"  NEW TOURNAMENT ENTER START STANDINGS WITHDRAW LATE EXTEND REPLACE\n"+
		"  PUBLISH FORFEIT ADJUDICATE", kw)
}

// replace gives a seat to a new player, who gets a hand-over brief. The
// seat keeps its name in the game (the engine knows it by that name); the
// newcomer is greeted by their own.
func (gw *gameWork) replace(seat int, inv Invitee) (string, error) {
	g := gw.g
	s := &g.Seats[seat]
	old := *s
	// The outgoing player is told in their own language, before the seat
	// changes hands.
	gw.extra = append(gw.extra, &Outgoing{Game: g.ID, Seat: -1, Kind: "replaced", To: old.Address, ToName: old.greeting(),
		Subject:   gw.text(seat, "subject.replaced", map[string]any{"game": g.ID}),
		MessageID: gw.w.messageID(g, -1, gw.token()), Body: gw.text(seat, "mail.replaced", map[string]any{"game": g.ID}), Lang: old.Lang})
	if err := gw.w.tx.DeleteToken(s.Secret); err != nil {
		return "", err
	}
	p, err := gw.w.ensurePlayer(strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return "", err
	}
	secret, err := gw.w.newToken(storeSeatToken(g.ID, p.Address))
	if err != nil {
		return "", err
	}
	state := SeatPlaying
	if g.Status == StatusForming {
		state = SeatInvited
	}
	*s = Seat{Name: old.Name, Player: firstNonEmpty(inv.Name, p.Name), Address: p.Address, Lang: firstNonEmpty(inv.Lang, p.Lang),
		TZ: firstNonEmpty(inv.TZ, p.TZ), Secret: secret, State: state, Notify: DefaultNotify, Format: "text", Seen: old.Seen}
	gw.announce(nil, "replaced", "seat", seat, "name", s.Name)
	gw.announce([]int{seat}, "handover", "old", old.Name, "player_token", p.Secret)
	gw.force[seat] = true
	gw.acted[seat] = true
	return fmt.Sprintf("seat %d (%s) now played by %s", seat+1, s.Name, p.Address), nil
}

// rollback restores the game to the state after move `to`, by replaying the
// logged steps from the seed. Queued orders are dropped.
func (gw *gameWork) rollback(to int) (string, error) {
	if gw.tb == nil {
		return "", fmt.Errorf("the game has not started")
	}
	if to >= gw.tb.Token() {
		return "", fmt.Errorf("move %d is not in the past (now %d)", to, gw.tb.Token())
	}
	lg, err := gw.engineLog()
	if err != nil {
		return "", err
	}
	var keep []engine.Step
	for _, s := range lg.Steps {
		if s.Token <= to {
			keep = append(keep, s)
		}
	}
	lg.Steps, lg.Final = keep, ""
	var errata []engine.Erratum
	for _, e := range lg.Errata {
		if e.Before <= len(keep) {
			errata = append(errata, e)
		}
	}
	lg.Errata = errata
	st, err := engine.Replay(gw.eg, *lg)
	if err != nil {
		return "", err
	}
	gw.tb = engine.WrapTable(gw.eg, st)
	gw.tb.HashSteps = true
	if _, err := gw.log(Entry{Kind: EntryRollback, Seat: -1, Vis: engine.Public, Params: map[string]any{"to": to}}); err != nil {
		return "", err
	}
	if gw.g.Status == StatusOver {
		gw.g.Status, gw.g.Ended = StatusRunning, time.Time{}
	}
	for i := range gw.g.Seats {
		gw.g.Seats[i].Deadline = nil
		gw.force[i] = true
	}
	gw.announce(nil, "rollback", "to", to)
	return fmt.Sprintf("rolled back to move %d; queued orders dropped", to), nil
}

// erratum switches the game to a corrected data file from now on.
func (gw *gameWork) erratum(data []byte) (string, error) {
	if gw.tb == nil {
		return "", fmt.Errorf("the game has not started (create it again with the data)")
	}
	st, err := engine.ApplyErratum(gw.eg, gw.tb.State, data)
	if err != nil {
		return "", err
	}
	queues := gw.tb.Queues
	gw.tb = engine.WrapTable(gw.eg, st)
	gw.tb.Queues = queues
	gw.tb.HashSteps = true
	sha := engine.RulesetSHA(data)
	if err := gw.w.tx.PutRuleset(sha, data); err != nil {
		return "", err
	}
	gw.g.RulesetSHA = sha
	if _, err := gw.log(Entry{Kind: EntryErratum, Seat: -1, Vis: engine.Public, Ruleset: sha,
		Params: map[string]any{"version": st.Head().RulesetVersion}}); err != nil {
		return "", err
	}
	gw.announce(nil, "erratum", "version", st.Head().RulesetVersion, "sha", sha)
	return "now running on data version " + st.Head().RulesetVersion + " (" + sha[:12] + ")", nil
}

// orgList lists the organiser's games.
func (w *work) orgList(org string) (string, error) {
	var b strings.Builder
	line := func(g *Game) {
		if g.Organiser == org {
			fmt.Fprintf(&b, "\n  %-10s %-14s %-8s %d/%d seats", g.ID, g.Game, g.Status, len(g.Seats), g.Players)
		}
	}
	seen := map[string]bool{}
	err := w.tx.Games(func(id string, _ []byte) error {
		seen[id] = true
		if gw := w.games[id]; gw != nil {
			line(gw.g) // as this mail left it
			return nil
		}
		g, err := loadGame(w.tx, id)
		if err != nil {
			return err
		}
		line(g)
		return nil
	})
	// Games a NEW of this same mail created are not stored yet.
	var fresh []string
	for id := range w.games {
		if !seen[id] {
			fresh = append(fresh, id)
		}
	}
	sort.Strings(fresh)
	for _, id := range fresh {
		line(w.games[id].g)
	}
	if b.Len() == 0 {
		b.WriteString(" no games yet (NEW creates one; HELP shows how)")
	}
	return "LIST:" + b.String(), err
}

// orgMail answers an organiser.
func (w *work) orgMail(org string, results []string, inReplyTo string) error {
	rd := Reader{Game: "referee", Lang: "en", Seat: -1}
	data := map[string]any{"results": results}
	body, err := w.r.render.T.Render("referee", "en", "mail.org", w.r.render.ctx(rd, data))
	if err != nil {
		return err
	}
	subject, err := w.r.render.T.Render("referee", "en", "subject.org", w.r.render.ctx(rd, map[string]any{"game": "", "title": ""}))
	if err != nil {
		return err
	}
	m := &Outgoing{Seat: -1, Kind: "org", To: org, Subject: subject, MessageID: w.messageID(nil, -1, 0), Body: body,
		Lang: "en", InReplyTo: inReplyTo, Tag: w.orgTag(org)}
	if inReplyTo != "" {
		m.AutoSubmitted, m.References = "auto-replied", []string{inReplyTo}
	}
	return w.enqueue(m)
}

// orgTag returns the tag of an organiser's address ("" if it has none).
func (w *work) orgTag(org string) string {
	if s := w.r.opt.Organisers[org]; s != "" {
		return "org." + s
	}
	tag := ""
	w.tx.Tokens(func(secret string, t store.Token) error {
		if t.Kind == "org" && t.Address == org {
			tag = "org." + secret
		}
		return nil
	})
	return tag
}

// AddOrganiser registers an organiser address and returns its secret: the
// organiser writes to <local>+org.<secret>@<domain>. Calling it again for
// the same address returns the existing secret.
func (r *Referee) AddOrganiser(addr string) (string, error) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if !strings.Contains(addr, "@") {
		return "", errorf("%q is not an address", addr)
	}
	var secret string
	_, err := r.update(func(w *work) error {
		if tag := w.orgTag(addr); tag != "" {
			secret = strings.TrimPrefix(tag, "org.")
			return nil
		}
		var err error
		secret, err = w.newToken(store.Token{Kind: "org", Address: addr})
		return err
	})
	return secret, err
}

// DeliveryFailed records that mail to an address failed permanently (the
// SMTP server refused it, or retries gave up): the player is marked failing
// and the organisers of the player's games are told.
func (r *Referee) DeliveryFailed(to, reason string) error {
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
func (r *Referee) Organise(org, text string) ([]string, error) {
	var results []string
	_, err := r.update(func(w *work) error {
		results = w.orgScript(strings.ToLower(org), text)
		return nil
	})
	return results, err
}

// orgTourKeywords are the organiser's tournament commands that have
// aliases in every language (templates/referee/*/aliases.txt).
var orgTourKeywords = map[string]bool{"ENTER": true, "START": true, "STANDINGS": true, "WITHDRAW": true,
	"LATE": true, "PUBLISH": true, "FORFEIT": true, "ADJUDICATE": true}

// orgTourKeyword returns the tournament command an organiser's word is an
// alias of, in any language (an organiser has no language of their own), or
// "" when it is none.
func (w *work) orgTourKeyword(word string) string {
	for _, lang := range templates.Languages {
		if kw := w.r.render.T.Alias("referee", lang, word); kw != strings.ToUpper(word) && orgTourKeywords[kw] {
			return kw
		}
	}
	return ""
}

// orgHelp renders the organiser's help (name "org.help") or the answer to
// an organiser who wrote to the plain address ("org.hello").
func (w *work) orgHelp(org, name string) (string, error) {
	var games []string
	for _, g := range engine.Games() {
		games = append(games, g.Info().Name)
	}
	addr := ""
	if tag := w.orgTag(org); tag != "" {
		addr = w.r.plus(tag)
	}
	rd := Reader{Game: "referee", Lang: "en", Seat: -1}
	return w.r.render.T.Render("referee", "en", name, w.r.render.ctx(rd, map[string]any{"address": addr, "games": games}))
}

// orgHelloEvery is how often an organiser who writes to the plain address
// gets their organiser address back (the From of such a mail is not
// checked, so a forger could otherwise have the referee mail them at will;
// the answer only ever goes to the organiser's own address).
const orgHelloEvery = time.Hour

// orgHello answers a configured organiser who wrote to the referee without
// their tag: their organiser address and the organiser help, at most once
// an hour. It reports whether req came from an organiser.
func (w *work) orgHello(req *Request, out *Outcome) (bool, error) {
	from := strings.ToLower(req.From)
	if w.orgTag(from) == "" {
		return false, nil
	}
	if !req.SenderVerified {
		out.Status, out.Detail = "ignored", "untagged mail from an organiser's address failed authentication"
		return true, nil
	}
	w.r.orgMu.Lock()
	last := w.r.orgHelloed[from]
	ok := last.IsZero() || w.now.Sub(last) >= orgHelloEvery
	if ok {
		if w.r.orgHelloed == nil {
			w.r.orgHelloed = map[string]time.Time{}
		}
		w.r.orgHelloed[from] = w.now
	}
	w.r.orgMu.Unlock()
	if !ok {
		out.Status, out.Detail = "ignored", "untagged organiser mail; answered recently"
		return true, nil
	}
	text, err := w.orgHelp(from, "org.hello")
	if err != nil {
		return true, err
	}
	out.Status, out.Detail = "answered", "untagged organiser mail; sent the organiser address"
	return true, w.orgMail(from, []string{text}, req.MessageID)
}

// OrganiserAddresses returns each organiser's address (organiser -> the
// referee's plus address with their secret), for the daemon to log at start.
func (r *Referee) OrganiserAddresses() (map[string]string, error) {
	out := map[string]string{}
	err := r.db.View(func(tx *store.Tx) error {
		return tx.Tokens(func(secret string, t store.Token) error {
			if t.Kind == "org" {
				out[t.Address] = r.plus("org." + secret)
			}
			return nil
		})
	})
	for a, s := range r.opt.Organisers {
		if s != "" {
			out[a] = r.plus("org." + s)
		}
	}
	return out, err
}
