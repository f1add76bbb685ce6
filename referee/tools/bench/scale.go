package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/tools/demo"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
	"github.com/pbem-referee/referee/store"
	"github.com/pbem-referee/referee/store/pagefile"
)

// ScalePoint is the referee with a number of live games in its store.
type ScalePoint struct {
	// Games is the number of games created and in progress (every seat
	// joined, the first decisions asked).
	Games int `json:"games"`
	// LoadSeconds is the time the bulk load to this size took (a NoSync
	// store, through the referee: organiser NEW commands and JOIN inputs).
	LoadSeconds float64 `json:"load_seconds"`
	// StoreBytes is the store file's size, BytesPerGame that over Games,
	// and OutboxBytesPerGame the part that is mail still queued (the
	// invitations and start mails: no sender runs during the load).
	StoreBytes         int64 `json:"store_bytes"`
	BytesPerGame       int64 `json:"bytes_per_game"`
	OutboxBytesPerGame int64 `json:"outbox_bytes_per_game"`
	// HeapInuse and RSS are the peaks while the daemon (store reopened
	// with fsync) served the timed moves; HeapAfterGC the live heap then.
	HeapInuse   uint64 `json:"peak_heap_inuse_bytes"`
	RSS         uint64 `json:"peak_rss_bytes"`
	HeapAfterGC uint64 `json:"heap_after_gc_bytes"`
	// RSSFile is the resident part of RSS that maps files (bbolt's mmap
	// of the store, the binary) and RSSAnon the rest (the Go heap and
	// stacks), read after the timed moves.
	RSSFile uint64 `json:"rss_file_bytes"`
	// RSSFileOpen is RSSFile just after the store was opened: the store
	// reads bbolt's free list from the file (written by its Close), and
	// OpenWalked says it did not find one and walked every page instead,
	// which maps the whole file in (store/freelist.go).
	RSSFileOpen uint64 `json:"rss_file_open_bytes"`
	OpenWalked  bool   `json:"open_walked,omitempty"`
	RSSAnon     uint64 `json:"rss_anon_bytes"`
	// MapTrims is how many times the store dropped its mapping's pages
	// from the process during the timed moves (store.Options.MappedLimit).
	MapTrims int64 `json:"map_trims"`
	// Move is the time of one move: one player's mail processed by the
	// referee (Referee.Process, its one fsync'd transaction, the outgoing
	// mails composed and queued), over Moves moves in random games.
	Moves int   `json:"moves"`
	Move  *Dist `json:"move"`
	// DiskBytesPerMove is what the store wrote to its file per timed move
	// (every page of every commit), DataBytesPerMove the log entries and
	// outbox rows a move added (store.WriteStats; issue 25).
	DiskBytesPerMove int64 `json:"disk_bytes_per_move"`
	DataBytesPerMove int64 `json:"data_bytes_per_move"`
	// PagesPerMove (Options.Pages) is the pages a timed move wrote per
	// bucket and kind ("log.flat leaf", "games branch", "queue.outbox
	// nested", ...; "meta" a commit's meta page), SplitsPerMove the
	// leaves a move added per bucket (a leaf split), and PagesCounted
	// their sum over the pages DiskBytesPerMove holds (1 when every page
	// written was found).
	PagesPerMove  map[string]float64 `json:"pages_per_move,omitempty"`
	SplitsPerMove map[string]float64 `json:"splits_per_move,omitempty"`
	PagesCounted  float64            `json:"pages_counted,omitempty"`
}

// scaler grows one store through the sizes.
type scaler struct {
	o      *Options
	dir    string
	cfg    config.Config
	log    *slog.Logger
	org    string
	games  int // created so far
	rng    *rand.Rand
	kinds  []engine.Game
	points []*ScalePoint
	// templates are the games the bulk loader copies (bulk.go).
	templates []*template
}

func newScaler(o *Options, dir string, log *slog.Logger) (*scaler, error) {
	kinds, err := demo.PickGames(o.GameNames)
	if err != nil {
		return nil, err
	}
	// The daemon is built, never run: no mail server is needed, the
	// addresses only have to be valid.
	acc := demo.Account{Addr: "referee@example.test", Password: "unused", IMAPAddr: "127.0.0.1:1", SMTPAddr: "127.0.0.1:1"}
	cfg := demo.Config("example.test", dir, acc, 1, "warn")
	return &scaler{o: o, dir: dir, cfg: cfg, log: log, org: "organiser@example.test",
		rng: rand.New(rand.NewPCG(7, 7)), kinds: kinds}, nil
}

func (s *scaler) open(noSync bool) (*daemon.Daemon, error) {
	opt := daemon.Options{Logger: s.log}
	if noSync {
		opt.NoSync = true
	}
	return daemon.New(&s.cfg, opt)
}

// grow loads games up to n, then measures.
func (s *scaler) grow(ctx context.Context, n int) (*ScalePoint, error) {
	p := &ScalePoint{Games: n}
	begin := time.Now()
	d, err := s.open(true)
	if err != nil {
		return nil, err
	}
	load := s.load
	if s.o.Bulk {
		load = s.bulkLoad
	}
	if err := load(ctx, d, n); err != nil {
		d.DB.Close()
		return nil, err
	}
	p.LoadSeconds = time.Since(begin).Seconds()
	if p.StoreBytes, err = d.DB.Size(); err != nil {
		d.DB.Close()
		return nil, err
	}
	_, outbox, _ := d.Referee.QueueSize(referee.OutboxQueue)
	if err := d.DB.Close(); err != nil {
		return nil, err
	}
	p.BytesPerGame, p.OutboxBytesPerGame = p.StoreBytes/int64(n), outbox/int64(n)

	// Serve moves with the store reopened as in production (fsync).
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	d, err = s.open(false)
	if err != nil {
		return nil, err
	}
	defer d.DB.Close()
	p.RSSFileOpen, p.OpenWalked = procStatus("RssFile:"), d.DB.OpenWalked()
	trims0 := d.DB.MapTrims()
	stop := sampleHeap()
	ws0 := d.DB.WriteStats()
	var pages *pageCount
	if s.o.Pages {
		pages = &pageCount{written: map[string]int{}, splits: map[string]int{}}
	}
	times, err := s.moves(ctx, d, n, pages)
	if ws := d.DB.WriteStats().Sub(ws0); len(times) > 0 {
		p.DiskBytesPerMove, p.DataBytesPerMove = ws.DiskBytes/int64(len(times)), ws.DataBytes/int64(len(times))
		if pages != nil {
			pages.written["meta"] += int(ws.Commits)
			pages.report(p, len(times), ws.DiskBytes/int64(d.DB.PageSize()))
		}
	}
	p.HeapInuse = stop()
	if err != nil {
		return nil, err
	}
	p.RSS = peakRSS()
	p.RSSFile, p.RSSAnon = procStatus("RssFile:"), procStatus("RssAnon:")
	p.MapTrims = d.DB.MapTrims() - trims0
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.HeapAfterGC = ms.HeapAlloc
	p.Moves, p.Move = len(times), distOf(times)
	s.points = append(s.points, p)
	return p, nil
}

// load creates games up to n: organiser NEW commands in batches (one
// transaction per batch), then one JOIN input per seat.
func (s *scaler) load(ctx context.Context, d *daemon.Daemon, n int) error {
	r := d.Referee
	if _, err := r.AddOrganiser(s.org); err != nil {
		return err
	}
	first := s.games
	const batch = 100
	for s.games < n {
		if err := ctx.Err(); err != nil {
			return err
		}
		var b strings.Builder
		for k := 0; k < batch && s.games < n; k++ {
			s.games++
			info := s.kinds[s.games%len(s.kinds)].Info()
			np := info.NearestPlayers(s.o.Players)
			fmt.Fprintf(&b, "NEW %s id=s%d players=%d deadline=none seed=%s/s%d\n", info.Name, s.games, np, s.o.Seed, s.games)
			for j := 1; j <= np; j++ {
				fmt.Fprintf(&b, "PLAYER s%dp%d@example.test P%d\n", s.games, j, j)
			}
		}
		res, err := r.Organise(s.org, b.String())
		if err != nil {
			return err
		}
		for _, line := range res {
			if !strings.HasPrefix(line, "NEW: created") {
				return fmt.Errorf("bench: bulk load: %s", line)
			}
		}
	}
	type seat struct{ game, addr, secret string }
	var todo []seat
	err := r.EachGame(func(g *referee.Game) error {
		k, err := strconv.Atoi(strings.TrimPrefix(g.ID, "s"))
		if err != nil || k <= first {
			return nil
		}
		for _, st := range g.Seats {
			todo = append(todo, seat{g.ID, st.Address, st.Secret})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, st := range todo {
		out, err := r.Process(ctx, referee.Request{From: st.addr, Kind: referee.KindSeat, Game: st.game, Seat: -1, Secret: st.secret,
			Token: -1, Text: "JOIN", Keys: []string{"bench:join:" + st.addr}, Source: "bench", SenderVerified: true})
		if err != nil {
			return err
		}
		if out.Status != referee.OutcomeApplied && out.Status != referee.OutcomeQueued && out.Status != referee.OutcomeAnswered {
			return fmt.Errorf("bench: JOIN %s: %s %s", st.addr, out.Status, out.Detail)
		}
	}
	return nil
}

// moves times Options.Moves moves in random live games.
func (s *scaler) moves(ctx context.Context, d *daemon.Daemon, n int, pages *pageCount) ([]time.Duration, error) {
	r := d.Referee
	var times []time.Duration
	tries := 0
	for len(times) < s.o.Moves && tries < 20*s.o.Moves {
		tries++
		if err := ctx.Err(); err != nil {
			return times, err
		}
		id := fmt.Sprintf("s%d", 1+s.rng.IntN(n))
		g, err := r.GameRecord(id)
		if err != nil {
			return nil, err
		}
		if g.Status != referee.StatusRunning {
			continue
		}
		tb, err := engine.LoadTable(g.Table, nil)
		if err != nil {
			return nil, err
		}
		seat, p := -1, (*engine.Prompt)(nil)
		for i, pr := range tb.Prompts {
			if pr != nil && !pr.Complete {
				seat, p = i, pr
				break
			}
		}
		if p == nil {
			continue
		}
		bots, ok := tb.Game().(engine.BotMaker)
		if !ok {
			return nil, fmt.Errorf("bench: %s has no bots", g.Game)
		}
		bot, err := bots.NewBot("random")
		if err != nil {
			return nil, err
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", id, tb.Token())
		dec := &demo.PeekDecider{Load: func(string) (*engine.Table, error) { return tb, nil }, Bot: bot, Rand: rand.New(rand.NewPCG(h.Sum64(), 3))}
		lines, err := dec.Decide(ctx, &demo.MailView{Game: id, Seat: seat, Token: tb.Token(), Status: g.Status, Prompt: p,
			Legal: tb.State.Legal(p.Decision)})
		if err != nil {
			return nil, err
		}
		if len(lines) == 0 {
			continue
		}
		st := g.Seats[seat]
		req := referee.Request{From: st.Address, Kind: referee.KindSeat, Game: id, Seat: seat, Secret: st.Secret, Token: -1,
			Text: strings.Join(lines, "\n"), Keys: []string{fmt.Sprintf("bench:move:%d:%s:%d:%d", n, id, tb.Token(), tries)},
			Source: "bench", SenderVerified: true}
		if err := pages.read(d.DB); err != nil {
			return nil, err
		}
		begin := time.Now()
		out, err := r.Process(ctx, req)
		el := time.Since(begin)
		if err != nil {
			return nil, err
		}
		if err := pages.add(d.DB); err != nil {
			return nil, err
		}
		if out.Status != referee.OutcomeApplied && out.Status != referee.OutcomeQueued {
			return nil, fmt.Errorf("bench: move %q in %s: %s %s", req.Text, id, out.Status, out.Detail)
		}
		times = append(times, el)
	}
	if len(times) == 0 {
		return nil, fmt.Errorf("bench: no move could be timed with %d games", n)
	}
	return times, nil
}

// sampleHeap samples the Go heap in use every 20 ms until the returned
// function is called, which returns the peak.
func sampleHeap() func() uint64 {
	var mu sync.Mutex
	var peak uint64
	read := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		peak = max(peak, ms.HeapInuse)
		mu.Unlock()
	}
	read()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer func() { _ = recover() }()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		read()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// resetPeakRSS resets the kernel's peak RSS of this process (VmHWM);
// Linux only, best effort.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS reads VmHWM (bytes; 0 when unknown).
func peakRSS() uint64 { return procStatus("VmHWM:") }

func procStatus(key string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == key {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// pageCount sums the pages the timed moves wrote (Options.Pages).
type pageCount struct {
	before          map[uint64]pagefile.Info
	written, splits map[string]int
}

func (c *pageCount) read(db *store.DB) (err error) {
	if c != nil {
		c.before, err = db.PageReading()
	}
	return err
}

func (c *pageCount) add(db *store.DB) error {
	if c == nil {
		return nil
	}
	after, err := db.PageReading()
	if err != nil {
		return err
	}
	w, splits := pagefile.Written(c.before, after)
	for k, v := range w {
		c.written[k] += v
	}
	for k, v := range splits {
		c.splits[k] += v
	}
	return nil
}

func (c *pageCount) report(p *ScalePoint, moves int, diskPages int64) {
	p.PagesPerMove, p.SplitsPerMove = map[string]float64{}, map[string]float64{}
	sum := 0
	for k, v := range c.written {
		p.PagesPerMove[k] = float64(v) / float64(moves)
		sum += v
	}
	for k, v := range c.splits {
		p.SplitsPerMove[k] = float64(v) / float64(moves)
	}
	p.PagesCounted = float64(sum) / float64(max(1, diskPages))
}
