package referee

import (
	"crypto/subtle"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// orgRequest handles an organiser's mail: the tag "org.<secret>" must match
// a configured organiser, and the sender must be that organiser's address.
func (w orgWork) orgRequest(req *Request, out *Outcome) error {
	org := ""
	for addr, secret := range w.r.opt.Organisers {
		// Compared in constant time (issue 23).
		if secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(req.Secret)) == 1 {
			org = addr
		}
	}
	if org == "" {
		if tok, err := w.tx.Token(req.Secret); err == nil && RequestKind(tok.Kind) == KindOrg {
			org = tok.Address
		}
	}
	if org == "" || !strings.EqualFold(org, req.From) || !req.SenderVerified {
		out.Status, out.Detail = OutcomeIgnored, "organiser authentication failed"
		w.allowAnon(req)
		return nil
	}
	out.Status = OutcomeApplied
	results, err := w.orgScript(org, req.Text)
	if err != nil {
		return err
	}
	return w.orgMailIn(org, w.orgMailLang(req.Text), results, req.MessageID)
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
			if len(k) > MaxOptionBytes || len(v) > MaxOptionBytes { // issue 23: bounded
				return nil, fmt.Errorf("option %.20s...: longer than %d characters", k, MaxOptionBytes)
			}
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
	inv := Invitee{Address: strings.Trim(f[0], "<>"), Name: mailfmt.CleanName(f[1])} // issue 23
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
	gw.seat(seat).force = true
	gw.seat(seat).acted = true
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
		gw.seat(i).force = true
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
func (w orgWork) orgList(org string) (string, error) {
	var b strings.Builder
	line := func(g *Game) {
		if g.Organiser == org {
			fmt.Fprintf(&b, "\n  %-10s %-14s %-8s %d/%d seats", g.ID, g.Game, g.Status, len(g.Seats), g.Players)
		}
	}
	seen := map[string]bool{}
	// The organiser's games from the store's index, each from what the
	// index holds of it: no game record is read.
	err := w.tx.GamesOfOrganiser(org, func(id string) error {
		seen[id] = true
		if gw := w.games[id]; gw != nil {
			line(gw.g) // as this mail left it
			return nil
		}
		ix, ok, err := w.tx.GameIndexOf(id)
		if err != nil || !ok {
			return err
		}
		line(&Game{ID: id, Game: ix.Game, Status: ix.Status, Organiser: ix.Organiser, Players: ix.Players, Seats: make([]Seat, ix.Seats)})
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

// orgMail answers an organiser, in English (orgMailIn: in a language).
func (w orgWork) orgMail(org string, results []string, inReplyTo string) error {
	return w.orgMailIn(org, "en", results, inReplyTo)
}

// orgTag returns the tag of an organiser's address (none if it has none).
func (w *work) orgTag(org string) mailfmt.Tag {
	if s := w.r.opt.Organisers[org]; s != "" {
		return mailfmt.Tag{Kind: mailfmt.TagOrg, Secret: s, Seat: mailfmt.NoSeat, Token: mailfmt.NoToken}
	}
	var tag mailfmt.Tag
	w.tx.Tokens(func(secret string, t store.Token) error {
		if RequestKind(t.Kind) == KindOrg && t.Address == org {
			tag = mailfmt.Tag{Kind: mailfmt.TagOrg, Secret: secret, Seat: mailfmt.NoSeat, Token: mailfmt.NoToken}
		}
		return nil
	})
	return tag
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
		secret, err = w.newToken(store.Token{Kind: string(KindOrg), Address: addr})
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
		if results, err = (orgWork{w}).orgScript(strings.ToLower(org), text); err != nil {
			return err
		}
		lang := orgWork{w}.orgMailLang(text)
		for i, l := range results {
			results[i] = orgWork{w}.orgLocal(lang, l)
		}
		return nil
	})
	return results, err
}

// orgTourKeyword returns the tournament command an organiser's word is an
// alias of, in any language (an organiser has no language of their own), or
// "" when it is none.
func (w orgWork) orgTourKeyword(word string) string {
	for _, lang := range templates.Languages {
		if kw := w.r.render.T.Alias("referee", lang, word); kw != strings.ToUpper(word) && orgTourKeywords[kw] {
			return kw
		}
	}
	return ""
}

// orgHelp renders the organiser's help (name "org.help") or the answer to
// an organiser who wrote to the plain address ("org.hello").
func (w orgWork) orgHelp(org, name string) (string, error) {
	var games []string
	for _, g := range engine.Games() {
		games = append(games, g.Info().Name)
	}
	addr := ""
	if tag := w.orgTag(org); tag.Secret != "" {
		addr = w.r.plus(tag.String())
	}
	return w.r.orgHelpText("en", name, addr, games)
}

// orgHelpText renders the organiser's help (or the answer to an organiser
// who wrote to the plain address) in a language: the rows of the
// organiser's commands are the table's.
func (r *Referee) orgHelpText(lang, name, addr string, games []string) (string, error) {
	rd := Reader{Game: "referee", Lang: lang, Seat: -1}
	data := map[string]any{"address": addr, "games": games}
	rows, err := r.render.helpRows(rd, byOrganiser, famOrgGames, data)
	if err != nil {
		return "", err
	}
	tour, err := r.render.helpRows(rd, byOrganiser, famOrgTournaments, data)
	if err != nil {
		return "", err
	}
	data["rows"], data["tour_rows"] = rows, tour
	return r.render.T.Render("referee", lang, name, r.render.ctx(rd, data))
}

// orgHelloEvery is how often an organiser who writes to the plain address
// gets their organiser address back (the From of such a mail is not
// checked, so a forger could otherwise have the referee mail them at will;
// the answer only ever goes to the organiser's own address).
const orgHelloEvery = time.Hour

// orgHello answers a configured organiser who wrote to the referee without
// their tag: their organiser address and the organiser help, at most once
// an hour. It reports whether req came from an organiser.
func (w orgWork) orgHello(req *Request, out *Outcome) (bool, error) {
	from := strings.ToLower(req.From)
	if w.orgTag(from).Secret == "" {
		return false, nil
	}
	if !req.SenderVerified {
		out.Status, out.Detail = OutcomeIgnored, "untagged mail from an organiser's address failed authentication"
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
		out.Status, out.Detail = OutcomeIgnored, "untagged organiser mail; answered recently"
		return true, nil
	}
	text, err := w.orgHelp(from, "org.hello")
	if err != nil {
		return true, err
	}
	out.Status, out.Detail = OutcomeAnswered, "untagged organiser mail; sent the organiser address"
	return true, w.orgMail(from, []string{text}, req.MessageID)
}

// OrganiserAddresses returns each organiser's address (organiser -> the
// referee's plus address with their secret), for the daemon to log at start.
func (r organisers) OrganiserAddresses() (map[string]string, error) {
	out := map[string]string{}
	err := r.db.View(func(tx *store.Tx) error {
		return tx.Tokens(func(secret string, t store.Token) error {
			if RequestKind(t.Kind) == KindOrg {
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
