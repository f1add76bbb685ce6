package bymail

// An entrant's tournament mail: its data (mailData), what the mails of
// one moment share (mailBase), and a round's mails (roundMailer).

import (
	"strings"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// mailData is the data of an entrant's tournament mail: templates
// subject, rules, calendar, commands and mail.<kind> of
// templates/tournament/<lang>/tournament.tmpl read its fields (issue 24:
// the map of 32 keys it was cost text/template about two allocations a
// key read, half of a round mail's; a field read by value costs none). A
// misspelt field fails in every language as a missing key did
// (missingkey=error): TestMailTemplatesReadMailData_Issue24 checks every
// field those templates read, in every branch, against this type.
type mailData struct {
	// The tournament's, alike in every mail of a moment (mailBase.tour),
	// whose fields the templates read as the mail's own.
	tourData
	Kind string
	// The reader's: their name and reply address, the calendar in their
	// language and zone (rows n, opens, due, open) and when sign-up
	// closes ("" but in sign-up).
	Name, PlayerAddress string
	Calendar            []map[string]any
	Closes              string
	// Round is the round the mail is of (0: the rounds drawn so far).
	Round int
	// Late: a late entry's confirmation says from which round.
	Late string
	// A round mail's: the organiser's correction (Audit: a REPAIR's), a
	// bye (Asked: asked for) or the game, its seat and the opponents,
	// when the round is due and the next opens (dueAt, nextAt in the
	// reader's zone and language; zero: ""), and the reader's excerpt of
	// the standings before it. Audit is a correction mail's too, and
	// Standings a standings or final mail's.
	Audit         string
	Asked, Bye    bool
	Game          string
	Opponents     []string
	Seat          int
	Due, Next     string
	dueAt, nextAt time.Time
	Standings     string
	Seed          string // the final mail's: the seed revealed
	Place, Cap    int    // a waiting list's: the reader's place, the cap
}

// tourData is the part of a mailData that is the tournament's: made once
// a batch (newMailBase) and set whole in each mail (tourMailAs), so that a
// field added to either part needs no copying by hand.
type tourData struct {
	ID, Title, Format                       string
	Table, Rounds                           int
	Points, Tiebreaks, Deadline, Commitment string
	SeedGiven, OnSchedule                   bool
	Page, ICS                               string
}

// tourMail mails an entrant (kind: confirm, round, standings, final,
// correction, waitlist) the data m.
func (d *desk) tourMail(t *tournament.Tournament, e tournament.Entrant, kind string, m mailData) {
	d.tourMailAs(t, e, kind, &m, d.newMailBase(t))
}

// mailBase is what every entrant's mail of a tournament says alike, for
// the mails of one moment (a round's: computed once, not once an entrant,
// issue 24), and what depends only on the reader's language and zone.
type mailBase struct {
	// tour holds the fields of mailData every mail sets alike.
	tour tourData
	// byZone are the calendars and sign-up's close in a language and a
	// zone, and zones the zones by name (templates.Zone reads a zone's
	// file each time).
	byZone map[calendarKey]*zoned
	zones  map[string]*time.Location
	// subjects are the mails' subjects by language, kind and round: the
	// same for every entrant (subjectKeys, issue 24: rendered once).
	subjects map[subjectKey]string
}

// zoned is what a mail says in a language and a zone alike.
type zoned struct {
	calendar []map[string]any
	closes   string
}

// calendarKey keys mailBase.byZone: a language and a zone.
type calendarKey struct{ lang, tz string }

// subjectKey keys mailBase.subjects (a struct: no string built a mail).
type subjectKey struct {
	lang, kind string
	round      int
}

// subjectKeys are the only fields a tournament mail's subject reads
// (templates/tournament/<lang>: "subject"; TestSubjectReadsOnlyItsKeys):
// ID and Title are the tournament's, so Kind and Round key it.
var subjectKeys = []string{"ID", "Kind", "Round", "Title"}

func (d *desk) newMailBase(t *tournament.Tournament) *mailBase {
	pts := t.Points
	if t.Draw != nil && len(pts) == 2 {
		pts = []float64{pts[0], *t.Draw, pts[1]}
	}
	b := &mailBase{tour: tourData{ID: t.ID, Title: t.Game, Format: t.Format, Table: t.Table, Rounds: t.PlannedRounds(),
		Points: fmtPoints(pts), Tiebreaks: strings.Join(t.Tiebreaks, ", "), Deadline: deadlineText(t),
		Commitment: t.Commitment, SeedGiven: t.SeedGiven, OnSchedule: t.OnSchedule(), ICS: d.tourICSURL(t)},
		byZone: map[calendarKey]*zoned{}}
	if eg, err := engine.Lookup(t.Game); err == nil {
		b.tour.Title = eg.Info().Title
	}
	if t.Public {
		b.tour.Page = d.tourPageURL(t)
	}
	return b
}

// zoned is what t's mails say in lang and zone tz alike, computed once
// each.
func (b *mailBase) zoned(d *desk, t *tournament.Tournament, lang, tz string) (*zoned, *time.Location) {
	loc, ok := b.zones[tz]
	if !ok {
		loc = templates.Zone(tz)
		if b.zones == nil {
			b.zones = map[string]*time.Location{}
		}
		b.zones[tz] = loc
	}
	key := calendarKey{lang, tz}
	z, ok := b.byZone[key]
	if !ok {
		z = &zoned{calendar: d.calendar(t, lang, loc)}
		if at := t.SignupCloses(); t.Status == tournament.StatusSignup && !at.IsZero() {
			z.closes = templates.FormatTime(lang, at.In(loc))
		}
		b.byZone[key] = z
	}
	return z, loc
}

// tourMailAs is tourMail with the mails' common part (b, of t as it is):
// m's own fields are the caller's, the tournament's and the reader's are
// set here.
func (d *desk) tourMailAs(t *tournament.Tournament, e tournament.Entrant, kind string, m *mailData, b *mailBase) {
	lang := readerLang(e.Lang)
	own := *m
	own.tourData, own.Kind, own.Name = b.tour, kind, e.Name
	if own.Round == 0 {
		own.Round = len(t.Rounds)
	}
	reply := d.h.ReplyTo(e.Address)
	own.PlayerAddress = reply.Address
	// Dates in the reader's zone and language.
	z, loc := b.zoned(d, t, lang, reply.TZ)
	own.Calendar, own.Closes = z.calendar, z.closes
	when := func(at time.Time) string {
		if at.IsZero() {
			return ""
		}
		return templates.FormatTime(lang, at.In(loc))
	}
	own.Due, own.Next = when(m.dueAt), when(m.nextAt)
	// By value, boxed once for both renders: a field of a struct behind a
	// pointer is copied to the heap each time text/template prints it.
	var data any = own
	skey := subjectKey{lang, kind, own.Round}
	subject, ok := b.subjects[skey]
	if !ok {
		subject = d.h.Render(lang, "subject", data)
		if b.subjects == nil {
			b.subjects = map[subjectKey]string{}
		}
		b.subjects[skey] = subject
	}
	mail := Mail{Tournament: t.ID, To: e.Address, ToName: e.Name, Reply: reply, Lang: lang,
		Subject: subject, Body: fitLines(d.h.Render(lang, "mail."+kind, data))}
	if err := d.h.MailEntrant(mail); err != nil {
		d.h.Warn("tournament mail", "tournament", t.ID, "to", e.Address, "err", err)
	}
}

// roundMailer writes the mails of round r of t, what they share made
// once: the mails' base, and the standings of the round just completed,
// which come with the next round's pairing (one mail a round, unless
// they went out when it completed, the next round waiting for its
// date); each entrant's shows their part of the table.
type roundMailer struct {
	d    *desk
	t    *tournament.Tournament
	r    int
	done *standings
	base *mailBase
}

func (d *desk) newRoundMailer(t *tournament.Tournament, r int) *roundMailer {
	m := &roundMailer{d: d, t: t, r: r, base: d.newMailBase(t)}
	if n := t.Rounds[r].N; n > 1 && !t.Rounds[n-2].Told {
		m.done = d.doneStandings(t, n-1)
	}
	return m
}

// mail sends entrant e, seated at match k (-1: none), the round's mail
// (none once e has withdrawn).
func (m *roundMailer) mail(e tournament.Entrant, k int) {
	d, t := m.d, m.t
	if w := e.Withdrawn; w != 0 && t.Rounds[m.r].N >= w {
		return
	}
	var data mailData
	d.roundDataAt(&data, t, m.r, e.ID, k)
	if m.done != nil {
		data.Standings = d.excerpt(m.done, e.ID, e.Lang)
	}
	if d.repair != nil {
		data.Audit = d.repair.audit(d, e.ID, readerLang(e.Lang))
	}
	d.tourMailAs(t, e, "round", &data, m.base)
}
