package referee

// Tournaments by mail: the organiser's and the players' commands, the
// rounds' games, results at each game's end, standings and ratings. The
// pairing, standings and rating logic is in package tournament; this file
// is the glue to games, mails and the store.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/templates"
)

// tourWakePrefix marks a tournament's entry in the store's wake index (game
// ids never hold a colon).
const tourWakePrefix = "t:"

// errNoRound: the next round could not be drawn (nothing was created).
var errNoRound = errors.New("no round drawn")

var tourIDRe = regexp.MustCompile(`^[a-z][a-z0-9]{1,15}$`)

func loadTour(tx *store.Tx, id string) (*tournament.Tournament, error) {
	raw, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	var t tournament.Tournament
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("tournament %s: %w", id, err)
	}
	return &t, nil
}

func (w *work) saveTour(t *tournament.Tournament) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := w.tx.PutTournament(t.ID, raw); err != nil {
		return err
	}
	return w.tx.SetWake(tourWakePrefix+t.ID, tourWake(t, w.now))
}

// tourWake is when a tournament next needs the clock: sign-up closing, the
// next round's date, the warning before a round's deadline, the deadline.
func tourWake(t *tournament.Tournament, now time.Time) time.Time {
	return t.Wake(now)
}

// tourHelpWords name the tournament help in each language (HELP TOURNAMENT,
// HELP TORNEO, HELP TOURNOI, HELP TOERNOOI), with the language they ask
// for when none is given.
var tourHelpWords = map[string]string{"TOURNAMENT": "en", "TOURNAMENTS": "en", "TORNEO": "it", "TORNEI": "it",
	"TOURNOI": "fr", "TOURNOIS": "fr", "TOERNOOI": "nl", "TOERNOOIEN": "nl"}

// tourOrg runs an organiser's tournament command. ok is false when the line
// is not one (it is then a game command).
func (w *work) tourOrg(org string, f []string) (res string, ok bool, err error) {
	kw := strings.ToUpper(f[0])
	arg := func(i int) string {
		if i < len(f) {
			return strings.ToLower(f[i])
		}
		return ""
	}
	switch kw {
	case "HELP":
		lang, isTour := tourHelpWords[strings.ToUpper(arg(1))]
		if !isTour {
			return "", false, nil // the organiser's general help
		}
		if templates.IsLanguage(arg(2)) {
			lang = arg(2)
		}
		return w.tourText(lang, "org.help", map[string]any{"games": gameNames()}), true, nil
	case "NEW":
		if strings.ToUpper(arg(1)) != "TOURNAMENT" {
			return "", false, nil
		}
		res, err = w.newTournament(org, f[2:])
		return res, true, err
	case "FORFEIT", "ADJUDICATE":
		res, err = w.tourGameCommand(org, kw, f[1:])
		return res, true, err
	case "ENTER", "START", "STANDINGS", "WITHDRAW", "LATE", "EXTEND", "REPLACE", "PUBLISH", "SCHEDULE":
		if !w.tx.HasTournament(arg(1)) {
			if kw == "EXTEND" || kw == "REPLACE" || (kw == "PUBLISH" && (w.tx.HasGame(arg(1)) || w.games[arg(1)] != nil)) {
				return "", false, nil // the game commands of that name
			}
			if kw == "PUBLISH" {
				return "", true, fmt.Errorf("no tournament or game %q", arg(1))
			}
			return "", true, fmt.Errorf("no tournament %q", arg(1))
		}
	default:
		return "", false, nil
	}
	t, err := loadTour(w.tx, arg(1))
	if err != nil {
		return "", true, err
	}
	if t.Organiser != org {
		return "", true, fmt.Errorf("tournament %s belongs to another organiser", t.ID)
	}
	switch kw {
	case "ENTER":
		inv, perr := parseInvitee(f[2:])
		if perr != nil {
			return "", true, fmt.Errorf("usage: ENTER <tournament> <address> <name> [lang] [Area/City]")
		}
		p, err := w.ensurePlayer(strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
		if err != nil {
			return "", true, err
		}
		if msg := w.tourJoin(t, p); msg != "" {
			return "", true, errors.New(msg)
		}
		res = w.orgText(t, "entered", map[string]any{"address": p.Address, "entrants": len(t.Entrants)})
	case "START":
		if t.Status != tournament.StatusSignup {
			return "", true, fmt.Errorf("tournament %s is %s", t.ID, t.Status)
		}
		if err := w.tourStart(t); err != nil {
			return "", true, err
		}
		res = w.orgText(t, "started", map[string]any{"games": len(t.Rounds[0].Matches), "due": w.orgTime(t, t.Rounds[0].Due)})
	case "STANDINGS":
		return w.tourStandingsText(t, orgLang(t)), true, nil
	case "WITHDRAW":
		e := t.Entrant(arg(2))
		if e == nil {
			return "", true, fmt.Errorf("%s is not in %s", arg(2), t.ID)
		}
		if err := w.tourWithdraw(t, e); err != nil {
			return "", true, err
		}
		res = w.orgText(t, "withdrawn", map[string]any{"address": e.Address})
	case "LATE":
		return w.tourLateText(t, "late"), true, nil
	case "EXTEND":
		h, herr := parseHours(arg(2))
		if herr != nil || len(t.Rounds) == 0 {
			return "", true, fmt.Errorf("usage: EXTEND <tournament> <hours> (a round must be open)")
		}
		rd := &t.Rounds[len(t.Rounds)-1]
		if rd.Due.IsZero() {
			rd.Due = w.now
		}
		rd.Due = rd.Due.Add(time.Duration(h * float64(time.Hour)))
		rd.LateSent = false
		rd.Warned = !t.WarnAt(*rd).After(w.now) // no warning in the past
		res = w.orgText(t, "extended", map[string]any{"round": rd.N, "due": w.orgTime(t, rd.Due)})
	case "REPLACE":
		e := t.Entrant(arg(2))
		inv, perr := parseInvitee(f[3:])
		if e == nil || perr != nil {
			return "", true, fmt.Errorf("usage: REPLACE <tournament> <old address> <new address> <name> [lang]")
		}
		res, err = w.tourReplace(t, e, inv)
		if err != nil {
			return "", true, err
		}
	case "PUBLISH":
		switch arg(2) {
		case "listed":
			t.Public, t.Listed = true, true
		case "off":
			t.Public, t.Listed = false, false
			// Issue 23: the old address is revoked for good (it may
			// have leaked); a later PUBLISH shows a new one.
			key, kerr := w.r.secret()
			if kerr != nil {
				return "", true, kerr
			}
			t.Key = key
		default:
			t.Public, t.Listed = true, false
		}
		res = w.orgText(t, "pages", w.pageData(t, map[string]any{}))
	case "SCHEDULE":
		res, err = w.tourSchedule(t, f[2:])
		if err != nil {
			return "", true, err
		}
	}
	return res, true, w.saveTour(t)
}

// gameNames are the games the referee runs.
func gameNames() []string {
	var games []string
	for _, g := range engine.Games() {
		games = append(games, g.Info().Name)
	}
	sort.Strings(games)
	return games
}

// orgLang is the language of a tournament's organiser texts.
func orgLang(t *tournament.Tournament) string {
	if templates.IsLanguage(t.OrgLang) {
		return t.OrgLang
	}
	return "en"
}

// orgText renders an organiser text of a tournament ("org.<name>") in the
// organiser's language.
func (w *work) orgText(t *tournament.Tournament, name string, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	data["id"] = t.ID
	if _, ok := data["rounds"]; !ok {
		data["rounds"] = t.PlannedRounds()
	}
	return w.tourText(orgLang(t), "org."+name, data)
}

// orgTime writes a time for the organiser: in the tournament's zone and
// the organiser's language ("" for a zero time).
func (w *work) orgTime(t *tournament.Tournament, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return templates.FormatTime(orgLang(t), at.In(location(t.TZ)))
}

// calendar lists the planned rounds' dates for a reader in a language and
// zone (rows n, opens, due, open): the rounds open so far, then the
// calendar's; it stops at the first round without a date.
func (w *work) calendar(t *tournament.Tournament, lang string, loc *time.Location) []map[string]any {
	var out []map[string]any
	for n := 1; n <= t.PlannedRounds(); n++ {
		at := t.RoundDate(n)
		if n <= len(t.Rounds) {
			at = t.Rounds[n-1].Opened
		}
		if at.IsZero() {
			break
		}
		row := map[string]any{"n": n, "opens": templates.FormatTime(lang, at.In(loc)), "open": n <= len(t.Rounds), "due": ""}
		due := t.RoundDue(n, at)
		if n <= len(t.Rounds) {
			due = t.Rounds[n-1].Due
		}
		if !due.IsZero() {
			row["due"] = templates.FormatTime(lang, due.In(loc))
		}
		out = append(out, row)
	}
	return out
}

// parseCalendarArgs reads the calendar's key=value settings of NEW
// TOURNAMENT or SCHEDULE (tz= first, so dates are read in its zone) and
// returns the other arguments.
func parseCalendarArgs(c *tournament.Calendar, args []string) (rest []string, err error) {
	dur := func(v string) (time.Duration, error) {
		h, err := parseHours(v)
		return time.Duration(h * float64(time.Hour)), err
	}
	for _, pass := range []bool{true, false} { // tz=, then the others
		for _, a := range args {
			k, v, _ := strings.Cut(a, "=")
			k = strings.ToLower(k)
			if (k == "tz") != pass {
				continue
			}
			ok, err := c.ParseCalendar(k, v, dur)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", a, err)
			}
			if !ok && !pass {
				rest = append(rest, a)
			}
		}
	}
	return rest, c.CheckCalendar()
}

// tourSchedule runs SCHEDULE <tournament> [start=] [every=] [dates=]
// [open=schedule|complete] [warn=] [tz=]: the calendar of the rounds not
// yet open changes; with no setting it is shown.
func (w *work) tourSchedule(t *tournament.Tournament, args []string) (string, error) {
	if t.Status == tournament.StatusOver {
		return "", fmt.Errorf("tournament %s is over", t.ID)
	}
	c := t.Calendar
	rest, err := parseCalendarArgs(&c, args)
	if err != nil {
		return "", err
	}
	if len(rest) > 0 {
		return "", fmt.Errorf("usage: SCHEDULE <tournament> [start=<date>] [every=7d] [dates=<date>,<date>...] [open=schedule|complete] [warn=24h|off] [tz=<Area/City>]; not %q", strings.Join(rest, " "))
	}
	if at := c.RoundDate(1); t.Status == tournament.StatusSignup && !at.IsZero() && !at.After(w.now) {
		return "", fmt.Errorf("the first round's date %s is past", at.Format(time.RFC3339))
	}
	// The rounds already open keep their dates: dates= counts from round 1.
	t.Calendar = c
	if n := len(t.Rounds); n > 0 && !t.Rounds[n-1].Complete() && len(args) > 0 {
		// The open round's deadline follows the new calendar.
		rd := &t.Rounds[n-1]
		if due := t.RoundDue(rd.N, rd.Opened); !due.IsZero() {
			rd.Due, rd.LateSent = due, false
			rd.Warned = !t.WarnAt(*rd).After(w.now)
		}
	}
	if t.Status == tournament.StatusRunning {
		if err := w.tourAdvance(t); err != nil {
			return "", err
		}
	}
	return w.orgText(t, "schedule", map[string]any{"calendar": w.calendar(t, orgLang(t), location(t.TZ)),
		"on_schedule": t.OnSchedule(), "warn": warnText(t), "tz": firstNonEmpty(t.TZ, "UTC"),
		"closes": w.orgTime(t, t.SignupCloses()), "signup": t.Status == tournament.StatusSignup}), nil
}

// deadlineText is a round's time ("" for none): 72h.
func deadlineText(t *tournament.Tournament) string {
	if t.Deadline <= 0 {
		return ""
	}
	return fmtNum(t.Deadline.Hours()) + "h"
}

// warnText says how long before a deadline the organiser is warned.
func warnText(t *tournament.Tournament) string {
	switch {
	case t.Warn < 0:
		return ""
	case t.Warn == 0:
		return "24h"
	}
	return fmtNum(t.Warn.Hours()) + "h"
}

// newTournament reads "NEW TOURNAMENT <id> game=<game> [format=] [rounds=]
// [table=] [deadline=] [points=] [tiebreaks=] [close=] [variant=] [public]
// [listed] [lang=] [start=] [every=] [dates=] [open=] [warn=] [tz=]
// [option=value]...".
func (w *work) newTournament(org string, args []string) (string, error) {
	usage := errors.New("usage: NEW TOURNAMENT <id> game=<game> [format=swiss|roundrobin|knockout|tables] [rounds=N] [table=K] [deadline=7d] [points=1,0.5,0] [tiebreaks=buchholz,sb,score,h2h] [close=YYYY-MM-DD] [start=YYYY-MM-DD every=7d | dates=YYYY-MM-DD,...] [open=schedule|complete] [public|listed] [lang=en|it|fr|nl]")
	if len(args) == 0 {
		return "", usage
	}
	id := strings.ToLower(args[0])
	if !tourIDRe.MatchString(id) {
		return "", fmt.Errorf("tournament id %q: a lower-case letter then letters or digits (2-16)", id)
	}
	if w.tx.HasTournament(id) || w.tx.HasGame(id) {
		return "", fmt.Errorf("%s already exists", id)
	}
	var s tournament.Settings
	rest, err := parseCalendarArgs(&s.Calendar, args[1:])
	if err != nil {
		return "", err
	}
	for _, a := range rest {
		k, v, _ := strings.Cut(a, "=")
		var err error
		switch strings.ToLower(k) {
		case "game":
			s.Game = strings.ToLower(v)
		case "format":
			s.Format = strings.ToLower(v)
		case "rounds":
			s.NumRounds, err = strconv.Atoi(v)
			if err == nil && (s.NumRounds < 1 || s.NumRounds > 100) {
				err = fmt.Errorf("rounds=%s: 1 to 100", v)
			}
		case "table":
			s.Table, err = strconv.Atoi(v)
		case "deadline":
			var h float64
			h, err = parseHours(v)
			s.Deadline = time.Duration(h * float64(time.Hour))
		case "points":
			s.Points, err = tournament.ParsePoints(v)
		case "tiebreaks":
			s.Tiebreaks = strings.Split(strings.ToLower(v), ",")
		case "close":
			s.Close, err = tournament.ParseDate(v, location(s.TZ))
		case "late":
			s.Late = strings.ToLower(v)
		case "variant":
			s.Variant = v
		case "lang":
			s.OrgLang = strings.ToLower(v)
			if !templates.IsLanguage(s.OrgLang) {
				err = fmt.Errorf("en, it, fr or nl")
			}
		case "public":
			s.Public = true
		case "listed":
			s.Public, s.Listed = true, true
		default:
			if len(k) > MaxOptionBytes || len(v) > MaxOptionBytes { // issue 23: bounded
				return "", fmt.Errorf("option %.20s...: longer than %d characters", k, MaxOptionBytes)
			}
			if s.Options == nil {
				s.Options = map[string]string{}
			}
			s.Options[k] = v
		}
		if err != nil {
			return "", fmt.Errorf("%s: %v", a, err)
		}
	}
	if s.Game == "" {
		return "", usage
	}
	eg, err := lookupGame(s.Game)
	if err != nil {
		return "", err
	}
	if err := tournament.Defaults(&s, eg.Info()); err != nil {
		return "", err
	}
	if at := s.RoundDate(1); !at.IsZero() && !at.After(w.now) {
		return "", fmt.Errorf("the first round's date %s is past", at.Format(time.RFC3339))
	}
	// The game options apply to every game: check them once now.
	seats := make([]string, s.Table)
	for i := range seats {
		seats[i] = fmt.Sprintf("p%d", i+1)
	}
	if _, _, err := eg.NewState(engine.Config{Variant: s.Variant, Options: s.Options, Seats: seats, Seed: "check"}); err != nil {
		return "", err
	}
	seed, err := w.randomHex()
	if err != nil {
		return "", err
	}
	key, err := w.r.secret()
	if err != nil {
		return "", err
	}
	t := &tournament.Tournament{ID: id, Organiser: org, Settings: s, Seed: seed, Commitment: engine.Commitment(seed),
		Status: tournament.StatusSignup, Key: key, Created: w.now}
	if err := w.saveTour(t); err != nil {
		return "", err
	}
	pts := s.Points
	if s.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *s.Draw, pts[1]}
	}
	return w.orgText(t, "created", w.pageData(t, map[string]any{"title": eg.Info().Title, "format": s.Format, "table": s.Table,
		"num_rounds": t.NumRounds, "points": fmtPoints(pts), "tiebreaks": strings.Join(s.Tiebreaks, ","),
		"commitment": t.Commitment, "closes": w.orgTime(t, t.SignupCloses()), "deadline": deadlineText(t), "late": t.Late,
		"calendar": w.calendar(t, orgLang(t), location(t.TZ)), "on_schedule": t.OnSchedule(), "tz": firstNonEmpty(t.TZ, "UTC")})), nil
}

func (w *work) randomHex() (string, error) {
	var b [32]byte
	w.r.randMu.Lock()
	_, err := io.ReadFull(w.r.opt.Random, b[:])
	w.r.randMu.Unlock()
	return hex.EncodeToString(b[:]), err
}

// tourPlayer runs a registered player's tournament command (JOIN or
// WITHDRAW <tournament>, STANDINGS <tournament>, RATING [game]); ok is
// false when the line is not one.
func (w *work) tourPlayer(p *Player, kw string, f []string) (string, bool, error) {
	id := ""
	if len(f) > 1 {
		id = strings.ToLower(f[1])
	}
	switch kw {
	case "JOIN":
		if id == "" || !w.tx.HasTournament(id) {
			return "", false, nil // a game's JOIN
		}
	case "WITHDRAW", "STANDINGS":
		if id == "" || !w.tx.HasTournament(id) {
			return w.tourText(p.Lang, "error.no_tournament", map[string]any{"id": id, "command": w.r.render.T.Word("referee", p.Lang, kw)}), true, nil
		}
	case "RATING":
		return w.ratingText(p, id), true, nil
	default:
		return "", false, nil
	}
	t, err := loadTour(w.tx, id)
	if err != nil {
		return "", true, err
	}
	var out string
	switch kw {
	case "JOIN":
		if msg := w.tourJoin(t, p); msg != "" {
			return msg, true, nil
		}
		out = "" // the confirmation mail answers
	case "WITHDRAW":
		// Issue 23: "WITHDRAW <t> <address>" names whom to withdraw; a
		// player may name only their own address (the organiser's
		// command withdraws others).
		if len(f) > 2 && !mailfmt.SameMailbox(strings.Trim(f[2], "<>"), p.Address) {
			return w.tourText(p.Lang, "error.withdraw_other", map[string]any{"id": t.ID,
				"command": w.r.render.T.Word("referee", p.Lang, kw)}), true, nil
		}
		e := t.Entrant(p.Address)
		if e == nil || e.Withdrawn > 0 {
			return w.tourText(p.Lang, "error.not_entered", map[string]any{"id": t.ID}), true, nil
		}
		if err := w.tourWithdraw(t, e); err != nil {
			return "", true, err
		}
		out = w.tourText(p.Lang, "info.withdrawn", map[string]any{"id": t.ID})
	case "STANDINGS":
		return w.tourStandingsText(t, p.Lang), true, nil
	}
	return out, true, w.saveTour(t)
}

// tourJoin enters a player; it returns a message for the player when the
// entry is refused, "" when done (and the confirmation is queued).
func (w *work) tourJoin(t *tournament.Tournament, p *Player) string {
	switch {
	case t.Status != tournament.StatusSignup || (!t.Close.IsZero() && !w.now.Before(t.Close)):
		return w.tourText(p.Lang, "error.closed", map[string]any{"id": t.ID})
	case t.Entrant(p.Address) != nil:
		return w.tourText(p.Lang, "error.already", map[string]any{"id": t.ID})
	case len(t.Entrants) >= w.r.maxEntrants(): // issue 23: bounded
		return w.tourText(p.Lang, "error.full", map[string]any{"id": t.ID, "max": w.r.maxEntrants()})
	}
	e := tournament.Entrant{ID: len(t.Entrants), Address: p.Address, Name: p.Name, Lang: p.Lang}
	t.Entrants = append(t.Entrants, e)
	w.tourMail(t, e, "confirm", nil)
	return ""
}

// tourWithdraw takes an entrant out: before the start their entry is
// dropped; later they are not paired again and their open game is
// forfeited (their results so far stay, so everyone's tie-breaks stay
// right).
func (w *work) tourWithdraw(t *tournament.Tournament, e *tournament.Entrant) error {
	if t.Status == tournament.StatusSignup {
		var keep []tournament.Entrant
		for _, x := range t.Entrants {
			if x.ID != e.ID {
				x.ID = len(keep)
				keep = append(keep, x)
			}
		}
		t.Entrants = keep
		return nil
	}
	if e.Withdrawn > 0 {
		return nil
	}
	e.Withdrawn = len(t.Rounds) + 1
	if n := len(t.Rounds); n > 0 {
		for _, m := range t.Rounds[n-1].Matches {
			if m.Decided() || m.GameID == "" {
				continue
			}
			for _, s := range m.Seats {
				if s == e.ID {
					if err := w.forfeit(t, m.GameID, e.ID); err != nil {
						return err
					}
				}
			}
		}
	}
	return w.tourAdvance(t)
}

// tourReplace hands an entrant's place (and history) to another player;
// the open game's seat goes with it.
func (w *work) tourReplace(t *tournament.Tournament, e *tournament.Entrant, inv Invitee) (string, error) {
	p, err := w.ensurePlayer(strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return "", err
	}
	if t.Entrant(p.Address) != nil {
		return "", fmt.Errorf("%s is already in %s", p.Address, t.ID)
	}
	old := e.Address
	e.Previous = append(e.Previous, old)
	e.Address, e.Name, e.Lang = p.Address, firstNonEmpty(inv.Name, p.Name), p.Lang
	if n := len(t.Rounds); n > 0 {
		for _, m := range t.Rounds[n-1].Matches {
			if m.Decided() || m.GameID == "" {
				continue
			}
			gw, err := w.game(m.GameID)
			if err != nil {
				return "", err
			}
			if seat := gw.g.seatOfAddress(old); seat >= 0 {
				if _, err := gw.replace(seat, inv); err != nil {
					return "", err
				}
			}
		}
	}
	w.tourMail(t, *e, "confirm", nil)
	return w.orgText(t, "replaced", map[string]any{"address": p.Address, "old": old}), nil
}

// tourStart closes sign-up and opens round 1 now (the organiser's START).
func (w *work) tourStart(t *tournament.Tournament) error {
	if len(t.Entrants) < max(2, t.MinTable) {
		return fmt.Errorf("%d entrants: %s needs at least %d", len(t.Entrants), t.ID, max(2, t.MinTable))
	}
	t.Status, t.Started = tournament.StatusRunning, w.now
	return w.openRound(t)
}

// tourClose closes sign-up at its date: round 1 opens now, or on its date
// in the calendar when that is later (the organiser is told).
func (w *work) tourClose(t *tournament.Tournament) error {
	if len(t.Entrants) < max(2, t.MinTable) {
		return fmt.Errorf("%d entrants: %s needs at least %d", len(t.Entrants), t.ID, max(2, t.MinTable))
	}
	t.Status, t.Started = tournament.StatusRunning, w.now
	if at, wait := t.Waiting(w.now); wait {
		w.tourOrgMail(t, w.orgText(t, "closed", map[string]any{"entrants": len(t.Entrants), "opens": w.orgTime(t, at)}))
		return nil
	}
	return w.openRound(t)
}

// gameSeed is a tournament game's seed: derived one-way from the
// tournament's, so revealing a game's seed at its end reveals nothing of
// the rounds to come, and the tournament's seed (revealed at the end)
// accounts for every game.
func gameSeed(t *tournament.Tournament, gameID string) string {
	sum := sha256.Sum256([]byte(t.Seed + "/game/" + gameID))
	return hex.EncodeToString(sum[:])
}

// openRound draws the next round and starts its games, seats in the drawn
// order; the entrants are told whom they play.
func (w *work) openRound(t *tournament.Tournament) error {
	rd, err := t.NextRound()
	if err != nil {
		return fmt.Errorf("%w: %v", errNoRound, err)
	}
	rd.Opened = w.now
	rd.Due = t.RoundDue(rd.N, w.now)
	rd.Warned = rd.Due.IsZero() || !t.WarnAt(rd).After(w.now)
	for k := range rd.Matches {
		m := &rd.Matches[k]
		if m.State == tournament.MatchBye {
			continue
		}
		m.GameID = fmt.Sprintf("%sr%dt%d", t.ID, rd.N, m.Table)
		for k := 0; w.tx.HasGame(m.GameID) || w.games[m.GameID] != nil; k++ {
			m.GameID = fmt.Sprintf("%sr%dt%dx%d", t.ID, rd.N, m.Table, k) // an organiser's game took the id
		}
		ng := NewGame{ID: m.GameID, Game: t.Game, Variant: t.Variant, Options: t.Options, Players: len(m.Seats),
			Organiser: t.Organiser, Seed: gameSeed(t, m.GameID), Ordered: true}
		for _, e := range m.Seats {
			en := t.Entrants[e]
			ng.Invite = append(ng.Invite, Invitee{Address: en.Address, Name: en.Name, Lang: en.Lang})
		}
		gw, err := w.createGame(ng)
		if err != nil {
			return fmt.Errorf("round %d table %d: %w", rd.N, m.Table, err)
		}
		// Entrants signed up for the whole tournament: no invitation to
		// accept, the game starts at once.
		kept := gw.notes[:0]
		for _, n := range gw.notes {
			if n.Name != "invite" {
				kept = append(kept, n)
			}
		}
		gw.notes = kept
		for i := range gw.g.Seats {
			gw.g.Seats[i].State = SeatJoined
		}
		if err := gw.maybeStart(); err != nil {
			return err
		}
		if err := w.tx.SetGameTournament(m.GameID, t.ID); err != nil {
			return err
		}
	}
	t.Rounds = append(t.Rounds, rd)
	for _, e := range t.Entrants {
		if e.Withdrawn == 0 || rd.N < e.Withdrawn {
			data := w.roundData(t, len(t.Rounds)-1, e.ID)
			if rd.N > 1 && !t.Rounds[rd.N-2].Told {
				// The standings of the round just completed come with
				// the next round's pairing: one mail a round (unless
				// they went out when it completed, the next round
				// waiting for its date).
				c := *t
				c.Rounds = t.Rounds[:rd.N-1]
				data["standings"] = w.tourStandingsText(&c, e.Lang)
			}
			w.tourMail(t, e, "round", data)
		}
	}
	return nil
}

// roundData describes round r to entrant e: their game or bye, and the
// standings so far.
func (w *work) roundData(t *tournament.Tournament, r, e int) map[string]any {
	rd := t.Rounds[r]
	data := map[string]any{"round": rd.N, "rounds": t.PlannedRounds(), "bye": false, "game": "", "opponents": []string(nil),
		"seat": 0, "due_at": rd.Due, "next_at": time.Time{}, "standings": ""}
	if t.OnSchedule() && rd.N < t.PlannedRounds() {
		data["next_at"] = t.RoundDate(rd.N + 1)
	}
	for _, m := range rd.Matches {
		for i, s := range m.Seats {
			if s != e {
				continue
			}
			if m.State == tournament.MatchBye {
				data["bye"] = true
				continue
			}
			var opp []string
			for _, o := range m.Seats {
				if o != e {
					opp = append(opp, t.Entrants[o].Name)
				}
			}
			data["game"], data["opponents"], data["seat"] = m.GameID, opp, i+1
		}
	}
	return data
}

// gameEnded runs when a game ended in this transaction: the players'
// ratings move, and a tournament game's result is recorded.
func (w *work) gameEnded(gw *gameWork) error {
	res := gw.tb.State.Result()
	if res == nil {
		return nil
	}
	if err := w.rateGame(gw.g, res.Rank); err != nil {
		return err
	}
	tid := w.tx.GameTournament(gw.g.ID)
	if tid == "" {
		return nil
	}
	t, err := loadTour(w.tx, tid)
	if err != nil {
		return err
	}
	scores := make([]int, len(gw.g.Seats))
	for _, s := range res.Scores {
		if s.Seat >= 0 && s.Seat < len(scores) {
			scores[s.Seat] = s.Total
		}
	}
	state := tournament.MatchDone
	if gw.adjudicated {
		state = tournament.MatchAdjudicated
	}
	if _, _, err := t.Record(gw.g.ID, state, res.Rank, scores); err != nil {
		return err
	}
	if err := w.tourAdvance(t); errors.Is(err, errNoRound) {
		// The game's end must not wait on the draw: the organiser hears.
		w.tourOrgMail(t, w.orgText(t, "nodraw", map[string]any{"error": err.Error()}))
	} else if err != nil {
		return err
	}
	return w.saveTour(t)
}

// tourAdvance acts on a completed round: standings to everyone, then the
// next round (at once, or on its date when the calendar says so: the
// standings go out now and the round mail follows on the date), or the end
// (the seed is revealed).
func (w *work) tourAdvance(t *tournament.Tournament) error {
	if t.Status != tournament.StatusRunning || len(t.Rounds) == 0 || !t.Rounds[len(t.Rounds)-1].Complete() {
		return nil
	}
	if t.Finished() || len(t.ActiveIn(len(t.Rounds)+1)) < max(2, t.MinTable) {
		t.Status, t.Ended = tournament.StatusOver, w.now
		for _, e := range t.Entrants {
			w.tourMail(t, e, "final", map[string]any{"standings": w.tourStandingsText(t, e.Lang), "seed": t.Seed})
		}
		w.tourOrgMail(t, w.orgText(t, "over", map[string]any{"standings": w.tourStandingsText(t, orgLang(t))}))
		return nil
	}
	if at, wait := t.Waiting(w.now); wait {
		last := &t.Rounds[len(t.Rounds)-1]
		if !last.Told {
			last.Told = true
			for _, e := range t.Entrants {
				if e.Withdrawn == 0 || last.N < e.Withdrawn {
					w.tourMail(t, e, "standings", map[string]any{"round": last.N, "next_at": at,
						"standings": w.tourStandingsText(t, e.Lang)})
				}
			}
			w.tourOrgMail(t, w.orgText(t, "waiting", map[string]any{"round": last.N, "next": w.orgTime(t, at)}))
		}
		return nil
	}
	return w.openRound(t)
}

// tourGameCommand runs FORFEIT <game> <player> and ADJUDICATE <game>.
func (w *work) tourGameCommand(org, kw string, args []string) (string, error) {
	if len(args) == 0 || (kw == "FORFEIT" && len(args) < 2) {
		return "", fmt.Errorf("usage: FORFEIT <game> <player> or ADJUDICATE <game>")
	}
	gid := strings.ToLower(args[0])
	tid := w.tx.GameTournament(gid)
	if tid == "" {
		return "", fmt.Errorf("game %q is not a tournament game", gid)
	}
	t, err := loadTour(w.tx, tid)
	if err != nil {
		return "", err
	}
	if t.Organiser != org {
		return "", fmt.Errorf("tournament %s belongs to another organiser", t.ID)
	}
	gw, err := w.game(gid)
	if err != nil {
		return "", err
	}
	if gw.g.Status != StatusRunning && gw.g.Status != StatusPaused {
		return "", fmt.Errorf("game %s is %s", gid, gw.g.Status)
	}
	if kw == "ADJUDICATE" {
		res, err := w.adjudicateGame(t, gw)
		if err != nil {
			return "", err
		}
		if res == nil {
			return w.orgText(t, "adjudicate_bots", map[string]any{"game": gid}), nil
		}
		if err := w.tourAdvance(t); err != nil {
			return "", err
		}
		return w.orgText(t, "adjudicated", map[string]any{"game": gid, "result": w.resultLine(gw, res)}), w.saveTour(t)
	}
	e := t.Entrant(args[1])
	if e == nil {
		for i := range t.Entrants {
			if strings.EqualFold(t.Entrants[i].Name, args[1]) {
				e = &t.Entrants[i]
			}
		}
	}
	if e == nil {
		return "", fmt.Errorf("no entrant %q in %s", args[1], t.ID)
	}
	if err := w.forfeit(t, gid, e.ID); err != nil {
		return "", err
	}
	if err := w.tourAdvance(t); err != nil {
		return "", err
	}
	return w.orgText(t, "forfeited", map[string]any{"game": gid, "name": e.Name}), w.saveTour(t)
}

// adjudicateGame ends a late tournament game for ADJUDICATE and late=
// adjudicate. Where the game can score a position as it stands (its state
// has Adjudicate: every game of the referee, by its own final scoring),
// that is the result, recorded at once in t and returned; otherwise (a
// game without it, or a position it cannot score) the bots finish the
// game from the position, deterministically from the game's seed, and the
// result is recorded at its end (nil is returned).
func (w *work) adjudicateGame(t *tournament.Tournament, gw *gameWork) (*engine.Result, error) {
	if adj, ok := gw.tb.State.(interface{ Adjudicate() *engine.Result }); ok {
		if res := adj.Adjudicate(); res != nil {
			if err := w.closeTourGame(gw, "adjudicated", "result", w.resultLine(gw, res)); err != nil {
				return nil, err
			}
			if _, _, err := t.Record(gw.g.ID, tournament.MatchAdjudicated, res.Rank, scoresOf(res, len(gw.g.Seats))); err != nil {
				return nil, err
			}
			return res, nil
		}
	}
	gw.adjudicated = true
	if gw.g.Status == StatusPaused {
		gw.g.Status, gw.g.PausedAt = StatusRunning, time.Time{}
	}
	for i := range gw.g.Seats {
		gw.g.Seats[i].Bot = gw.botName()
	}
	return nil, nil
}

// resultLine writes a game's result by place: "1. Ann 23 / 2. Bob 18".
func (w *work) resultLine(gw *gameWork, res *engine.Result) string {
	type row struct {
		rank, score int
		name        string
	}
	var rows []row
	for _, sc := range res.Scores {
		if sc.Seat >= 0 && sc.Seat < len(gw.g.Seats) && sc.Seat < len(res.Rank) {
			rows = append(rows, row{res.Rank[sc.Seat], sc.Total, gw.g.Seats[sc.Seat].Name})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].rank < rows[j].rank })
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%d. %s %d", r.rank, r.name, r.score))
	}
	return strings.Join(parts, " / ")
}

func scoresOf(res *engine.Result, n int) []int {
	out := make([]int, n)
	for _, s := range res.Scores {
		if s.Seat >= 0 && s.Seat < n {
			out[s.Seat] = s.Total
		}
	}
	return out
}

// forfeit ends a tournament game with entrant e last and the others level
// first; the game is closed and its seed revealed.
func (w *work) forfeit(t *tournament.Tournament, gid string, e int) error {
	gw, err := w.game(gid)
	if err != nil {
		return err
	}
	var m *tournament.Match
	for r := range t.Rounds {
		for k := range t.Rounds[r].Matches {
			if t.Rounds[r].Matches[k].GameID == gid {
				m = &t.Rounds[r].Matches[k]
			}
		}
	}
	if m == nil {
		return fmt.Errorf("game %s is not in %s", gid, t.ID)
	}
	rank := make([]int, len(m.Seats))
	found := false
	for i, s := range m.Seats {
		rank[i] = 1
		if s == e {
			rank[i], found = len(m.Seats), true
		}
	}
	if !found {
		return fmt.Errorf("%s does not play game %s", t.Entrants[e].Name, gid)
	}
	if err := w.closeTourGame(gw, "forfeit", "names", []string{t.Entrants[e].Name}); err != nil {
		return err
	}
	_, _, err = t.Record(gid, tournament.MatchForfeit, rank, nil)
	return err
}

// closeTourGame stops a tournament game the organiser decided (why:
// "adjudicated" with a result, "forfeit" with the names who lose); the
// players are told the result and the seed.
func (w *work) closeTourGame(gw *gameWork, why string, kv ...any) error {
	g := gw.g
	g.Status, g.Ended = StatusAborted, w.now
	for i := range g.Seats {
		g.Seats[i].Deadline = nil
	}
	if _, err := gw.log(Entry{Kind: EntryOrg, Seat: -1, Vis: engine.Public, Params: map[string]any{"command": strings.ToUpper(why), "args": []string{}}}); err != nil {
		return err
	}
	note := "aborted"
	switch why {
	case "adjudicated":
		note = "adjudicated"
	case "forfeit":
		note = "forfeited"
	}
	gw.announce(nil, note, append([]any{"seed", g.Seed}, kv...)...)
	return nil
}

// tourTick handles a tournament's clock: sign-up closing, a round opening
// on its date, the games not yet over listed to the organiser before the
// deadline, and the late games at the deadline (listed once, then the
// tournament's late rule).
func (w *work) tourTick(id string) error {
	t, err := loadTour(w.tx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return w.tx.SetWake(tourWakePrefix+id, time.Time{})
		}
		return err
	}
	switch t.Status {
	case tournament.StatusSignup:
		if at := t.SignupCloses(); !at.IsZero() && !w.now.Before(at) {
			if err := w.tourClose(t); err != nil {
				t.Close, t.Start, t.Dates = time.Time{}, time.Time{}, nil
				w.tourOrgMail(t, w.orgText(t, "cannot_start", map[string]any{"error": err.Error()}))
			}
		}
	case tournament.StatusRunning:
		n := len(t.Rounds)
		if n == 0 {
			// Sign-up closed before round 1's date: it opens on it.
			if _, wait := t.Waiting(w.now); !wait {
				if err := w.openRound(t); err != nil {
					return err
				}
			}
			break
		}
		if t.Rounds[n-1].Complete() {
			if err := w.tourAdvance(t); err != nil && !errors.Is(err, errNoRound) {
				return err
			} else if err != nil {
				w.tourOrgMail(t, w.orgText(t, "nodraw", map[string]any{"error": err.Error()}))
			}
			break
		}
		rd := &t.Rounds[n-1]
		if !rd.Warned && !rd.Due.IsZero() {
			if at := t.WarnAt(*rd); !at.IsZero() && !w.now.Before(at) {
				rd.Warned = true
				if w.now.Before(rd.Due) {
					w.tourOrgMail(t, w.tourLateText(t, "warn"))
				}
			}
		}
		if !rd.Due.IsZero() && !w.now.Before(rd.Due) && !rd.LateSent {
			rd.LateSent, rd.Warned = true, true
			w.tourOrgMail(t, w.tourLateText(t, "late"))
			if err := w.tourLate(t, n-1); err != nil {
				return err
			}
		}
	}
	return w.saveTour(t)
}

// tourLate applies the tournament's rule for the late games of round r:
// the bots finish them (their results are recorded at their end, in this
// transaction), or the seats that owe a move forfeit.
func (w *work) tourLate(t *tournament.Tournament, r int) error {
	if t.Late == "" {
		return nil
	}
	for _, m := range t.Rounds[r].Matches {
		if m.Decided() || m.GameID == "" {
			continue
		}
		gw, err := w.game(m.GameID)
		if err != nil {
			return err
		}
		if gw.tb == nil || (gw.g.Status != StatusRunning && gw.g.Status != StatusPaused) {
			continue
		}
		if t.Late == "adjudicate" {
			if _, err := w.adjudicateGame(t, gw); err != nil {
				return err
			}
			continue
		}
		// forfeit: those the game waits for lose; the others share the win.
		waiting := map[string]bool{}
		for _, n := range gw.waitingNames() {
			waiting[n] = true
		}
		rank := make([]int, len(m.Seats))
		var losers []string
		for i := range m.Seats {
			rank[i] = 1
			if i < len(gw.g.Seats) && waiting[gw.g.Seats[i].Name] {
				rank[i] = len(m.Seats)
				losers = append(losers, gw.g.Seats[i].Name)
			}
		}
		if len(losers) == 0 {
			continue
		}
		if err := w.closeTourGame(gw, "forfeit", "names", losers); err != nil {
			return err
		}
		if _, _, err := t.Record(m.GameID, tournament.MatchForfeit, rank, nil); err != nil {
			return err
		}
	}
	return w.tourAdvance(t)
}

// tourLateText lists the current round's unfinished games and whom they
// wait for, in the organiser's language: kind "warn" before the deadline,
// "late" at or after it.
func (w *work) tourLateText(t *tournament.Tournament, kind string) string {
	if len(t.Rounds) == 0 {
		return w.orgText(t, "no_round", nil)
	}
	rd := t.Rounds[len(t.Rounds)-1]
	var games []map[string]any
	for _, m := range rd.Matches {
		if m.Decided() {
			continue
		}
		waiting := ""
		if gw, err := w.game(m.GameID); err == nil && gw.tb != nil {
			waiting = strings.Join(gw.waitingNames(), ", ")
		}
		games = append(games, map[string]any{"game": m.GameID, "waiting": waiting})
	}
	return w.orgText(t, "late", map[string]any{"kind": kind, "round": rd.N, "due": w.orgTime(t, rd.Due), "games": games,
		"late_rule": t.Late})
}

// tourOrgMail sends the organiser a short note.
func (w *work) tourOrgMail(t *tournament.Tournament, text string) {
	if t.Organiser == "" {
		return
	}
	if err := w.orgMailIn(t.Organiser, orgLang(t), []string{text}, ""); err != nil {
		w.r.log.Warn("tournament organiser mail", "tournament", t.ID, "err", err)
	}
}

// tourText renders one of the tournament templates.
func (w *work) tourText(lang, name string, data map[string]any) string {
	rd := Reader{Game: "tournament", Lang: lang, Seat: -1}
	s, err := w.r.render.T.Render("tournament", lang, name, w.r.render.ctx(rd, data))
	if err != nil {
		return fmt.Sprintf("(%s: %v)", name, err)
	}
	return s
}

// tourMail mails an entrant (kind: confirm, round, standings, final).
func (w *work) tourMail(t *tournament.Tournament, e tournament.Entrant, kind string, data map[string]any) {
	if data == nil {
		data = map[string]any{}
	}
	lang := e.Lang
	if !templates.IsLanguage(lang) {
		lang = "en"
	}
	title := t.Game
	if eg, err := lookupGame(t.Game); err == nil {
		title = eg.Info().Title
	}
	data["kind"], data["id"], data["name"], data["title"] = kind, t.ID, e.Name, title
	data["format"], data["table"], data["rounds"] = t.Format, t.Table, t.PlannedRounds()
	if _, ok := data["round"]; !ok {
		data["round"] = len(t.Rounds)
	}
	pts := t.Points
	if t.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *t.Draw, pts[1]}
	}
	data["points"], data["tiebreaks"] = fmtPoints(pts), strings.Join(t.Tiebreaks, ", ")
	data["deadline"] = deadlineText(t)
	data["commitment"] = t.Commitment
	data["page"] = ""
	if t.Public {
		data["page"] = w.tourPageURL(t)
	}
	tag, tz := "", ""
	if p, err := loadPlayer(w.tx, e.Address); err == nil {
		tag, tz = "p."+p.Secret, p.TZ
		data["player_address"] = w.r.plus(tag)
	} else {
		data["player_address"] = w.r.Address()
	}
	// Dates in the reader's zone and language: "due_at" becomes "due".
	loc := location(tz)
	for k, v := range data {
		if at, ok := v.(time.Time); ok && strings.HasSuffix(k, "_at") {
			data[strings.TrimSuffix(k, "_at")] = ""
			if !at.IsZero() {
				data[strings.TrimSuffix(k, "_at")] = templates.FormatTime(lang, at.In(loc))
			}
		}
	}
	data["calendar"] = w.calendar(t, lang, loc)
	data["on_schedule"] = t.OnSchedule()
	data["closes"] = ""
	if at := t.SignupCloses(); t.Status == tournament.StatusSignup && !at.IsZero() {
		data["closes"] = templates.FormatTime(lang, at.In(loc))
	}
	m := &Outgoing{Seat: -1, Kind: "tournament", To: e.Address, ToName: e.Name, Tag: tag, Lang: lang,
		Subject: w.tourText(lang, "subject", data), Body: w.tourText(lang, "mail."+kind, data), MessageID: w.messageID(nil, -1, 0)}
	if err := w.enqueue(m); err != nil {
		w.r.log.Warn("tournament mail", "tournament", t.ID, "to", e.Address, "err", err)
	}
}

func fmtPoints(ps []float64) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmtNum(p)
	}
	return strings.Join(s, "/")
}

// fmtNum writes 1, 1.5, 0.25 without trailing zeros.
func fmtNum(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// standingRow is one line of the standings for templates (at 80 columns).
type standingRow struct {
	Place     int
	Name      string
	Points    string
	Tiebreaks string
	Record    string
	Rating    string
	Withdrawn bool
}

// tourStandingsText renders the standings in a language.
func (w *work) tourStandingsText(t *tournament.Tournament, lang string) string {
	return w.tourText(lang, "standings", map[string]any{"id": t.ID, "round": len(t.Rounds), "rows": w.tourStandingRows(t),
		"tiebreaks": strings.Join(t.Tiebreaks, " "), "status": t.Status})
}

// tourStandingRows are the standings, formatted.
func (w *work) tourStandingRows(t *tournament.Tournament) []standingRow {
	var rows []standingRow
	for _, s := range t.Standings() {
		tb := make([]string, len(s.Tiebreaks))
		for i, x := range s.Tiebreaks {
			tb[i] = fmtNum(x)
		}
		name := s.Name
		if len(name) > 18 {
			name = name[:18]
		}
		rows = append(rows, standingRow{Place: s.Place, Name: name, Points: fmtNum(s.Points), Tiebreaks: strings.Join(tb, " "),
			Record: fmt.Sprintf("%d-%d-%d", s.Won, s.Drawn, s.Lost), Rating: w.ratingShort(t.Game, t.Entrants[s.Entrant].Address, t.Table),
			Withdrawn: s.Withdrawn})
	}
	return rows
}

func loadRating(tx *store.Tx, game, addr string) (tournament.Rating, error) {
	raw, err := tx.Rating(game, addr)
	if errors.Is(err, store.ErrNotFound) {
		return tournament.NewRating(game, addr), nil
	}
	if err != nil {
		return tournament.Rating{}, err
	}
	var r tournament.Rating
	err = json.Unmarshal(raw, &r)
	return r, err
}

// rateGame moves the ratings of a finished game's players.
func (w *work) rateGame(g *Game, rank []int) error {
	if len(g.Seats) < 2 || len(rank) != len(g.Seats) {
		return nil
	}
	rs := make([]tournament.Rating, len(g.Seats))
	for i, s := range g.Seats {
		r, err := loadRating(w.tx, g.Game, s.Address)
		if err != nil {
			return err
		}
		r.Name = s.greeting()
		rs[i] = r
	}
	for i, r := range tournament.RateGame(rs, rank) {
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if err := w.tx.PutRating(g.Game, g.Seats[i].Address, raw); err != nil {
			return err
		}
	}
	return nil
}

// ratingShort is the rating shown in standings: Glicko-2 for two-player
// tables, Weng-Lin's μ−3σ (times 40, on a scale like Elo's) for more; ""
// before the first rated game.
func (w *work) ratingShort(game, addr string, table int) string {
	r, err := loadRating(w.tx, game, addr)
	if err != nil {
		return ""
	}
	if table == 2 {
		if r.Duels == 0 {
			return ""
		}
		return fmt.Sprintf("%.0f", r.Glicko.R)
	}
	if r.Tables == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f", 1000+40*r.WengLin.Ordinal())
}

// ratingText answers RATING [game].
func (w *work) ratingText(p *Player, game string) string {
	var rows []map[string]any
	var names []string
	for _, eg := range engine.Games() {
		names = append(names, eg.Info().Name)
	}
	sort.Strings(names)
	for _, g := range names {
		if game != "" && g != game {
			continue
		}
		raw, err := w.tx.Rating(g, p.Address)
		if err != nil {
			continue
		}
		var r tournament.Rating
		if json.Unmarshal(raw, &r) != nil {
			continue
		}
		title := g
		if eg, err := lookupGame(g); err == nil {
			title = eg.Info().Title
		}
		rows = append(rows, map[string]any{"title": title, "duels": r.Duels, "tables": r.Tables,
			"r": fmt.Sprintf("%.0f", r.Glicko.R), "rd": fmt.Sprintf("%.0f", r.Glicko.RD),
			"mu": fmt.Sprintf("%.1f", r.WengLin.Mu), "sigma": fmt.Sprintf("%.1f", r.WengLin.Sigma),
			"ordinal": fmt.Sprintf("%.0f", 1000+40*r.WengLin.Ordinal())})
	}
	return w.tourText(p.Lang, "rating", map[string]any{"rows": rows, "game": game})
}

// tourPageURL is the public page of a tournament ("" if it has none).
func (w *work) tourPageURL(t *tournament.Tournament) string {
	return w.r.PageBase() + w.r.tourPagePath(t)
}

// pageData describes a tournament's pages to the organiser: public,
// listed, page (the address).
func (w *work) pageData(t *tournament.Tournament, data map[string]any) map[string]any {
	data["public"], data["listed"], data["page"] = t.Public, t.Listed, ""
	if t.Public {
		data["page"] = w.tourPageURL(t)
	}
	return data
}
