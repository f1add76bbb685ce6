package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
)

// Options configure the demo.
type Options struct {
	// Dir receives the store, the transcripts and the logs ("": a new
	// temporary directory, kept after the run).
	Dir string
	// Games are the games to play (default: every registered game).
	Games []string
	// Players is the number of seats of every game (0: 2, or the nearest
	// count the game allows).
	Players int
	// Seed makes the games reproducible ("demo" by default).
	Seed string
	// Bot is the engine bot the players consult ("": the game's second
	// bot, its sensible one, else "random").
	Bot string
	// GameOptions are game options per game name (for example a round
	// limit that shortens a game).
	GameOptions map[string]map[string]string
	// Human, if set, is the address of a person who takes one seat of
	// HumanGame (default: DefaultHumanGame when played, else the first
	// game). Its domain becomes the mail domain.
	Human     string
	HumanGame string
	// OnHuman, if set, is called with the person's account once the
	// games are created (after the settings are printed).
	OnHuman func(Account)
	// Out receives the progress lines and the summary (nil: discarded).
	Out io.Writer
	// Interval is the time between progress lines (default 1 s; negative:
	// none).
	Interval time.Duration
	// Timeout bounds the whole run (0: none; with Human the run waits
	// for the person until ctx ends).
	Timeout time.Duration
	Logger  *slog.Logger
	// NoSync opens the store without fsync (tests).
	NoSync bool
}

// Result is what the demo did.
type Result struct {
	// Dir holds data/ (the store), transcripts/<game>/<player>.txt and
	// transcripts/<game>/log.json.
	Dir string
	// Elapsed is the time from the start of the servers to the end of the
	// last game (transcripts not included).
	Elapsed time.Duration
	// Mails counts every mail delivered (both directions).
	Mails uint64
	Games []GameResult
	// Human is the person's account, when there is one.
	Human *Account
	// Sample is one real "your move" mail a player of the first game got
	// in the middle of the game (subject and text), printed at the end.
	Sample string
}

// GameResult is one game's outcome.
type GameResult struct {
	ID, Game, Title, Status string
	// Moves is the number of engine moves; Mails the mails of the game
	// (to and from the referee).
	Moves, Mails int
	Players      []PlayerResult
	// LogPath is the exported engine log (for `referee replay`).
	LogPath string
	// Replayed reports that engine.Replay accepted the exported log;
	// ReplayError says why not.
	Replayed    bool
	ReplayError string
}

// PlayerResult is one seat's outcome.
type PlayerResult struct {
	Name, Address string
	Bot           bool
	Rank, Score   int
	// Transcript is the file with every mail of this player's mailbox
	// (and the player's own mails), in order.
	Transcript string
	// FinalMail says the player received the final mail with the result
	// and the game's log; FinalText is that mail's text.
	FinalMail bool
	FinalText string
	// Mails counts the referee's mails in the player's INBOX, Receipts
	// those that only acknowledge the player's message (issue 22).
	Mails, Receipts int
	// Wide lists the lines over 80 columns of the referee's mails, Codes
	// the internal codes they show (issue 22: both must stay empty).
	Wide, Codes []string
}

// ReceiptShare is the player's receipts as a percentage of their mails.
func (p PlayerResult) ReceiptShare() float64 { return receiptShare(p.Mails, p.Receipts) }

var seatNames = []string{"ann", "bob", "cat", "dan", "eve", "fay"}

// seatPlan is one seat of one game.
type seatPlan struct {
	acc    Account
	human  bool
	player *Player
	brain  *GameBrain
}

type gamePlan struct {
	id    string
	info  engine.Info
	seats []*seatPlan
}

// Run plays the demo: it starts the mail stack and the daemon, creates one
// game of every game, lets the bots play by mail until every game is over,
// then writes the transcripts and the logs and prints the results.
func Run(ctx context.Context, opt Options) (*Result, error) {
	out := opt.Out
	if out == nil {
		out = io.Discard
	}
	if opt.Seed == "" {
		opt.Seed = "demo"
	}
	if opt.Interval == 0 {
		opt.Interval = time.Second
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
	games, err := PickGames(opt.Games)
	if err != nil {
		return nil, err
	}
	domain := "example.test"
	humanLocal := ""
	if opt.Human != "" {
		a, err := mailmsg.ParseAddress(opt.Human)
		if err != nil || a.Local() == "" || a.Domain() == "" || strings.Contains(a.Local(), "+") {
			return nil, fmt.Errorf("demo: --human %q is not a plain address", opt.Human)
		}
		humanLocal, domain = strings.ToLower(a.Local()), a.Domain()
		if humanLocal == "referee" || humanLocal == "organiser" {
			return nil, fmt.Errorf("demo: %s is taken by the demo itself", opt.Human)
		}
		opt.HumanGame = humanGame(games, opt.HumanGame)
		found := false
		for _, g := range games {
			found = found || g.Info().Name == opt.HumanGame
		}
		if !found {
			return nil, fmt.Errorf("demo: --game %q is not among the games played", opt.HumanGame)
		}
	}
	res := &Result{Dir: opt.Dir}
	if res.Dir == "" {
		if res.Dir, err = os.MkdirTemp("", "referee-demo-"); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	tr := newTracker()
	ms, err := StartMailServer(MailOptions{Domain: domain, Logger: log.With("part", "mail"), OnDeliver: tr.deliver})
	if err != nil {
		return nil, err
	}
	defer ms.Close()
	stack := Embedded{ms}
	site, err := StartSite(ctx, stack, SiteOptions{Dir: filepath.Join(res.Dir, "data"), Logger: log.With("part", "daemon"), NoSync: opt.NoSync})
	if err != nil {
		return nil, err
	}
	defer site.Stop()
	tr.referee = site.Referee.Addr
	org, err := stack.Account("organiser", "Organiser")
	if err != nil {
		return nil, err
	}
	if _, err := site.Daemon.Referee.AddOrganiser(org.Addr); err != nil {
		return nil, err
	}

	// Plan the seats and start the bots before the invitations go out.
	pctx, stopPlayers := context.WithCancel(ctx)
	defer stopPlayers()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	var plans []*gamePlan
	for _, g := range games {
		gp, err := planGame(g, opt, stack, site, humanLocal)
		if err != nil {
			return nil, err
		}
		plans = append(plans, gp)
		for _, sp := range gp.seats {
			if sp.human {
				acc := sp.acc
				res.Human = &acc
				continue
			}
			wg.Add(1)
			go func(p *Player) {
				defer wg.Done()
				defer func() {
					if r := recover(); r != nil {
						errs <- fmt.Errorf("demo: player panicked: %v\n%s", r, debug.Stack())
					}
				}()
				if err := p.Run(pctx); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}(sp.player)
		}
	}
	for _, gp := range plans {
		if err := createGame(site, gp, opt, org.Addr); err != nil {
			return nil, err
		}
	}
	var hw *humanWatch
	if res.Human != nil {
		printHuman(out, res.Human, opt.HumanGame)
		hw = &humanWatch{out: out, acc: *res.Human, game: gameID(opt.HumanGame), ref: site.Referee.Addr}
		if opt.OnHuman != nil {
			opt.OnHuman(*res.Human)
		}
	}

	// Watch the games.
	waitErr := watch(ctx, out, opt.Interval, site, tr, plans, errs, start, hw)
	res.Elapsed = time.Since(start)
	stopPlayers()
	wg.Wait()
	res.Mails = ms.Delivered()

	// Transcripts, logs and results: after Ctrl-C or a failure too.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	ferr := finish(cctx, res, site, tr, plans)
	if waitErr != nil && !(res.Human != nil && errors.Is(waitErr, context.Canceled)) {
		fmt.Fprintf(out, "\nThe games did not finish: %v\n", waitErr)
		if ferr == nil {
			fmt.Fprintf(out, "Transcripts so far: %s/transcripts\n", res.Dir)
		}
		return res, errors.Join(waitErr, ferr)
	}
	if ferr != nil {
		return res, ferr
	}
	summary(out, res)
	var bad []string
	for _, g := range res.Games {
		if g.Status == referee.StatusOver && !g.Replayed {
			bad = append(bad, g.ID+": "+g.ReplayError)
		}
	}
	if len(bad) > 0 {
		return res, fmt.Errorf("demo: exported logs that do not replay: %s", strings.Join(bad, "; "))
	}
	return res, nil
}

// PickGames returns the named games, or every registered game when names
// is empty.
func PickGames(names []string) ([]engine.Game, error) {
	if len(names) == 0 {
		gs := engine.Games()
		if len(gs) == 0 {
			return nil, errors.New("no game is registered")
		}
		return gs, nil
	}
	var gs []engine.Game
	for _, n := range names {
		g, err := engine.Lookup(n)
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, nil
}

var idClean = regexp.MustCompile(`[^a-z0-9]`)

// gameID is a game id made from the game's name.
func gameID(name string) string {
	id := idClean.ReplaceAllString(strings.ToLower(name), "")
	if id == "" || id[0] < 'a' || id[0] > 'z' {
		id = "g" + id
	}
	if len(id) < 2 {
		id += "1"
	}
	if len(id) > 24 {
		id = id[:24]
	}
	return id
}

// seatCount is the demo's player count for a game: the allowed count
// nearest to the one asked for (2 by default).
func seatCount(info engine.Info, want int) int {
	if want <= 0 {
		want = 2
	}
	return info.NearestPlayers(want)
}

func planGame(g engine.Game, opt Options, stack Embedded, site *Site, humanLocal string) (*gamePlan, error) {
	info := g.Info()
	gp := &gamePlan{id: gameID(info.Name), info: info}
	n := seatCount(info, opt.Players)
	if n > len(seatNames) {
		return nil, fmt.Errorf("demo: at most %d players", len(seatNames))
	}
	botName := opt.Bot
	if botName == "" {
		botName = info.BestBot()
	}
	maker, ok := g.(engine.BotMaker)
	if !ok {
		return nil, fmt.Errorf("demo: %s has no bots", info.Name)
	}
	for k := 0; k < n; k++ {
		sp := &seatPlan{}
		if k == 0 && humanLocal != "" && opt.HumanGame == info.Name {
			acc, err := stack.Account(humanLocal, humanLocal)
			if err != nil {
				return nil, err
			}
			sp.acc, sp.human = acc, true
			gp.seats = append(gp.seats, sp)
			continue
		}
		name := seatNames[k]
		acc, err := stack.Account(name+"."+gp.id, strings.ToUpper(name[:1])+name[1:])
		if err != nil {
			return nil, err
		}
		if sp.brain, err = site.BotBrain(maker, botName, fmt.Sprintf("%s/%s/%d", opt.Seed, gp.id, k)); err != nil {
			return nil, err
		}
		sp.acc = acc
		sp.player = &Player{Account: acc, Brain: sp.brain, Logger: opt.Logger}
		gp.seats = append(gp.seats, sp)
	}
	return gp, nil
}

// noDeadlines is the demo's policy: nobody is ever timed out.
func noDeadlines() *referee.Policy {
	return &referee.Policy{Hours: map[string]float64{}, MissLimit: 0, VacationDays: 14}
}

func createGame(site *Site, gp *gamePlan, opt Options, org string) error {
	ng := referee.NewGame{ID: gp.id, Game: gp.info.Name, Players: len(gp.seats), Organiser: org,
		Seed: opt.Seed + "/" + gp.id, Policy: noDeadlines(), Options: opt.GameOptions[gp.info.Name]}
	for _, sp := range gp.seats {
		ng.Invite = append(ng.Invite, referee.Invitee{Address: sp.acc.Addr, Name: sp.acc.Name, Lang: "en"})
	}
	_, err := site.Daemon.Referee.CreateGame(ng)
	return err
}

func printHuman(out io.Writer, acc *Account, game string) {
	fmt.Fprintf(out, "\nOne seat of %s is yours, %s. Point a mail client at:\n", game, acc.Addr)
	printSettings(out, acc)
	fmt.Fprintf(out, "Your invitation is in your INBOX: reply JOIN to it, then answer each mail with your move.\n")
	fmt.Fprintf(out, "The demo waits for you until the game ends (Ctrl-C stops it).\n\n")
}

// printSettings prints the person's mail settings.
func printSettings(out io.Writer, acc *Account) {
	ih, ip := splitHostPort(acc.IMAPAddr)
	sh, sp := splitHostPort(acc.SMTPAddr)
	fmt.Fprintf(out, "  IMAP  host %s  port %s  no TLS  user %s  password %s\n", ih, ip, acc.Addr, acc.Password)
	fmt.Fprintf(out, "  SMTP  host %s  port %s  no TLS  user %s  password %s  (AUTH PLAIN, optional)\n", sh, sp, acc.Addr, acc.Password)
}

func splitHostPort(a string) (string, string) {
	i := strings.LastIndexByte(a, ':')
	if i < 0 {
		return a, ""
	}
	return a[:i], a[i+1:]
}

// watch prints progress until every game is over and every bot got its
// final mail, a player fails, or ctx ends.
func watch(ctx context.Context, out io.Writer, every time.Duration, site *Site, tr *tracker, plans []*gamePlan, errs <-chan error, start time.Time, hw *humanWatch) error {
	check := time.NewTicker(50 * time.Millisecond)
	defer check.Stop()
	next := time.Now().Add(every)
	last := map[string]string{}
	lastAt := time.Now()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errs:
			return err
		case <-check.C:
		}
		hw.check(ctx, site)
		if every > 0 && !time.Now().Before(next) {
			// A line per game every interval while something moves; when
			// nothing does (a person thinking), every quiet interval.
			lines := progressLines(site, tr, plans)
			changed := false
			for id, l := range lines {
				changed = changed || last[id] != l
			}
			if changed || time.Since(lastAt) >= quietProgress {
				printProgress(out, plans, lines, start)
				last, lastAt = lines, time.Now()
			}
			next = time.Now().Add(every)
		}
		if allDone(site, plans) {
			if every > 0 {
				printProgress(out, plans, progressLines(site, tr, plans), start)
			}
			return nil
		}
	}
}

func allDone(site *Site, plans []*gamePlan) bool {
	for _, gp := range plans {
		g, err := site.Daemon.Referee.GameRecord(gp.id)
		if err != nil || (g.Status != referee.StatusOver && g.Status != referee.StatusAborted) {
			return false
		}
		for _, sp := range gp.seats {
			if sp.brain != nil {
				if lg, _ := sp.brain.Final(); lg == nil {
					return false
				}
			}
		}
	}
	return true
}

// quietProgress is the interval of progress lines while no game moves.
const quietProgress = 30 * time.Second

// progressLines describes each game: round or turn, moves, mails, status.
func progressLines(site *Site, tr *tracker, plans []*gamePlan) map[string]string {
	lines := map[string]string{}
	for _, gp := range plans {
		g, err := site.Daemon.Referee.GameRecord(gp.id)
		if err != nil {
			lines[gp.id] = err.Error()
			continue
		}
		where := ""
		moves := 0
		if tb, err := site.Tables()(gp.id); err == nil {
			moves = tb.Token()
			where = roundOf(tb.State)
		}
		lines[gp.id] = fmt.Sprintf("%-10s moves %4d  mails %5d  %s", where, moves, tr.game(gp.id), g.Status)
	}
	return lines
}

func printProgress(out io.Writer, plans []*gamePlan, lines map[string]string, start time.Time) {
	for _, gp := range plans {
		fmt.Fprintf(out, "[%5.1fs] %-14s %s\n", time.Since(start).Seconds(), gp.id, lines[gp.id])
	}
}

// roundOf reads "round" or "turn" from the public view, when the game has
// one.
func roundOf(st engine.State) string {
	raw, err := json.Marshal(st.View(-1))
	if err != nil {
		return ""
	}
	var v map[string]any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	for _, k := range []string{"round", "turn"} {
		if x, ok := v[k].(float64); ok && x > 0 {
			return fmt.Sprintf("%s %d", k, int(x))
		}
	}
	return ""
}

// finish writes the transcripts and logs and fills the results.
func finish(ctx context.Context, res *Result, site *Site, tr *tracker, plans []*gamePlan) error {
	sent, err := refereeMail(ctx, site.Referee)
	if err != nil {
		return err
	}
	for _, gp := range plans {
		g, err := site.Daemon.Referee.GameRecord(gp.id)
		if err != nil {
			return err
		}
		dir := filepath.Join(res.Dir, "transcripts", gp.id)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		gr := GameResult{ID: gp.id, Game: gp.info.Name, Title: gp.info.Title, Status: g.Status, Mails: tr.game(gp.id)}
		var result *engine.Result
		if tb, err := site.Tables()(gp.id); err == nil {
			gr.Moves = tb.Token()
			result = tb.State.Result()
		}
		lg, err := site.Daemon.Referee.ExportLog(gp.id, false)
		if err != nil {
			return err
		}
		raw, err := json.MarshalIndent(lg, "", " ")
		if err != nil {
			return err
		}
		gr.LogPath = filepath.Join(dir, "log.json")
		if err := os.WriteFile(gr.LogPath, raw, 0o644); err != nil {
			return err
		}
		if g.Status == referee.StatusOver {
			eg, err := engine.Lookup(lg.Game)
			if err != nil {
				return err
			}
			if _, err := engine.Replay(eg, *lg); err != nil {
				gr.ReplayError = err.Error()
			} else {
				gr.Replayed = true
			}
		}
		for _, sp := range gp.seats {
			pr := PlayerResult{Name: sp.acc.Name, Address: sp.acc.Addr, Bot: !sp.human}
			for i, s := range g.Seats {
				if strings.EqualFold(s.Address, sp.acc.Addr) {
					pr.Name = s.Name
					if result != nil && i < len(result.Rank) {
						pr.Rank = result.Rank[i]
						for _, sc := range result.Scores {
							if sc.Seat == i {
								pr.Score = sc.Total
							}
						}
					}
				}
			}
			if sp.brain != nil {
				lg, text := sp.brain.Final()
				pr.FinalMail, pr.FinalText = lg != nil, text
			}
			if err = mailCheck(ctx, sp.acc, site.Referee.Addr, &pr); err != nil {
				return err
			}
			pr.Transcript = filepath.Join(dir, fileName(pr.Name)+".txt")
			if err := writeTranscript(ctx, pr.Transcript, sp.acc, sent, tr); err != nil {
				return err
			}
			if res.Sample == "" && !sp.human {
				if res.Sample, err = sampleMail(ctx, sp.acc); err != nil {
					return err
				}
			}
			gr.Players = append(gr.Players, pr)
		}
		sort.SliceStable(gr.Players, func(a, b int) bool {
			if gr.Players[a].Rank == 0 || gr.Players[b].Rank == 0 {
				return false
			}
			return gr.Players[a].Rank < gr.Players[b].Rank
		})
		res.Games = append(res.Games, gr)
	}
	return nil
}

// sampleMail returns a "your move" mail from the middle of a player's
// mailbox (the third one, which already tells what happened since the
// player's last mail), as the player's client shows it: subject, then text.
func sampleMail(ctx context.Context, acc Account) (string, error) {
	msgs, err := FetchAll(ctx, acc, "INBOX")
	if err != nil {
		return "", err
	}
	var moves []*mailmsg.Message
	for _, m := range msgs {
		pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
		if err == nil && strings.Contains(pm.Subject, "] Your move") {
			moves = append(moves, pm)
		}
	}
	if len(moves) == 0 {
		return "", nil
	}
	pm := moves[min(2, len(moves)-1)]
	return "From: " + pm.From.Addr + "\nTo: " + acc.Addr + "\nSubject: " + pm.Subject + "\n\n" + strings.TrimRight(pm.Text, "\n") + "\n", nil
}

// fileName makes a file name of a player's name.
func fileName(name string) string {
	f := strings.Trim(regexp.MustCompile(`[^a-z0-9_-]+`).ReplaceAllString(strings.ToLower(name), "_"), "_")
	if f == "" {
		f = "player"
	}
	return f
}

// refereeMail reads every mail the referee received (its INBOX and the
// watcher's folders), by sender.
func refereeMail(ctx context.Context, acc Account) (map[string][]StoredMessage, error) {
	by := map[string][]StoredMessage{}
	for _, box := range []string{"INBOX", "Processed", "Quarantine"} {
		msgs, err := FetchAll(ctx, acc, box)
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			pm, err := mailmsg.Parse(m.Raw, mailmsg.Options{})
			if err != nil {
				continue
			}
			from := strings.ToLower(pm.From.Addr)
			by[from] = append(by[from], m)
		}
	}
	return by, nil
}

func summary(out io.Writer, res *Result) {
	over := 0
	for _, g := range res.Games {
		if g.Status == referee.StatusOver {
			over++
		}
	}
	if over == len(res.Games) {
		fmt.Fprintf(out, "\nAll games finished in %.1fs (%d mails delivered).\n\n", res.Elapsed.Seconds(), res.Mails)
	} else {
		fmt.Fprintf(out, "\nStopped after %.1fs: %d of %d games finished (%d mails delivered).\n\n", res.Elapsed.Seconds(), over, len(res.Games), res.Mails)
	}
	for _, g := range res.Games {
		replay := "log replays"
		if !g.Replayed {
			replay = "LOG DOES NOT REPLAY: " + g.ReplayError
			if g.Status != referee.StatusOver {
				replay = "not finished"
			}
		}
		fmt.Fprintf(out, "%s (%s): %s, %d moves, %d mails, %s\n", g.ID, g.Title, g.Status, g.Moves, g.Mails, replay)
		for _, p := range g.Players {
			who := "bot"
			if !p.Bot {
				who = "you"
			}
			rank := "-"
			if p.Rank > 0 {
				rank = fmt.Sprint(p.Rank)
			}
			fmt.Fprintf(out, "   %s. %-6s %4d   %-32s (%s)  %d mails, %d receipts (%.0f%%)\n", rank, p.Name, p.Score, p.Address, who,
				p.Mails, p.Receipts, p.ReceiptShare())
		}
	}
	fmt.Fprintf(out, "\nTranscripts: %s/transcripts/<game>/<player>.txt (every mail of the player's mailbox, and the player's own, in order)\n", res.Dir)
	fmt.Fprintf(out, "Game logs:   %s/transcripts/<game>/log.json (check one with: referee replay <file>)\n", res.Dir)
	if res.Sample != "" {
		fmt.Fprintf(out, "\nOne of the mails a player got during the game:\n\n%s", indentLines("  | ", res.Sample))
	}
}

func indentLines(prefix, s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(strings.TrimRight(prefix+l, " ") + "\n")
	}
	return b.String()
}
