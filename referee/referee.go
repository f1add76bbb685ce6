package referee

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/guard"
	"github.com/pbem-referee/referee/referee/reading"
	"github.com/pbem-referee/referee/referee/records"
	"github.com/pbem-referee/referee/referee/seating"
	"github.com/pbem-referee/referee/referee/spec"
	"github.com/pbem-referee/referee/referee/tournament/bymail"
	"github.com/pbem-referee/referee/store"
)

// Options configure a Referee.
type Options struct {
	DB *store.DB
	// Clock is the time source (SystemClock if nil).
	Clock Clock
	// Domain, Local and Name make the referee's address: Name <Local@Domain>.
	Domain string
	Local  string
	Name   string
	// Organisers maps organiser addresses (lower case) to their secrets.
	Organisers map[string]string
	// Renderer renders the words (loaded from templates if nil).
	Renderer *Renderer
	// Compose turns an outgoing mail into message bytes for the outbox
	// (mailmsg.Compose through an adapter; tests use a recorder).
	Compose func(*Outgoing) ([]byte, error)
	// Kick is called after a commit that queued outgoing mail.
	Kick func()
	// Policy is the default deadline policy of new games.
	Policy *Policy
	// Random is the source of secrets, seeds and game ids (crypto/rand if
	// nil; tests pass a deterministic reader).
	Random io.Reader
	Logger *slog.Logger
	// RateLimit is the number of messages per RateWindow of each budget
	// (0: 60; negative: no limit). Mail that authenticates (a seat's, a
	// player's or an organiser's secret, from the registered address) is
	// counted per seat or player, after the check: beyond the limit it is
	// still processed, and answered at most once more in the window.
	// Mail that does not authenticate has its own budget per From address,
	// which never touches a seat's: beyond it, it is ignored.
	RateLimit int
	// MaxOrders and MaxInfo cap the orders and the informational commands
	// (HELP, STATUS, RULE, LOG, LIST, OBSERVE, SAY) read from one mail
	// (0: DefaultMaxOrders, DefaultMaxInfo); MaxReplyBytes caps the body
	// of any mail the referee sends (0: DefaultMaxReplyBytes).
	MaxOrders, MaxInfo, MaxReplyBytes int
	// RateWindow is the window of RateLimit (0: one hour).
	RateWindow time.Duration
	// KeepInbound is how long de-duplication records are kept (0: 90 days).
	KeepInbound time.Duration
	// ReceiptWindow is how long a receipt that asks nothing waits to ride
	// in the player's next mail before it is sent alone (receipts.go;
	// 0 or less: sent at once, the behaviour tests rely on; the
	// configuration's default is DefaultReceiptWindow).
	ReceiptWindow time.Duration
	// DefaultHooks receive the calls of every game, besides the game's own
	// hooks (the configuration's [hooks] url and secret).
	DefaultHooks []Hook
	// PageBase is the public address of the HTTP listener, for the links
	// to tournament and game pages ("": relative links).
	PageBase string
	// Observe, if set, is told about every processed input (for metrics).
	// It runs after the commit and must not block.
	Observe func(Observation)
	// RegisterNeedsAuth: an untagged REGISTER is answered only when its
	// sender is authenticated (Request.Authenticated); otherwise nothing
	// is sent, so forged REGISTERs make no mail to third parties (issue
	// 23, no backscatter). ConfirmsPerHour is the global hourly budget of
	// REGISTER answers (0: DefaultConfirmsPerHour; negative: no limit).
	RegisterNeedsAuth bool
	ConfirmsPerHour   int
	// MaxEntrants caps a tournament's entrants (0: DefaultMaxEntrants):
	// beyond it JOIN and ENTER are refused (issue 23).
	MaxEntrants int
}

// DefaultConfirmsPerHour is the default global hourly budget of REGISTER
// answers (issue 23).
const DefaultConfirmsPerHour = 60

// Referee runs games. It is safe for concurrent use: every input is one
// store transaction, and bbolt serialises writers. A unit of work applies
// the input (work.request, settle), tells (package referee/tell
// renders, enqueue composes) and persists (flush); a seat's input does all
// that on a snapshot first and only commits under the write lock
// (speculate.go).
type Referee struct {
	// The rooms of the Referee's API (issue 25), each a type with the
	// methods of its job, bound to this Referee (bind): the queries
	// (query.go, export.go), the public pages' data (gamepages.go), the
	// organisers' door (organiser.go, lifecycle.go) and the mail that is
	// set aside or answers by itself (intake.go, abuse.go). What is left
	// on Referee is the core: Process, Tick and the unit of work.
	queries
	pageQueries
	organisers
	asides
	// storeQueries: the store-only answers (package referee/ledger:
	// Counts, QueueSize, QueueReply, UseReplayToken).
	storeQueries

	opt    Options
	db     *store.DB
	clock  Clock
	render *Renderer
	log    *slog.Logger
	// rate counts authenticated mail per seat or player, anon the rest
	// per From address, notice the "slow down" notes (one per window).
	rate, anon, notice *rateLimiter
	// bounceAlerts limits the organiser alerts about bounces; confirms
	// the REGISTER answers (one global budget per hour, issue 23).
	bounceAlerts, confirms *rateLimiter
	// listNotes: one note a day per player about mail from a list
	// (issue 23).
	listNotes *rateLimiter
	*shared
	// random is opt.Random, able to take back what a failed speculation
	// drew (speculate.go).
	random *spec.Random
	// verpKey is the store's secret key of the VERP ids (mailmsg.BounceID),
	// made from crypto/rand (not Options.Random: it seeds tests' games).
	verpKey []byte
	// noSpec turns speculation off; specHook, in tests, runs between a
	// speculation and its commit.
	noSpec   bool
	specHook func()
	// undone are the operations a unit of work runs without, on a view of
	// the Referee for one run (undo.go).
	undone map[string]string
	// predrawn are the tournament rounds drawn outside the write lock
	// for one input, on its views of the Referee (desk.go: predrawOrg).
	predrawn map[string]*bymail.Drawn
	// openGameHook, in tests, runs before a tournament game is opened (a
	// failure it returns is the opening's).
	openGameHook func(id string) error
	openBatch    int // in tests: a tournament round's games a unit of work opens
	// tickUnit is the work of each of Tick's transactions (tickGames; a test's seam).
	tickUnit func(w *work, ids []string) error
}

// The rooms of the Referee: each embeds the Referee it serves, so that
// its methods read the Referee's fields as the Referee's own would.
type (
	queries    struct{ *Referee }
	organisers struct{ *Referee }
	asides     struct{ *Referee }
)

// bind points the rooms of r at r: after New, and on every copy of a
// Referee made as a view (speculate.go, undo.go), so that a view's rooms
// are the view's.
func (r *Referee) bind() {
	r.queries, r.pageQueries, r.organisers, r.asides = queries{r}, pageQueries{Core: pageCore{r}}, organisers{r}, asides{r}
	r.storeQueries = storeQueries{DB: r.db}
}

// shared is the Referee's mutable state that a speculation's view of the
// referee (speculate.go) shares with it.
type shared struct {
	randMu sync.Mutex
	// orgHello: when each organiser last got their address back for a
	// mail to the plain address (see orgHello).
	orgHello guard.Throttle
}

// New returns a Referee.
func New(opt Options) (*Referee, error) {
	if opt.DB == nil {
		return nil, errors.New("referee: no store")
	}
	if opt.Domain == "" {
		return nil, errors.New("referee: no domain")
	}
	if opt.Local == "" {
		opt.Local = "referee"
	}
	if opt.Name == "" {
		opt.Name = "Referee"
	}
	if opt.Clock == nil {
		opt.Clock = SystemClock{}
	}
	if opt.Random == nil {
		opt.Random = rand.Reader
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Policy == nil {
		p := DefaultPolicy()
		opt.Policy = &p
	}
	if opt.RateLimit == 0 {
		opt.RateLimit = 60
	}
	if opt.KeepInbound == 0 {
		opt.KeepInbound = 90 * 24 * time.Hour
	}
	if opt.Compose == nil {
		return nil, errors.New("referee: no Compose function")
	}
	orgs := map[string]string{}
	for a, s := range opt.Organisers {
		orgs[strings.ToLower(a)] = s
	}
	opt.Organisers = orgs
	r := &Referee{opt: opt, db: opt.DB, clock: opt.Clock, render: opt.Renderer, log: opt.Logger,
		shared: &shared{}, tickUnit: tickGames}
	r.bind()
	if r.render == nil {
		var err error
		if r.render, err = NewRenderer(); err != nil {
			return nil, err
		}
	}
	if opt.RateWindow <= 0 {
		opt.RateWindow = time.Hour
	}
	if opt.MaxOrders <= 0 {
		opt.MaxOrders = DefaultMaxOrders
	}
	if opt.MaxInfo <= 0 {
		opt.MaxInfo = DefaultMaxInfo
	}
	if opt.MaxReplyBytes <= 0 {
		opt.MaxReplyBytes = DefaultMaxReplyBytes
	}
	r.random = spec.NewRandom(opt.Random)
	opt.Random = r.random
	r.opt = opt
	r.rate = newRateLimiter(opt.RateLimit, opt.RateWindow)
	r.anon = newRateLimiter(opt.RateLimit, opt.RateWindow)
	r.notice = newRateLimiter(1, opt.RateWindow)
	r.bounceAlerts = newRateLimiter(3, 24*time.Hour)
	if opt.MaxEntrants <= 0 {
		opt.MaxEntrants = DefaultMaxEntrants
	}
	if opt.ConfirmsPerHour == 0 {
		opt.ConfirmsPerHour = DefaultConfirmsPerHour
	}
	r.confirms = newRateLimiter(opt.ConfirmsPerHour, time.Hour) // negative: no limit
	r.listNotes = newRateLimiter(1, 24*time.Hour)
	if err := records.EnsureGameIndex(r.db); err != nil {
		return nil, err
	}
	var err error
	r.verpKey, err = r.db.SecretKey("verp", 32, rand.Reader)
	return r, err
}

// PageBase is the public address of the pages ("" when unknown).
func (r *Referee) PageBase() string { return strings.TrimRight(r.opt.PageBase, "/") }

// Address returns the referee's plain address.
func (r *Referee) Address() string { return r.opt.Local + "@" + r.opt.Domain }

// secret returns a new random secret, prefix first (seating.SecretText).
func (r *Referee) secret(prefix string) (string, error) {
	r.randMu.Lock()
	defer r.randMu.Unlock()
	var b [10]byte
	if _, err := io.ReadFull(r.opt.Random, b[:]); err != nil {
		return "", err
	}
	return seating.SecretText(prefix, b), nil
}

// Request is one inbound command message, already parsed by a transport:
// who sent it, which tag it carried, and its command text.
type Request struct {
	// From is the sender's address and FromName the display name.
	From     string
	FromName string
	// Kind is the tag kind: "seat", "player", "org", or "" (no tag).
	Kind   RequestKind
	Game   string
	Seat   int
	Secret string
	// Token is the state token the message answers (-1 unknown).
	Token int
	// Text is the player's own command text (quotes and signatures removed).
	Text string
	// MessageID of the message (threading) and the de-duplication Keys
	// (including "msgid:<Message-ID>").
	MessageID string
	Keys      []string
	Source    string
	Received  time.Time
	// Read says what the transport left out of the message to find the
	// commands (quotes, signatures, text outside #begin/#end), so that the
	// reply can tell the player; nil when nothing is known.
	Read *ReadInfo
	// SenderVerified: the sender address passed the configured
	// authentication policy (DKIM alignment or trusted Authentication-Results,
	// when required). Transports that authenticate otherwise set it true.
	SenderVerified bool
	// Authenticated: the sender address is proven, whatever the policy
	// (an aligned DKIM pass, or a DKIM or DMARC pass in the
	// Authentication-Results of our own configured authserv-id). Set by
	// the mail intake for untagged mail; it decides whether a REGISTER is
	// answered when RegisterNeedsAuth (issue 23).
	Authenticated bool
	// reading is the one reading of Text (readnotes.go, issue 25).
	reading *reading.Mail
}

// ReadInfo says how a player's commands were found in a mail.
type ReadInfo struct {
	Lines         int    // non-blank command lines read
	Markers       bool   // only the text between #begin and #end was read
	Unclosed      bool   // #begin had no #end
	Outside       int    // lines left out because they were outside the markers
	Quote         bool   // a quoted mail was left out
	QuoteHeader   string // where the quote began ("On ... wrote:")
	Signature     bool   // a signature was left out
	SignatureLine string
	Forwarded     bool // a forwarded message was left out
	// Greeting and SignOff are the greeting lines ("Ciao!") and closing
	// lines ("Grazie", "--Randall") left out; the reply lists them with
	// the prose lines it ignored.
	Greeting []string
	SignOff  []string
}

// Process handles one request in one store transaction (speculatively
// first for a seat's request, see speculate.go) and returns what was
// done. The error is non-nil only for failures of the referee itself (the
// store, a bug); the transport then retries later.
func (r *Referee) Process(ctx context.Context, req Request) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	if len(req.Keys) == 0 {
		return Outcome{}, errors.New("referee: request without de-duplication keys")
	}
	now := r.clock.Now()
	if req.Received.IsZero() {
		req.Received = now
	}
	req.From = strings.ToLower(strings.TrimSpace(req.From))
	req.read()               // once, shared by every run of the unit of work
	pre := r.predrawOrg(req) // a START's round 1, drawn out of the write lock (desk.go)
	start := time.Now()
	res, ok := r.processSpec(req, now)
	if !ok {
		err := r.redo(func(ar *Referee) error {
			ar.predrawn = pre
			return r.db.Update(func(tx *store.Tx) error {
				var err error
				res, err = ar.processTx(tx, req, now)
				return err
			})
		})
		if err != nil {
			return Outcome{}, err
		}
	}
	out := res.out
	if (res.queued > 0 || res.hooks > 0) && r.opt.Kick != nil {
		r.opt.Kick()
	}
	if r.opt.Observe != nil {
		r.opt.Observe(Observation{Source: req.Source, Status: string(out.Status), Duration: time.Since(start), Moves: res.moves, Mails: res.queued, Hooks: res.hooks})
	}
	r.log.Info("processed", slog.String("source", req.Source), slog.String("status", string(out.Status)),
		slog.String("game", out.Game), slog.Int("seat", out.Seat), slog.Int("replies", res.queued), slog.String("detail", out.Detail))
	r.openDue(res.draws) // the tournament rounds it completed, opened after it (desk.go)
	return out, nil
}

// processed is what one input did.
type processed struct {
	out                  Outcome
	queued, moves, hooks int
	draws                bymail.Due
}

// processTx is the unit of work of one request in one transaction: apply
// (w.request), tell and persist (w.flush), and the de-duplication record.
func (r *Referee) processTx(tx *store.Tx, req Request, now time.Time) (processed, error) {
	res := processed{out: Outcome{Seat: -1}}
	if rec, seen, err := tx.Seen(req.Keys...); err != nil {
		return res, err
	} else if seen {
		res.out = Outcome{Status: OutcomeDuplicate, Game: rec.Game, Seat: rec.Seat, Detail: "already processed: " + rec.Outcome}
		return res, outcomeState(tx, nil, &res.out)
	}
	w := r.newWork(tx, now)
	if len(req.Keys) > 0 {
		w.cluster = store.InputCluster(req.Keys[0])
	}
	out := &res.out
	if err := w.request(&req, out); err != nil {
		return res, err
	}
	if tx.Wide() {
		// A speculation that cannot commit: no need to tell.
		return res, spec.ErrWide
	}
	ids, err := w.flush()
	if err != nil {
		return res, err
	}
	out.Replies = ids
	if err := outcomeState(tx, w.games[out.Game], out); err != nil {
		return res, err
	}
	res.queued, res.moves, res.hooks, res.draws = len(ids), w.moves(), w.hooked, w.draws
	return res, tx.MarkInbound(store.InboundRecord{Keys: req.Keys, Received: now, Source: req.Source, From: req.From,
		Game: out.Game, Seat: out.Seat, Outcome: string(out.Status), Detail: out.Detail, Messages: ids})
}

// outcomeState puts the state token of the outcome's game in it, from the
// game as the unit of work left it (gw), else from its record.
func outcomeState(tx *store.Tx, gw *gameWork, out *Outcome) error {
	switch {
	case out.Game == "":
		return nil
	case gw != nil:
		if gw.tb != nil {
			out.StateToken, out.Started = gw.tb.Token(), true
		}
		return nil
	}
	tok, ok, err := stateToken(tx, out.Game)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	out.StateToken, out.Started = tok, ok
	return err
}

// update runs fn as one transaction with a work context and flushes it.
func (r *Referee) update(fn func(w *work) error) ([]string, error) {
	return r.updateAs("", fn)
}

// updateAs is update, observed as an input of the given source ("" for
// none).
func (r *Referee) updateAs(source string, fn func(w *work) error) ([]string, error) {
	var ids []string
	moves, hooks := 0, 0
	var draws bymail.Due
	start := time.Now()
	now := r.clock.Now()
	err := r.redo(func(ar *Referee) error {
		return r.db.Update(func(tx *store.Tx) error {
			w := ar.newWork(tx, now)
			if err := fn(w); err != nil {
				return err
			}
			var err error
			ids, err = w.flush()
			moves, hooks, draws = w.moves(), w.hooked, w.draws
			return err
		})
	})
	if err == nil && (len(ids) > 0 || hooks > 0) && r.opt.Kick != nil {
		r.opt.Kick()
	}
	if err == nil && source != "" && r.opt.Observe != nil {
		r.opt.Observe(Observation{Source: source, Status: string(OutcomeApplied), Duration: time.Since(start), Moves: moves, Mails: len(ids), Hooks: hooks})
	}
	if err == nil {
		r.openDue(draws) // the tournament rounds it completed (desk.go)
	}
	return ids, err
}

// sourceKey is the part of a rate-limit key that names the kind of source,
// so that a bot using the commands API and the same player's mails do not
// share one budget.
func sourceKey(req *Request) string {
	src, _, _ := strings.Cut(req.Source, ":")
	if req.Source == "webhook:commands" {
		src = req.Source
	}
	return src
}

// allowAnon counts a mail that did not authenticate against its sender's
// own budget (never a seat's).
func (w *work) allowAnon(req *Request) bool {
	return w.r.anon.allow("anon/"+sourceKey(req)+"/"+req.From, w.now)
}

// allowAuth counts an authenticated mail against its seat's or player's
// budget. Beyond it the mail is still processed; quiet says its answer is
// left out, and notice that this mail carries the one note in the window
// that says so.
func (w *work) allowAuth(req *Request, who string) (quiet, notice bool) {
	key := sourceKey(req) + "/" + who
	if w.r.rate.allow(key, w.now) {
		return false, false
	}
	if w.r.notice.allow(key, w.now) {
		return false, true
	}
	return true, false
}

// lookupGame returns the engine game of a record.
func lookupGame(name string) (engine.Game, error) { return engine.Lookup(name) }

func errorf(format string, args ...any) error { return fmt.Errorf("referee: "+format, args...) }
