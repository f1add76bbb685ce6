package bymail

// The organiser's tournament commands, one handler a keyword: NEW
// TOURNAMENT, ENTER, START, STANDINGS, WITHDRAW, LATE, EXTEND, REPLACE,
// PUBLISH, SCHEDULE, HELP TOURNAMENT (FORFEIT and ADJUDICATE are in
// rounds.go; the table in commands.go).

import (
	"cmp"
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

// orgHelp answers HELP TOURNAMENT in any language (HELP TORNEO, HELP
// TOURNOI, HELP TOERNOOI: templates/tournament/*/args.txt), in the
// language of the word when none is given.
func orgHelp(c *orgCmd) (string, error) {
	set, err := templates.Load()
	if err != nil {
		return "", err
	}
	word, lang := set.ArgLanguage("tournament", c.arg(1))
	if word != "TOURNAMENT" {
		return "", errNotMine // the organiser's general help
	}
	if templates.IsLanguage(c.arg(2)) {
		lang = c.arg(2)
	}
	return c.d.tourText(lang, "org.help", map[string]any{"games": gameNames()}), nil
}

func orgNewTournament(c *orgCmd) (string, error) {
	if strings.ToUpper(c.arg(1)) != "TOURNAMENT" {
		return "", errNotMine // NEW <game>
	}
	return c.d.newTournament(c, c.f[2:])
}

func orgEnter(c *orgCmd) (string, error) {
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	inv, err := c.d.h.ParseInvitee(c.f[2:])
	if err != nil {
		return "", c.usage()
	}
	p, err := c.d.h.EnsurePlayer(strings.ToLower(inv.Address), inv.Name, inv.Lang, inv.TZ)
	if err != nil {
		return "", err
	}
	if e := c.d.tourEnter(t, &p, true); e != nil {
		return "", e
	}
	if place := t.WaitingPlace(p.Address); place > 0 {
		return c.saved(t, c.d.orgText(t, "waitlisted", map[string]any{"address": p.Address, "place": place, "cap": t.Cap}))
	}
	if e := t.Entrants[len(t.Entrants)-1]; e.Joined > 0 {
		return c.saved(t, c.d.tourText(orgLang(t), "audit.late", map[string]any{"name": e.Name, "from": e.Joined}))
	}
	return c.saved(t, c.d.orgText(t, "entered", map[string]any{"address": p.Address, "entrants": len(t.Entrants)}))
}

func orgStart(c *orgCmd) (string, error) {
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	if t.Status != tournament.StatusSignup {
		return "", fail("status", "id", t.ID, "status", t.Status)
	}
	if err := c.d.tourStart(t); err != nil {
		return "", err
	}
	return c.saved(t, c.d.orgText(t, "started", map[string]any{"games": len(t.Rounds[0].Matches), "due": c.d.orgTime(t, t.Rounds[0].Due)}))
}

func orgStandings(c *orgCmd) (string, error) {
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	return c.d.tourStandingsText(t, orgLang(t)), nil
}

func orgWithdraw(c *orgCmd) (string, error) {
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	if place := t.WaitingPlace(c.arg(2)); place > 0 { // off the waiting list
		t.Waitlist = append(t.Waitlist[:place-1:place-1], t.Waitlist[place:]...)
		return c.saved(t, c.d.orgText(t, "withdrawn", map[string]any{"address": c.arg(2)}))
	}
	e := t.Entrant(c.arg(2))
	if e == nil {
		return "", fail("no_entrant", "who", c.arg(2), "id", t.ID)
	}
	if err := c.d.tourWithdraw(t, e); err != nil {
		return "", err
	}
	return c.saved(t, c.d.orgText(t, "withdrawn", map[string]any{"address": e.Address}))
}

// orgLate answers LATE <tournament>: the open round's games not over,
// and whether its deadline is coming (with the time left) or has passed
// (how long ago); during sign-up, when sign-up closes.
func orgLate(c *orgCmd) (string, error) {
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	if t.Status == tournament.StatusSignup {
		at := t.SignupCloses()
		data := map[string]any{"closes": c.d.orgTime(t, at), "left": "", "ago": "", "entrants": len(t.Entrants),
			"cap": t.Cap, "waiting": len(t.Waitlist)}
		if !at.IsZero() {
			data["left"], data["ago"] = c.d.span(t, at)
		}
		return c.d.orgText(t, "late_signup", data), nil
	}
	kind := "late"
	if n := len(t.Rounds); n > 0 && (t.Rounds[n-1].Due.IsZero() || c.d.now.Before(t.Rounds[n-1].Due)) {
		kind = "warn"
	}
	return c.d.tourLateText(t, kind), nil
}

// span says how far at is from now in the organiser's language: (left,
// "") before it, ("", ago) after it.
func (d *desk) span(t *tournament.Tournament, at time.Time) (left, ago string) {
	dt := at.Sub(d.now)
	past := dt < 0
	if past {
		dt = -dt
	}
	mins := int(dt.Round(time.Minute) / time.Minute)
	s := d.tourText(orgLang(t), "span", map[string]any{"days": mins / (24 * 60), "hours": mins / 60 % 24, "mins": mins % 60})
	if past {
		return "", s
	}
	return s, ""
}

// orgExtend moves the open round's deadline (EXTEND of a game when the
// line names no tournament).
func orgExtend(c *orgCmd) (string, error) {
	t, err := c.tour(notMine)
	if err != nil {
		return "", err
	}
	h, err := c.d.h.ParseHours(c.arg(2))
	if err != nil {
		return "", c.usage()
	}
	if len(t.Rounds) == 0 {
		return "", &worded{text: c.d.orgText(t, "no_round", nil)}
	}
	rd := &t.Rounds[len(t.Rounds)-1]
	if rd.Due.IsZero() {
		rd.Due = c.d.now
	}
	rd.Due = rd.Due.Add(time.Duration(h * float64(time.Hour)))
	rd.LateSent = false
	rd.Warned = !t.WarnAt(*rd).After(c.d.now) // no warning in the past
	return c.saved(t, c.d.orgText(t, "extended", map[string]any{"round": rd.N, "due": c.d.orgTime(t, rd.Due)}))
}

// orgReplace hands an entrant's place to another player (REPLACE of a
// game's seat when the line names no tournament).
func orgReplace(c *orgCmd) (string, error) {
	t, err := c.tour(notMine)
	if err != nil {
		return "", err
	}
	e := t.Entrant(c.arg(2))
	inv, perr := c.d.h.ParseInvitee(c.f[min(3, len(c.f)):])
	if e == nil || perr != nil {
		return "", c.usage()
	}
	res, err := c.d.tourReplace(t, e, inv)
	if err != nil {
		return "", err
	}
	return c.saved(t, res)
}

// orgPublish sets a tournament's pages (PUBLISH of a game when the line
// names a game).
func orgPublish(c *orgCmd) (string, error) {
	t, err := c.tour(func() error {
		if c.arg(1) == "" {
			return c.usage()
		}
		if c.d.h.GameExists(c.arg(1)) {
			return errNotMine
		}
		return fail("no_tournament_game", "id", c.arg(1))
	})
	if err != nil {
		return "", err
	}
	switch c.arg(2) {
	case "listed":
		t.Public, t.Listed = true, true
	case "off":
		t.Public, t.Listed = false, false
		// Issue 23: the old address is revoked for good (it may have
		// leaked); a later PUBLISH shows a new one.
		key, err := c.d.h.Secret()
		if err != nil {
			return "", err
		}
		t.Key = key
	default:
		t.Public, t.Listed = true, false
	}
	return c.saved(t, c.d.orgText(t, "pages", c.d.pageData(t, map[string]any{})))
}

func orgSchedule(c *orgCmd) (string, error) {
	t, err := c.tour(nil)
	if err != nil {
		return "", err
	}
	res, err := c.d.tourSchedule(c, t, c.f[2:])
	if err != nil {
		return "", err
	}
	return c.saved(t, res)
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
// organiser's language, its lines longer than 80 columns folded (long
// addresses, names and ids: TestEveryOrganiserMailFits).
func (d *desk) orgText(t *tournament.Tournament, name string, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	data["id"] = t.ID
	if _, ok := data["rounds"]; !ok {
		data["rounds"] = t.PlannedRounds()
	}
	return templates.Fold(d.tourText(orgLang(t), "org."+name, data))
}

// orgTime writes a time for the organiser: in the tournament's zone and
// the organiser's language ("" for a zero time).
func (d *desk) orgTime(t *tournament.Tournament, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return templates.FormatTime(orgLang(t), at.In(templates.Zone(t.TZ)))
}

// calendar lists the planned rounds' dates for a reader in a language and
// zone (rows n, opens, due, open): the rounds open so far, then the
// calendar's; it stops at the first round without a date.
func (d *desk) calendar(t *tournament.Tournament, lang string, loc *time.Location) []map[string]any {
	var out []map[string]any
	planned := t.PlannedRounds()
	for n := 1; n <= planned; n++ {
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
				if tournament.AsFault(err) == nil { // the core's ParseHours
					err = fail("duration", "value", v)
				}
				return nil, fail("setting", "arg", a, "error", err)
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
func (d *desk) tourSchedule(oc *orgCmd, t *tournament.Tournament, args []string) (string, error) {
	if t.Status == tournament.StatusOver {
		return "", fail("over", "id", t.ID)
	}
	c := t.Calendar
	rest, err := d.parseCalendarArgs(&c, args)
	if err != nil {
		return "", err
	}
	if len(rest) > 0 {
		return "", &usageError{fmt.Sprintf("%v; not %q", oc.usage(), strings.Join(rest, " "))}
	}
	if at := c.RoundDate(1); t.Status == tournament.StatusSignup && !at.IsZero() && !at.After(d.now) {
		return "", fail("past", "date", d.orgTime(t, at))
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
	return d.orgText(t, "schedule", map[string]any{"calendar": d.calendar(t, orgLang(t), templates.Zone(t.TZ)),
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
// [listed] [lang=] [seed=] [start=] [every=] [dates=] [open=] [warn=]
// [tz=] [option=value]...". seed= is the draws' seed, the organiser's to
// reproduce a draw (issue 24); without it the seed is random.
func (d *desk) newTournament(c *orgCmd, args []string) (string, error) {
	org, usage := c.org, c.usage()
	if len(args) == 0 {
		return "", usage
	}
	id := strings.ToLower(args[0])
	if !tourIDRe.MatchString(id) {
		return "", fail("bad_id", "id", id)
	}
	if d.rec.HasTournament(id) || d.rec.HasGame(id) {
		return "", fail("exists", "id", id)
	}
	var s tournament.Settings
	seed := "" // seed=: the organiser's, to reproduce a draw
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
			if err != nil || s.NumRounds < 1 || s.NumRounds > 100 {
				err = fail("range", "value", v, "min", 1, "max", 100)
			}
		case "table":
			s.Table, err = strconv.Atoi(v)
			if err != nil || s.Table < 2 || s.Table > 100 {
				err = fail("range", "value", v, "min", 2, "max", 100)
			}
		case "cap":
			s.Cap, err = strconv.Atoi(v)
			if err != nil || s.Cap < 2 || s.Cap > d.h.MaxEntrants() {
				err = fail("range", "value", v, "min", 2, "max", d.h.MaxEntrants())
			}
		case "deadline":
			var h float64
			h, err = d.h.ParseHours(v)
			if err != nil {
				err = fail("duration", "value", v)
			}
			s.Deadline = time.Duration(h * float64(time.Hour))
		case "points":
			s.Points, err = tournament.ParsePoints(v)
		case "tiebreaks":
			s.Tiebreaks = strings.Split(strings.ToLower(v), ",")
		case "close":
			s.Close, err = tournament.ParseDate(v, templates.Zone(s.TZ))
		case "late":
			s.Late = strings.ToLower(v)
		case "variant":
			s.Variant = v
		case "lang":
			s.OrgLang = strings.ToLower(v)
			if !templates.IsLanguage(s.OrgLang) {
				err = fail("lang", "value", v)
			} else if c.d.h.AnswerLang() == "" {
				c.lang = s.OrgLang
			}
		case "seed":
			seed = v
			if m := c.d.h.MaxOptionBytes(); v == "" || len(v) > m {
				return "", fail("seed", "value", truncate(v, 20), "max", m)
			}
		case "public":
			s.Public = true
		case "listed":
			s.Public, s.Listed = true, true
		default:
			if m := c.d.h.MaxOptionBytes(); len(k) > m || len(v) > m { // issue 23: bounded
				return "", fail("option_long", "key", truncate(k, 20), "max", m)
			}
			if s.Options == nil {
				s.Options = map[string]string{}
			}
			s.Options[k] = v
		}
		if err != nil {
			return "", fail("setting", "arg", a, "error", err)
		}
	}
	if s.Game == "" {
		return "", usage
	}
	eg, err := engine.Lookup(s.Game)
	if err != nil {
		return "", fail("no_game", "game", s.Game, "games", strings.Join(gameNames(), ", "))
	}
	if err := tournament.Defaults(&s, eg.Info()); err != nil {
		return "", err
	}
	if at := s.RoundDate(1); !at.IsZero() && !at.After(d.now) {
		return "", fail("past", "date", templates.FormatTime(c.lang, at.In(templates.Zone(s.TZ))))
	}
	// The game options apply to every game: check them once now.
	seats := make([]string, s.Table)
	for i := range seats {
		seats[i] = fmt.Sprintf("p%d", i+1)
	}
	if _, _, err := eg.NewState(engine.Config{Variant: s.Variant, Options: s.Options, Seats: seats, Seed: "check"}); err != nil {
		// The engine's refusal is a code (engine.RuleError), worded in
		// the game's scope by the core (Host.RuleText).
		// Any other error is the core's failure, worded by its class (its
		// text to the log): never the error's own words (issue 24).
		if _, ok := engine.AsRuleError(err); !ok {
			return "", err
		}
		return "", fail("options", "game", s.Game, "error", d.h.RuleText(c.lang, s.Game, err))
	}
	given := seed != ""
	if !given {
		if seed, err = d.h.RandomHex(); err != nil {
			return "", err
		}
	}
	key, err := d.h.Secret()
	if err != nil {
		return "", err
	}
	t := &tournament.Tournament{ID: id, Organiser: org, Settings: s, Seed: seed, Commitment: engine.Commitment(seed),
		Status: tournament.StatusSignup, Key: key, Created: d.now, SeedGiven: given}
	if err := d.saveTour(t); err != nil {
		return "", err
	}
	pts := s.Points
	if s.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *s.Draw, pts[1]}
	}
	return d.orgText(t, "created", d.pageData(t, map[string]any{"title": eg.Info().Title, "format": s.Format, "table": s.Table,
		"num_rounds": t.NumRounds, "points": fmtPoints(pts), "tiebreaks": strings.Join(s.Tiebreaks, ","),
		"commitment": t.Commitment, "seed_given": given, "closes": d.orgTime(t, t.SignupCloses()), "deadline": deadlineText(t), "late": t.Late,
		"calendar": d.calendar(t, orgLang(t), templates.Zone(t.TZ)), "on_schedule": t.OnSchedule(), "tz": cmp.Or(t.TZ, "UTC")})), nil
}
