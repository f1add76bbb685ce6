package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/pages"
	"github.com/pbem-referee/referee/referee/tournament"
)

// TournamentOptions configure the tournament demo.
type TournamentOptions struct {
	// Dir receives the store ("": a new temporary directory, kept).
	Dir string
	// Games are the games with a tournament each (default: every
	// registered game that two can play).
	Games []string
	// Players is the number of entrants of each tournament (default 12).
	Players int
	// Rounds is the number of Swiss rounds (default 3).
	Rounds int
	// Seed makes the bots reproducible ("demo").
	Seed        string
	GameOptions map[string]map[string]string
	Out         io.Writer
	Timeout     time.Duration
	Logger      *slog.Logger
	NoSync      bool
	// Keep, if set, keeps the pages served until ctx ends.
	Keep bool
	// RoundTime, if set, is each round's deadline: the games not over by
	// then are adjudicated (late=adjudicate), so a round of long games
	// ends on time.
	RoundTime time.Duration
}

// TournamentResult is what the tournament demo did.
type TournamentResult struct {
	Dir         string
	Mails       uint64
	Elapsed     time.Duration
	Tournaments []*tournament.Tournament
	// Pages are the addresses of each tournament's public page.
	Pages []string
	// Replayed reports that every tournament's pairings replay from its
	// revealed seed.
	Replayed bool
	// Store is what the store's commits wrote during the run (issue 24:
	// the demo once wrote 20.8 GB for a 541 MB store); the summary says
	// it per mail delivered.
	StoreBytes, Commits int64
	// Players are every entrant's mails from the referee and, among them,
	// the receipts (issue 22: at most 15% of a player's mails); only
	// Name, Address, Mails and Receipts are set.
	Players []PlayerResult
}

// MaxReceiptShare is the entrant with the largest share of receipts
// among their mails (the zero PlayerResult when there is none).
func (r *TournamentResult) MaxReceiptShare() PlayerResult {
	var worst PlayerResult
	for _, p := range r.Players {
		if p.Mails > 0 && (worst.Mails == 0 || p.ReceiptShare() > worst.ReceiptShare()) {
			worst = p
		}
	}
	return worst
}

// RunTournament runs a Swiss tournament of bots by mail for each game on
// the embedded mail stack: the organiser creates it by mail, the players
// register and JOIN by mail, the organiser starts it by mail, every
// round's games are played by mail, and the final standings arrive by
// mail. The public pages are served on 127.0.0.1.
func RunTournament(ctx context.Context, opt TournamentOptions) (*TournamentResult, error) {
	out := opt.Out
	if out == nil {
		out = io.Discard
	}
	if opt.Players <= 0 {
		opt.Players = 12
	}
	if opt.Rounds <= 0 {
		opt.Rounds = 3
	}
	if opt.Seed == "" {
		opt.Seed = "demo"
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	var games []engine.Game
	if len(opt.Games) == 0 {
		for _, g := range engine.Games() {
			if g.Info().Allows("", 2) {
				games = append(games, g)
			}
		}
	} else {
		var err error
		if games, err = PickGames(opt.Games); err != nil {
			return nil, err
		}
	}
	if len(games) == 0 {
		return nil, errors.New("demo: no game for a tournament")
	}
	res := &TournamentResult{Dir: opt.Dir}
	if res.Dir == "" {
		var err error
		if res.Dir, err = os.MkdirTemp("", "referee-tournament-"); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	ms, err := StartMailServer(MailOptions{Domain: "example.test", Logger: log.With("part", "mail")})
	if err != nil {
		return nil, err
	}
	defer ms.Close()
	stack := Embedded{ms}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	base := "http://" + ln.Addr().String()
	site, err := StartSite(ctx, stack, SiteOptions{Dir: filepath.Join(res.Dir, "data"), Logger: log.With("part", "daemon"),
		NoSync: opt.NoSync, PageBase: base})
	if err != nil {
		ln.Close()
		return nil, err
	}
	defer site.Stop()
	ws0 := site.Daemon.DB.WriteStats()
	mux := http.NewServeMux()
	pages.Register(mux, site.Daemon.Referee, log.With("part", "pages"))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	org, err := stack.Account("organiser", "Organiser")
	if err != nil {
		return nil, err
	}
	secret, err := site.Daemon.Referee.AddOrganiser(org.Addr)
	if err != nil {
		return nil, err
	}
	orgTo := "referee+org." + secret + "@" + stack.Domain()
	pctx, stopPlayers := context.WithCancel(ctx)
	defer stopPlayers()
	var wg sync.WaitGroup
	errs := make(chan error, 256)
	run := func(p *Player) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Run(pctx); err != nil {
				select {
				case errs <- err:
				default:
				}
			}
		}()
	}
	// The organiser creates one tournament per game, by mail.
	var ids []string
	var text strings.Builder
	for k, g := range games {
		id := fmt.Sprintf("swiss%d", k+1)
		ids = append(ids, id)
		fmt.Fprintf(&text, "NEW TOURNAMENT %s game=%s format=swiss rounds=%d listed", id, g.Info().Name, opt.Rounds)
		if opt.RoundTime > 0 {
			fmt.Fprintf(&text, " deadline=%gm late=adjudicate warn=off", opt.RoundTime.Minutes())
		}
		for key, v := range opt.GameOptions[g.Info().Name] {
			fmt.Fprintf(&text, " %s=%s", key, v)
		}
		text.WriteString("\n")
	}
	if err := orgMail(pctx, org, orgTo, text.String(), "NEW TOURNAMENT "+ids[len(ids)-1], log); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "Organiser %s created %s by mail.\n", org.Addr, strings.Join(ids, ", "))
	// The players register and join by mail, then play whatever comes.
	var brains []*TourBrain
	var accs []Account
	for k, g := range games {
		maker, ok := g.(engine.BotMaker)
		if !ok {
			return nil, fmt.Errorf("demo: %s has no bots", g.Info().Name)
		}
		for i := 0; i < opt.Players; i++ {
			name := fmt.Sprintf("%s%d", seatNames[i%len(seatNames)], i+1)
			acc, err := stack.Account(fmt.Sprintf("%s.%s", name, ids[k]), strings.ToUpper(name[:1])+name[1:])
			if err != nil {
				return nil, err
			}
			b := &TourBrain{Tournament: ids[k], Referee: site.Referee.Addr, Name: acc.Name,
				NewGame: func(gid string) (*GameBrain, error) {
					return site.BotBrain(maker, g.Info().BestBot(), fmt.Sprintf("%s/%s/%s", opt.Seed, acc.Addr, gid))
				}}
			brains = append(brains, b)
			accs = append(accs, acc)
			run(&Player{Account: acc, Brain: b, Logger: log})
		}
	}
	// Sign-up: wait for every entrant, then START by mail.
	for _, id := range ids {
		if err := waitFor(ctx, errs, func() (bool, error) {
			t, err := site.Daemon.Referee.TournamentRecord(id)
			return err == nil && len(t.Entrants) == opt.Players, nil
		}); err != nil {
			return nil, fmt.Errorf("demo: sign-up of %s: %w", id, err)
		}
		if err := orgMail(pctx, org, orgTo, "START "+id, id+" started", log); err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "%s: %d players signed up by mail; started.\n", id, opt.Players)
	}
	for _, id := range ids {
		t, _ := site.Daemon.Referee.TournamentRecord(id)
		res.Pages = append(res.Pages, base+"/t/"+t.ID+"-"+t.Key)
		fmt.Fprintf(out, "  %s page: %s/t/%s-%s\n", id, base, t.ID, t.Key)
	}
	fmt.Fprintf(out, "  index of listed tournaments: %s/t/\n", base)
	last, lastOver := map[string]int{}, map[string]string{}
	err = waitFor(ctx, errs, func() (bool, error) {
		done := true
		for _, id := range ids {
			t, err := site.Daemon.Referee.TournamentRecord(id)
			if err != nil {
				return false, err
			}
			if len(t.Rounds) != last[id] {
				last[id] = len(t.Rounds)
				fmt.Fprintf(out, "%s: round %d of %d open (%s)\n", id, len(t.Rounds), t.PlannedRounds(), time.Since(start).Round(time.Second))
			}
			// Progress as it goes: each game over, as it ends.
			if n := len(t.Rounds); n > 0 {
				over, games := 0, 0
				for _, m := range t.Rounds[n-1].Matches {
					if m.State != tournament.MatchBye {
						games++
						if m.Decided() {
							over++
						}
					}
				}
				if key := fmt.Sprintf("%d/%d", n, over); over > 0 && lastOver[id] != key {
					lastOver[id] = key
					fmt.Fprintf(out, "%s: round %d: %d of %d games over (%s)\n", id, n, over, games, time.Since(start).Round(time.Second))
				}
			}
			done = done && t.Status == tournament.StatusOver
		}
		if !done {
			return false, nil
		}
		for _, b := range brains {
			if !b.Finished() {
				return false, nil
			}
		}
		return true, nil
	})
	res.Elapsed = time.Since(start)
	res.Mails = ms.Delivered()
	if err == nil {
		// The last deliveries' outcomes ride in a commit of the run's.
		err = site.Daemon.Settle(ctx)
	}
	ws := site.Daemon.DB.WriteStats().Sub(ws0)
	res.StoreBytes, res.Commits = ws.DiskBytes, ws.Commits
	if err != nil {
		return res, fmt.Errorf("demo: the tournaments did not finish: %w", err)
	}
	res.Replayed = true
	for _, id := range ids {
		t, err := site.Daemon.Referee.TournamentRecord(id)
		if err != nil {
			return res, err
		}
		res.Tournaments = append(res.Tournaments, t)
		if err := tournament.Replay(t); err != nil {
			res.Replayed = false
			fmt.Fprintf(out, "%s: the pairings do not replay: %v\n", id, err)
		}
		fmt.Fprintf(out, "\n%s (%s), final standings by mail to every player:\n", id, t.Game)
		for _, s := range t.Standings() {
			fmt.Fprintf(out, "  %2d. %-10s %4s  %d-%d-%d\n", s.Place, s.Name, fmtFloat(s.Points), s.Won, s.Drawn, s.Lost)
		}
		fmt.Fprintf(out, "  seed %s (commitment %s): every pairing replays\n", t.Seed, t.Commitment[:16])
	}
	mails, receipts := 0, 0
	for _, acc := range accs {
		pr := PlayerResult{Name: acc.Name, Address: acc.Addr}
		if err := mailCheck(ctx, acc, site.Referee.Addr, &pr); err != nil {
			return res, err
		}
		res.Players = append(res.Players, PlayerResult{Name: pr.Name, Address: pr.Address, Mails: pr.Mails, Receipts: pr.Receipts})
		mails, receipts = mails+pr.Mails, receipts+pr.Receipts
	}
	if w := res.MaxReceiptShare(); w.Mails > 0 {
		fmt.Fprintf(out, "\nReceipts: %d of the players' %d mails (%.0f%%); at most %.0f%% of a player's (%s: %d of %d).\n",
			receipts, mails, receiptShare(mails, receipts), w.ReceiptShare(), w.Name, w.Receipts, w.Mails)
	}
	fmt.Fprintf(out, "\n%d mails in %s. Store: %s\n", res.Mails, res.Elapsed.Round(time.Millisecond), filepath.Join(res.Dir, "data"))
	fmt.Fprintf(out, "The store wrote %.1f MB in %d commits: %.1f KiB per mail delivered.\n",
		float64(res.StoreBytes)/1e6, res.Commits, res.StorePerMail()/1024)
	for k, p := range res.Pages {
		fmt.Fprintf(out, "Open %s: %s\n", ids[k], p)
	}
	stopPlayers()
	wg.Wait()
	if opt.Keep {
		fmt.Fprintf(out, "Serving the pages until interrupted (Ctrl-C).\n")
		<-ctx.Done()
	}
	return res, nil
}

// StorePerMail is the bytes the store wrote per mail delivered (to the
// referee or from it).
func (r *TournamentResult) StorePerMail() float64 {
	if r.Mails == 0 {
		return 0
	}
	return float64(r.StoreBytes) / float64(r.Mails)
}

func fmtFloat(x float64) string {
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", x), "0"), ".")
}

// waitFor polls cond until it holds, a player fails, or ctx ends.
func waitFor(ctx context.Context, errs <-chan error, cond func() (bool, error)) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errs:
			return err
		case <-tick.C:
		}
	}
}

// orgMail sends the organiser's commands by mail and waits for the
// referee's answer that contains want.
func orgMail(ctx context.Context, acc Account, to, text, want string, log *slog.Logger) error {
	b := &oneShot{to: to, text: text, want: want}
	p := &Player{Account: acc, Brain: b, Logger: log}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := p.Run(rctx); err != nil {
		return err
	}
	if !b.got {
		return fmt.Errorf("demo: the organiser had no answer with %q (%v)", want, rctx.Err())
	}
	if strings.Contains(b.answer, ": ") && (strings.Contains(b.answer, "usage") || strings.Contains(b.answer, "no tournament")) {
		return fmt.Errorf("demo: the organiser's commands failed:\n%s", b.answer)
	}
	return nil
}

// oneShot sends one mail and is done when an answer contains want.
type oneShot struct {
	to, text, want string
	got            bool
	answer         string
}

func (o *oneShot) Start() (string, string, string) { return o.to, "organiser", o.text }

func (o *oneShot) Answer(_ context.Context, in *Incoming) (string, bool, error) {
	if strings.Contains(in.Msg.Text, o.want) {
		o.got, o.answer = true, in.Msg.Text
		return "", true, nil
	}
	return "", false, nil
}

// TourBrain is a tournament entrant: it registers with the referee, joins
// the tournament, plays each round's game with a GameBrain of its own, and
// is done when the final standings arrive.
type TourBrain struct {
	Tournament, Referee, Name string
	// NewGame makes the brain of one game.
	NewGame func(gameID string) (*GameBrain, error)

	mu       sync.Mutex
	joined   bool
	games    map[string]*GameBrain
	finished bool
	final    string
}

// Start registers by mail.
func (b *TourBrain) Start() (string, string, string) {
	return b.Referee, "register", "REGISTER " + b.Name
}

// Answer implements Brain.
func (b *TourBrain) Answer(ctx context.Context, in *Incoming) (string, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.games == nil {
		b.games = map[string]*GameBrain{}
	}
	for _, a := range in.Msg.ReplyTo {
		_, detail, _ := mailmsg.SplitPlus(a.Addr)
		t, err := mailmsg.ParseTag(detail)
		if detail == "" || err != nil {
			continue
		}
		switch t.Kind {
		case mailmsg.TagSeat:
			gb := b.games[t.Game]
			if gb == nil {
				if gb, err = b.NewGame(t.Game); err != nil {
					return "", false, err
				}
				b.games[t.Game] = gb
			}
			text, _, err := gb.Answer(ctx, in)
			return text, false, err
		case mailmsg.TagPlayer:
			if strings.Contains(in.Msg.Text, "referee tournament replay "+b.Tournament) {
				b.finished, b.final = true, in.Msg.Text
				return "", true, nil
			}
			if !b.joined {
				b.joined = true
				return "JOIN " + b.Tournament, false, nil
			}
			return "", false, nil
		}
	}
	return "", false, nil
}

// Finished reports that the final standings arrived.
func (b *TourBrain) Finished() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.finished
}
