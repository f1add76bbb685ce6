package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"syscall"
	"time"

	"github.com/pbem-referee/referee/referee/tools/demo"
)

// Options configure a benchmark run.
type Options struct {
	// Games is the number of concurrent bot games (default 6); Players
	// the seats of each (default 2, or the nearest count a game allows).
	Games   int
	Players int
	// GameNames are the games played round-robin (default: every
	// registered game); GameOptions options per game name.
	GameNames   []string
	GameOptions map[string]map[string]string
	// Real uses Dovecot and Postfix (referee/tools/realstack: root and the
	// servers installed) instead of the embedded stack.
	Real bool
	// Sizes are the live-game counts of the scale part (default 10,
	// 1000, 10000; none: skip it) and Moves the moves timed at each.
	Sizes []int
	Moves int
	// Bulk loads the scale part's games by copying a few loaded through
	// the referee, straight through the store's API (bulk.go).
	Bulk bool
	// Pages reads the store's pages before and after each timed move of
	// the scale part and reports the pages a move wrote per bucket and
	// kind (ScalePoint.PagesPerMove; store.DB.PageReading: it reads the
	// whole file twice a move, so the moves' times are not comparable),
	// and counts the pages each commit of the mail runs writes, per bucket
	// and kind (Throughput.PagesPerInput; store.DB.PageCensus: it reads
	// each commit's new pages before the next commit, so the runs' times
	// are not comparable either).
	Pages bool
	// NoMail skips the mail runs (referee and echo).
	NoMail bool
	Seed   string
	// Dir holds the stores ("": a temporary directory, removed after).
	Dir string
	// Timeout bounds each mail run (default 5 minutes).
	Timeout time.Duration
	// ProfileDir, if set, receives a CPU profile of each mail run
	// (referee.cpu.pprof, echo.cpu.pprof: servers, daemon and bots
	// together on the embedded stack, their goroutines labelled
	// bench=daemon, players or "mail servers": go tool pprof -tags).
	ProfileDir string
	// TraceDir, if set, receives a Go execution trace of each mail run
	// (referee.trace, echo.trace; go tool trace): where a mail's
	// reaction waits (the scheduler, the store's commits and fsyncs,
	// the hand-overs between the intake, the handler and the sender).
	TraceDir string
	// Progress receives a line per step (nil: none).
	Progress io.Writer
	Logger   *slog.Logger

	// DecidingBots has the referee run's players decide each answer when
	// its prompt arrives, reading the game's table from the referee's
	// store (demo.PeekDecider), as before the plans: for comparison. By
	// default every answer is decided before the run (demo.PlanGame) and
	// the players only read their mail and send it (demo.ScriptBrain).
	DecidingBots bool

	// afterGames, in tests, sees the referee run's site before it stops.
	afterGames func(site *demo.Site, ids []string, sent map[string]int, plans map[string]*demo.Plan)
}

// Report is the benchmark's result.
type Report struct {
	Stack     string    `json:"stack"`
	GoVersion string    `json:"go_version"`
	CPUs      int       `json:"cpus"`
	Started   time.Time `json:"started"`
	// Referee and Echo are the two mail runs; Ratio is the referee's
	// figures over the echo's.
	Referee *Throughput   `json:"referee,omitempty"`
	Echo    *Throughput   `json:"echo,omitempty"`
	Ratio   *Ratio        `json:"ratio,omitempty"`
	Scale   []*ScalePoint `json:"scale,omitempty"`
	// BulkLoad: the scale part's games were copied (Options.Bulk).
	BulkLoad bool    `json:"bulk_load,omitempty"`
	Seconds  float64 `json:"seconds"`
}

// Ratio compares the referee run with the echo run (referee / echo):
// rates below 1 and latencies above 1 are the referee's own cost.
type Ratio struct {
	MovesPerSec   float64 `json:"moves_per_sec"`
	MailsPerSec   float64 `json:"mails_per_sec"`
	LatencyMedian float64 `json:"latency_median"`
	LatencyP99    float64 `json:"latency_p99"`
	// Latency says which latency was compared: "reaction" (the first
	// mail queued for an input, at the mail server: Throughput.Reaction),
	// "delivery" (the answer, at the mail server) or "round trip" (at the
	// players); DeliveryMedian is the delivery latencies' ratio when the
	// reaction is compared.
	Latency        string  `json:"latency"`
	DeliveryMedian float64 `json:"delivery_median,omitempty"`
}

func (o *Options) defaults() {
	if o.Games <= 0 {
		o.Games = 6
	}
	if o.Players <= 0 {
		o.Players = 2
	}
	if o.Sizes == nil {
		o.Sizes = []int{10, 1000, 10000}
	}
	if o.Moves <= 0 {
		o.Moves = 100
	}
	if o.Seed == "" {
		o.Seed = "bench"
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
}

// Run runs the benchmark.
func Run(ctx context.Context, o Options) (*Report, error) {
	o.defaults()
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}
	dir := o.Dir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "referee-bench-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	rep := &Report{Stack: "embedded (imapmemserver + go-smtp, in process)", GoVersion: runtime.Version(),
		CPUs: runtime.NumCPU(), Started: time.Now()}
	begin := time.Now()
	if !o.NoMail {
		var real *realStack
		if o.Real {
			rep.Stack = "Dovecot + Postfix (referee/tools/realstack)"
			users := []string{"referee", "organiser"}
			games, err := demo.PickGames(o.GameNames)
			if err != nil {
				return nil, err
			}
			for i := 0; i < o.Games; i++ {
				n := games[i%len(games)].Info().NearestPlayers(o.Players)
				for k := 0; k < n; k++ {
					users = append(users, fmt.Sprintf("g%dp%d", i+1, k+1))
				}
				users = append(users, fmt.Sprintf("e%d", i+1))
			}
			progress("starting Dovecot and Postfix with %d users", len(users))
			rs, stop, err := startReal(log, users)
			if err != nil {
				return nil, err
			}
			defer stop()
			real = rs
		}
		newStack := func() (*stackEnv, error) {
			env := &stackEnv{rec: newRecorder()}
			if real != nil {
				env.stack, env.close, env.name = real, func() {}, "real"
				return env, nil
			}
			var ms *demo.MailServer
			var err error
			labeled(partServers, func() { ms, err = demo.StartMailServer(demo.MailOptions{Logger: log, OnDeliver: env.rec.deliver}) })
			if err != nil {
				return nil, err
			}
			env.stack, env.embedded, env.close, env.name = demo.Embedded{MailServer: ms}, ms, func() { _ = ms.Close() }, "embedded"
			return env, nil
		}
		progress("referee: %d concurrent games of %d players by mail", o.Games, o.Players)
		env, err := newStack()
		if err != nil {
			return nil, err
		}
		rep.Referee, err = runGames(ctx, env, &o, filepath.Join(dir, "referee"), log)
		env.close()
		if err != nil {
			return nil, fmt.Errorf("referee run: %w", err)
		}
		progress("referee: %d moves, %d mails in %.1fs", rep.Referee.Moves, rep.Referee.Mails, rep.Referee.Seconds)
		rounds := max(1, (rep.Referee.PlayerMails+o.Games-1)/o.Games)
		progress("echo: %d concurrent players, %d round trips each", o.Games, rounds)
		if env, err = newStack(); err != nil {
			return nil, err
		}
		rep.Echo, err = runEcho(ctx, env, &o, filepath.Join(dir, "echo"), o.Games, rounds, rep.Referee, log)
		env.close()
		if err != nil {
			return nil, fmt.Errorf("echo run: %w", err)
		}
		progress("echo: %d mails answered, %d mails in %.1fs", rep.Echo.Moves, rep.Echo.Mails, rep.Echo.Seconds)
		rep.Ratio = ratio(rep.Referee, rep.Echo)
	}
	if len(o.Sizes) > 0 {
		sc, err := newScaler(&o, filepath.Join(dir, "scale"), log)
		if err != nil {
			return nil, err
		}
		prev := 0
		for _, n := range o.Sizes {
			if n <= prev {
				return nil, errors.New("bench: sizes must grow")
			}
			prev = n
			progress("scale: loading to %d live games", n)
			p, err := sc.grow(ctx, n)
			if err != nil {
				return nil, fmt.Errorf("scale %d: %w", n, err)
			}
			rep.Scale, rep.BulkLoad = append(rep.Scale, p), o.Bulk
			progress("scale: %d games loaded in %.1fs, move median %.2f ms", n, p.LoadSeconds, p.Move.Median)
		}
	}
	rep.Seconds = time.Since(begin).Seconds()
	return rep, nil
}

func ratio(r, e *Throughput) *Ratio {
	if r == nil || e == nil || e.MovesPerSec == 0 || e.MailsPerSec == 0 {
		return nil
	}
	out := &Ratio{MovesPerSec: r.MovesPerSec / e.MovesPerSec, MailsPerSec: r.MailsPerSec / e.MailsPerSec}
	rl, el := r.Reaction, e.Reaction
	out.Latency = "reaction"
	if rl != nil && el != nil && r.Latency != nil && e.Latency != nil && e.Latency.Median > 0 {
		out.DeliveryMedian = r.Latency.Median / e.Latency.Median
	}
	if rl == nil || el == nil {
		rl, el, out.Latency = r.Latency, e.Latency, "delivery"
	}
	if rl == nil || el == nil {
		rl, el, out.Latency = r.RoundTrip, e.RoundTrip, "round trip"
	}
	if rl != nil && el != nil && el.Median > 0 && el.P99 > 0 {
		out.LatencyMedian, out.LatencyP99 = rl.Median/el.Median, rl.P99/el.P99
	}
	return out
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// profile starts a CPU profile of the named run in ProfileDir (none
// without one) and returns the function that ends it (once: later calls
// do nothing).
func (o *Options) profile(run string) (func(), error) {
	var stops []func()
	if o.ProfileDir != "" {
		f, err := os.Create(filepath.Join(o.ProfileDir, run+".cpu.pprof"))
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("bench: profile: %w", err)
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); _ = f.Close() })
	}
	if o.TraceDir != "" {
		f, err := os.Create(filepath.Join(o.TraceDir, run+".trace"))
		if err == nil {
			if err = trace.Start(f); err != nil {
				_ = f.Close()
			}
		}
		if err != nil {
			for _, stop := range stops {
				stop()
			}
			return nil, fmt.Errorf("bench: trace: %w", err)
		}
		stops = append(stops, func() { trace.Stop(); _ = f.Close() })
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			for _, stop := range stops {
				stop()
			}
		})
	}, nil
}
