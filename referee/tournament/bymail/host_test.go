package bymail

import (
	"cmp"
	"errors"
	"github.com/pbem-referee/referee/referee/tournament/bymail/tourrec"
	"slices"
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// testHost is a Host for the desk's own tests: the templates, a clock and
// records in memory; the games and mail are the core's (its tests drive
// the desk through the referee).
type testHost struct {
	t   testing.TB
	now time.Time
	tpl *templates.Set
	rec *memRecords
	// kept: the tests read the records once a command is done (flush).
	kept tourrec.Kept
	// pre is the round drawn outside the write lock (Predrawn).
	pre *Drawn
	// renders counts the templates rendered, by name (nil: not counted).
	renders map[string]int
}

var errNotFound = errors.New("not found")

func newTestHost(t testing.TB, now time.Time) *testHost {
	tpl, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &testHost{t: t, now: now, tpl: tpl, rec: newMemRecords()}
}

func (h *testHost) Now() time.Time            { return h.now }
func (h *testHost) Records() Records          { return h.rec }
func (h *testHost) IsNotFound(err error) bool { return errors.Is(err, errNotFound) }
func (h *testHost) GameExists(string) bool    { return false }
func (h *testHost) PageBase() string          { return "https://referee.example.org" }
func (h *testHost) Warn(msg string, kv ...any) {
	h.t.Errorf("warning: %s %v", msg, kv)
}

func (h *testHost) Render(lang, name string, data any) string {
	c := templates.Ctx{Lang: lang, Game: "tournament", Seat: -1, Data: data,
		Word: func(kw string) string { return h.tpl.Word("tournament", lang, kw) },
		Arg:  func(w string) string { return h.tpl.ArgWord("tournament", lang, w) }}
	s, err := h.tpl.Render("tournament", lang, name, c)
	if err != nil {
		h.t.Errorf("%s: %v", name, err)
	}
	if h.renders != nil {
		h.renders[name]++
	}
	return s
}

func (h *testHost) Word(lang, kw string) string            { return h.tpl.Word("referee", lang, kw) }
func (h *testHost) AnswerLang() string                     { return "" }
func (h *testHost) RuleText(_, _ string, err error) string { return err.Error() }

// The games, players and mail are the core's.
func (h *testHost) Game(string) (GameInfo, error)                  { panic("testHost: no games") }
func (h *testHost) OpenGame(NewGame) error                         { panic("testHost: no games") }
func (h *testHost) CloseGame(string, string, ...any) error         { panic("testHost: no games") }
func (h *testHost) Adjudicate(string) (*Result, error)             { panic("testHost: no games") }
func (h *testHost) ReplaceSeat(string, string, Invitee) error      { panic("testHost: no games") }
func (h *testHost) EnsurePlayer(a, n, l, z string) (Player, error) { panic("testHost: no players") }
func (h *testHost) ReplyTo(string) Reply                           { panic("testHost: no players") }
func (h *testHost) MailEntrant(Mail) error                         { panic("testHost: no mail") }
func (h *testHost) MailOrganiser(string, string, string) error     { panic("testHost: no mail") }
func (h *testHost) Secret() (string, error)                        { return "secret", nil }
func (h *testHost) MaxEntrants() int                               { return 2048 }
func (h *testHost) MaxOptionBytes() int                            { return 200 }
func (h *testHost) RandomHex() (string, error)                     { return "00", nil }
func (h *testHost) ParseInvitee([]string) (Invitee, error)         { panic("testHost: no parsing") }
func (h *testHost) ParseHours(string) (float64, error)             { panic("testHost: no parsing") }
func (h *testHost) Undo(key string, err error) error               { return err }
func (h *testHost) Undone(string) (string, bool)                   { return "", false }
func (h *testHost) Kept() *tourrec.Kept                            { return &h.kept }
func (h *testHost) Predrawn(string) *Drawn                         { return h.pre }
func (h *testHost) OpenLater(string, bool)                         {}
func (h *testHost) OpenBatch() int                                 { return 0 }

// flush writes the tournaments the desk kept, as the core does at the end
// of a unit of work.
func (h *testHost) flush() {
	if err := h.kept.Flush(h.rec, h.now); err != nil {
		h.t.Fatal(err)
	}
}

// memRecords are the store's records in memory, with the store's rules
// of match records: PutTournament deletes a tournament's (the fold).
type memRecords struct {
	tours, ratings map[string][]byte
	// matches are the match records by tournament, then round and match.
	matches map[string]map[[2]int][]byte
	wakes   map[string]time.Time
	// byGame is the index of the tournaments' games (nil: none).
	byGame map[string]string
	// puts and matchPuts count the whole records and match records
	// written.
	puts, matchPuts int
}

func newMemRecords() *memRecords {
	return &memRecords{tours: map[string][]byte{}, ratings: map[string][]byte{},
		matches: map[string]map[[2]int][]byte{}, wakes: map[string]time.Time{}}
}

func (m *memRecords) Tournament(id string) ([]byte, error) {
	if b, ok := m.tours[id]; ok {
		return b, nil
	}
	return nil, errNotFound
}
func (m *memRecords) PutTournament(id string, rec []byte) error {
	m.tours[id] = rec
	delete(m.matches, id)
	m.puts++
	return nil
}
func (m *memRecords) HasTournament(id string) bool { return m.tours[id] != nil }
func (m *memRecords) Tournaments(fn func(string, []byte) error) error {
	for id, b := range m.tours {
		if err := fn(id, b); err != nil {
			return err
		}
	}
	return nil
}
func (m *memRecords) PutTournamentMatch(id string, r, k int, rec []byte) error {
	if m.matches[id] == nil {
		m.matches[id] = map[[2]int][]byte{}
	}
	m.matches[id][[2]int{r, k}] = rec
	m.matchPuts++
	return nil
}
func (m *memRecords) TournamentMatches(id string, fn func(int, int, []byte) error) error {
	keys := make([][2]int, 0, len(m.matches[id]))
	for k := range m.matches[id] {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, k := range keys {
		if err := fn(k[0], k[1], m.matches[id][k]); err != nil {
			return err
		}
	}
	return nil
}
func (m *memRecords) GameTournament(g string) string { return m.byGame[g] }
func (m *memRecords) HasGame(string) bool            { return false }
func (m *memRecords) SetWake(key string, at time.Time) error {
	if at.IsZero() {
		delete(m.wakes, key)
	} else {
		m.wakes[key] = at
	}
	return nil
}
func (m *memRecords) Wake(key string) time.Time { return m.wakes[key] }
func (m *memRecords) Rating(g, a string) ([]byte, error) {
	if b, ok := m.ratings[g+"\x00"+a]; ok {
		return b, nil
	}
	return nil, errNotFound
}
func (m *memRecords) PutRating(g, a string, rec []byte) error {
	m.ratings[g+"\x00"+a] = rec
	return nil
}
