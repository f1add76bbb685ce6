package bymail

// The organiser's tournament commands: NEW TOURNAMENT, ENTER, START,
// STANDINGS, WITHDRAW, LATE, EXTEND, REPLACE, PUBLISH, SCHEDULE, HELP
// TOURNAMENT (FORFEIT and ADJUDICATE are in rounds.go).

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

var tourIDRe = regexp.MustCompile(`^[a-z][a-z0-9]{1,15}$`)

// tourHelpWords name the tournament help in each language (HELP TOURNAMENT,
// HELP TORNEO, HELP TOURNOI, HELP TOERNOOI), with the language they ask
// for when none is given.
var tourHelpWords = map[string]string{"TOURNAMENT": "en", "TOURNAMENTS": "en", "TORNEO": "it", "TORNEI": "it",
	"TOURNOI": "fr", "TOURNOIS": "fr", "TOERNOOI": "nl", "TOERNOOIEN": "nl"}

// tourOrg runs an organiser's tournament command. ok is false when the line
// is not one (it is then a game command).
func (d *desk) tourOrg(org string, f []string) (res string, ok bool, err error) {
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
		return d.tourText(lang, "org.help", map[string]any{"games": gameNames()}), true, nil
	case "NEW":
		if strings.ToUpper(arg(1)) != "TOURNAMENT" {
			return "", false, nil
		}
		res, err = d.newTournament(org, f[2:])
		return res, true, err
	case "FORFEIT", "ADJUDICATE":
		res, err = d.tourGameCommand(org, kw, f[1:])
		return res, true, err
	case "ENTER", "START", "STANDINGS", "WITHDRAW", "LATE", "EXTEND", "REPLACE", "PUBLISH", "SCHEDULE":
		if !d.rec.HasTournament(arg(1)) {
			if kw == "EXTEND" || kw == "REPLACE" || (kw == "PUBLISH" && d.h.GameExists(arg(1))) {
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
	t, err := loadTour(d.rec, arg(1))
	if err != nil {
		return "", true, err
	}
	if t.Organiser != org {
		return "", true, fmt.Errorf("tournament %s belongs to another organiser", t.ID)
	}
	switch kw {
	case "ENTER":
		inv, perr := d.h.ParseInvitee(f[2:])
		if perr != nil {
			return "", true, fmt.Errorf("usage: ENTER <tournament> <address> <name> [lang] [Area/City]")
		}
		p, err := d.h.EnsurePlayer(strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
		if err != nil {
			return "", true, err
		}
		if msg := d.tourJoin(t, &p); msg != "" {
			return "", true, errors.New(msg)
		}
		res = d.orgText(t, "entered", map[string]any{"address": p.Address, "entrants": len(t.Entrants)})
	case "START":
		if t.Status != tournament.StatusSignup {
			return "", true, fmt.Errorf("tournament %s is %s", t.ID, t.Status)
		}
		if err := d.tourStart(t); err != nil {
			return "", true, err
		}
		res = d.orgText(t, "started", map[string]any{"games": len(t.Rounds[0].Matches), "due": d.orgTime(t, t.Rounds[0].Due)})
	case "STANDINGS":
		return d.tourStandingsText(t, orgLang(t)), true, nil
	case "WITHDRAW":
		e := t.Entrant(arg(2))
		if e == nil {
			return "", true, fmt.Errorf("%s is not in %s", arg(2), t.ID)
		}
		if err := d.tourWithdraw(t, e); err != nil {
			return "", true, err
		}
		res = d.orgText(t, "withdrawn", map[string]any{"address": e.Address})
	case "LATE":
		return d.tourLateText(t, "late"), true, nil
	case "EXTEND":
		h, herr := d.h.ParseHours(arg(2))
		if herr != nil || len(t.Rounds) == 0 {
			return "", true, fmt.Errorf("usage: EXTEND <tournament> <hours> (a round must be open)")
		}
		rd := &t.Rounds[len(t.Rounds)-1]
		if rd.Due.IsZero() {
			rd.Due = d.now
		}
		rd.Due = rd.Due.Add(time.Duration(h * float64(time.Hour)))
		rd.LateSent = false
		rd.Warned = !t.WarnAt(*rd).After(d.now) // no warning in the past
		res = d.orgText(t, "extended", map[string]any{"round": rd.N, "due": d.orgTime(t, rd.Due)})
	case "REPLACE":
		e := t.Entrant(arg(2))
		inv, perr := d.h.ParseInvitee(f[3:])
		if e == nil || perr != nil {
			return "", true, fmt.Errorf("usage: REPLACE <tournament> <old address> <new address> <name> [lang]")
		}
		res, err = d.tourReplace(t, e, inv)
		if err != nil {
			return "", true, err
		}
	case "PUBLISH":
		switch arg(2) {
		case "listed":
			t.Public, t.Listed = true, true
		case "off":
			t.Public, t.Listed = false, false
		default:
			t.Public, t.Listed = true, false
		}
		res = d.orgText(t, "pages", d.pageData(t, map[string]any{}))
	case "SCHEDULE":
		res, err = d.tourSchedule(t, f[2:])
		if err != nil {
			return "", true, err
		}
	}
	return res, true, d.saveTour(t)
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
func (d *desk) orgText(t *tournament.Tournament, name string, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	data["id"] = t.ID
	if _, ok := data["rounds"]; !ok {
		data["rounds"] = t.PlannedRounds()
	}
	return d.tourText(orgLang(t), "org."+name, data)
}

// orgTime writes a time for the organiser: in the tournament's zone and
// the organiser's language ("" for a zero time).
func (d *desk) orgTime(t *tournament.Tournament, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return templates.FormatTime(orgLang(t), at.In(zone(t.TZ)))
}

// calendar lists the planned rounds' dates for a reader in a language and
// zone (rows n, opens, due, open): the rounds open so far, then the
// calendar's; it stops at the first round without a date.
func (d *desk) calendar(t *tournament.Tournament, lang string, loc *time.Location) []map[string]any {
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
func (d *desk) parseCalendarArgs(c *tournament.Calendar, args []string) (rest []string, err error) {
	dur := func(v string) (time.Duration, error) {
		h, err := d.h.ParseHours(v)
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
func (d *desk) tourSchedule(t *tournament.Tournament, args []string) (string, error) {
	if t.Status == tournament.StatusOver {
		return "", fmt.Errorf("tournament %s is over", t.ID)
	}
	c := t.Calendar
	rest, err := d.parseCalendarArgs(&c, args)
	if err != nil {
		return "", err
	}
	if len(rest) > 0 {
		return "", fmt.Errorf("usage: SCHEDULE <tournament> [start=<date>] [every=7d] [dates=<date>,<date>...] [open=schedule|complete] [warn=24h|off] [tz=<Area/City>]; not %q", strings.Join(rest, " "))
	}
	if at := c.RoundDate(1); t.Status == tournament.StatusSignup && !at.IsZero() && !at.After(d.now) {
		return "", fmt.Errorf("the first round's date %s is past", at.Format(time.RFC3339))
	}
	// The rounds already open keep their dates: dates= counts from round 1.
	t.Calendar = c
	if n := len(t.Rounds); n > 0 && !t.Rounds[n-1].Complete() && len(args) > 0 {
		// The open round's deadline follows the new calendar.
		rd := &t.Rounds[n-1]
		if due := t.RoundDue(rd.N, rd.Opened); !due.IsZero() {
			rd.Due, rd.LateSent = due, false
			rd.Warned = !t.WarnAt(*rd).After(d.now)
		}
	}
	if t.Status == tournament.StatusRunning {
		if err := d.tourAdvance(t); err != nil {
			return "", err
		}
	}
	return d.orgText(t, "schedule", map[string]any{"calendar": d.calendar(t, orgLang(t), zone(t.TZ)),
		"on_schedule": t.OnSchedule(), "warn": warnText(t), "tz": cmp.Or(t.TZ, "UTC"),
		"closes": d.orgTime(t, t.SignupCloses()), "signup": t.Status == tournament.StatusSignup}), nil
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
func (d *desk) newTournament(org string, args []string) (string, error) {
	usage := errors.New("usage: NEW TOURNAMENT <id> game=<game> [format=swiss|roundrobin|knockout|tables] [rounds=N] [table=K] [deadline=7d] [points=1,0.5,0] [tiebreaks=buchholz,sb,score,h2h] [close=YYYY-MM-DD] [start=YYYY-MM-DD every=7d | dates=YYYY-MM-DD,...] [open=schedule|complete] [public|listed] [lang=en|it|fr|nl]")
	if len(args) == 0 {
		return "", usage
	}
	id := strings.ToLower(args[0])
	if !tourIDRe.MatchString(id) {
		return "", fmt.Errorf("tournament id %q: a lower-case letter then letters or digits (2-16)", id)
	}
	if d.rec.HasTournament(id) || d.rec.HasGame(id) {
		return "", fmt.Errorf("%s already exists", id)
	}
	var s tournament.Settings
	rest, err := d.parseCalendarArgs(&s.Calendar, args[1:])
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
			h, err = d.h.ParseHours(v)
			s.Deadline = time.Duration(h * float64(time.Hour))
		case "points":
			s.Points, err = tournament.ParsePoints(v)
		case "tiebreaks":
			s.Tiebreaks = strings.Split(strings.ToLower(v), ",")
		case "close":
			s.Close, err = tournament.ParseDate(v, zone(s.TZ))
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
	eg, err := engine.Lookup(s.Game)
	if err != nil {
		return "", err
	}
	if err := tournament.Defaults(&s, eg.Info()); err != nil {
		return "", err
	}
	if at := s.RoundDate(1); !at.IsZero() && !at.After(d.now) {
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
	seed, err := d.h.RandomHex()
	if err != nil {
		return "", err
	}
	key, err := d.h.Secret()
	if err != nil {
		return "", err
	}
	t := &tournament.Tournament{ID: id, Organiser: org, Settings: s, Seed: seed, Commitment: engine.Commitment(seed),
		Status: tournament.StatusSignup, Key: key, Created: d.now}
	if err := d.saveTour(t); err != nil {
		return "", err
	}
	pts := s.Points
	if s.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *s.Draw, pts[1]}
	}
	return d.orgText(t, "created", d.pageData(t, map[string]any{"title": eg.Info().Title, "format": s.Format, "table": s.Table,
		"num_rounds": t.NumRounds, "points": fmtPoints(pts), "tiebreaks": strings.Join(s.Tiebreaks, ","),
		"commitment": t.Commitment, "closes": d.orgTime(t, t.SignupCloses()), "deadline": deadlineText(t), "late": t.Late,
		"calendar": d.calendar(t, orgLang(t), zone(t.TZ)), "on_schedule": t.OnSchedule(), "tz": cmp.Or(t.TZ, "UTC")})), nil
}
