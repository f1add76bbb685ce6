package bench

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "github.com/pbem-referee/referee/engine/brewcrafters"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	_ "github.com/pbem-referee/referee/engine/fromage"
	_ "github.com/pbem-referee/referee/engine/heavenale"
	"github.com/pbem-referee/referee/referee/tools/demo"
	"github.com/pbem-referee/referee/store"
)

// TestSmallBench runs a small benchmark end to end (a handful of games on
// the embedded stack, the echo baseline, two small scale points) and
// checks that the figures are sane and that no move was lost or doubled:
// every game's log replays to the referee's final state and the referee
// logged exactly one input per mail its players sent.
func TestSmallBench(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end benchmark")
	}
	var progress bytes.Buffer
	profiles := t.TempDir()
	rep, err := Run(context.Background(), Options{Games: 2, Players: 2, Sizes: []int{5, 20}, Moves: 10, Dir: t.TempDir(), ProfileDir: profiles, Pages: true,
		Timeout: 3 * time.Minute, Progress: &progress,
		GameOptions: map[string]map[string]string{"dicebrewing": {"round_limit": "3"}},
		// The check of lost and doubled mails can fail.
		afterGames: func(site *demo.Site, ids []string, sent map[string]int, plans map[string]*demo.Plan) {
			for _, delta := range []int{-1, 1} {
				wrong := map[string]int{}
				for id, n := range sent {
					wrong[id] = n + delta
				}
				if _, problems := verifyGames(site, ids, wrong, plans); len(problems) != len(ids) {
					t.Errorf("%+d mail per game: problems %v", delta, problems)
				}
			}
			// A game that is not its plan's (one move changed) is found.
			changed := map[string]*demo.Plan{}
			for id, p := range plans {
				q := *p
				q.Moves = append([]demo.PlanMove(nil), p.Moves...)
				q.Moves[len(q.Moves)-1].Cmd += " X"
				changed[id] = &q
			}
			if _, problems := verifyGames(site, ids, sent, changed); len(problems) != len(ids) {
				t.Errorf("changed plans: problems %v", problems)
			}
			if _, problems := verifyGames(site, append(ids, "nosuch"), sent, plans); len(problems) != 1 {
				t.Errorf("unknown game: problems %v", problems)
			}
		}})
	t.Logf("progress:\n%s", progress.String())
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	rep.WriteTable(&table)
	t.Logf("\n%s", table.String())
	r, e := rep.Referee, rep.Echo
	if !r.Verified || r.Bots != "scripted" || e.Bots != "" {
		t.Errorf("referee run (%s bots) not verified: %v", r.Bots, r.Problems)
	}
	if !strings.Contains(table.String(), "Players: scripted, every answer decided before the run") {
		t.Errorf("the table does not say how the players decide:\n%s", table.String())
	}
	if !e.Verified {
		t.Errorf("echo run not verified: %v", e.Problems)
	}
	if r.Moves <= 0 || r.PlayerMails < 2*2*2 || r.Mails <= r.PlayerMails || r.MovesPerSec <= 0 || r.MailsPerSec <= 0 {
		t.Errorf("referee figures: %+v", r)
	}
	// Every player mail is answered at least once, and the referee writes
	// to every seat: more mails out than in.
	if r.Latency == nil || r.Latency.N < r.PlayerMails*9/10 || r.Latency.Median <= 0 || r.Latency.P99 < r.Latency.Median {
		t.Errorf("referee latency %+v for %d player mails", r.Latency, r.PlayerMails)
	}
	if r.RoundTrip == nil || r.RoundTrip.Median < r.Latency.Median/2 {
		t.Errorf("round trip %+v, latency %+v", r.RoundTrip, r.Latency)
	}
	rounds := (r.PlayerMails + 1) / 2
	if e.Moves != 2*rounds || e.PlayerMails != e.Moves {
		t.Errorf("echo: %d answered, %d sent, %d mails; want %d round trips", e.Moves, e.PlayerMails, e.Mails, 2*rounds)
	}
	// Like with like: the echo sends as many mails per input as the
	// referee, of the same mean size (within a mail of either run: the
	// echo copies whole mails for its own count of inputs).
	if r.OutPerIn <= 1 || math.Abs(e.OutPerIn-r.OutPerIn) > 2/float64(e.Moves)+1e-9 ||
		e.Mails != e.Moves+int(math.Round(e.OutPerIn*float64(e.Moves))) {
		t.Errorf("mails out per mail in: referee %.3f, echo %.3f (%d mails for %d inputs)", r.OutPerIn, e.OutPerIn, e.Mails, e.Moves)
	}
	if r.OutBytes < 1000 || math.Abs(float64(e.OutBytes-r.OutBytes)) > 0.05*float64(r.OutBytes) {
		t.Errorf("mean mail out: referee %d bytes, echo %d", r.OutBytes, e.OutBytes)
	}
	// Every input costs the intake and the referee a commit at least.
	for _, run := range []*Throughput{r, e} {
		if run.CommitsPerInput < 1 || run.DiskSeconds <= 0 {
			t.Errorf("%s: %d commits (%.2f per input), %.3fs writing", run.Referee, run.Commits, run.CommitsPerInput, run.DiskSeconds)
		}
	}
	// The pages a player mail wrote, by bucket (Options.Pages, issue 25):
	// all of the bytes written, and the log's in the referee's run only.
	for _, run := range []*Throughput{r, e} {
		sum := 0.0
		for _, n := range run.PagesPerInput {
			sum += n
		}
		if got := sum * store.NewPageSize; math.Abs(got-run.DiskBytesPerInput) > 0.01 {
			t.Errorf("%s: the pages a mail counted make %.1f bytes, %.1f written: %v", run.Referee, got, run.DiskBytesPerInput, run.PagesPerInput)
		}
		if n := run.PagesPerInput["log.flat leaf"]; (n > 0) != (run == r) || run.PagesPerInput["meta"] != run.CommitsPerInput {
			t.Errorf("%s: %.2f log leaves a mail, %.2f commits: %v", run.Referee, n, run.CommitsPerInput, run.PagesPerInput)
		}
	}
	if !strings.Contains(table.String(), "PAGES A PLAYER MAIL") {
		t.Errorf("the table has no pages a mail:\n%s", table.String())
	}
	// The handler's own CPU per mail (on Linux, per thread): the referee
	// parses, applies and renders, the echo reads a header; both are a
	// part of the process's CPU per mail.
	if runtime.GOOS == "linux" {
		for _, run := range []*Throughput{r, e} {
			if run.HandlerCPU <= 0 || run.HandlerCPU*float64(run.PlayerMails) > run.CPUSeconds*1000 {
				t.Errorf("%s: handler CPU %.3f ms per mail, %d mails, process %.2fs", run.Referee, run.HandlerCPU, run.PlayerMails, run.CPUSeconds)
			}
		}
		if r.HandlerCPU <= e.HandlerCPU {
			t.Errorf("handler CPU per mail: referee %.3f ms, echo %.3f ms", r.HandlerCPU, e.HandlerCPU)
		}
	}
	if e.Latency == nil || e.Latency.N != e.Moves {
		t.Errorf("echo latency %+v", e.Latency)
	}
	// The reaction: the first mail queued for an input, delivered. Every
	// echo input queues its reply; most of the referee's queue a mail
	// (a move prompts the next seat), and none comes before its input.
	if e.Reaction == nil || e.Reaction.N != e.Moves || e.Reaction.Median <= 0 || e.Reaction.Median > e.Latency.Median {
		t.Errorf("echo reaction %+v, latency %+v", e.Reaction, e.Latency)
	}
	if r.Reaction == nil || r.Reaction.N < r.PlayerMails/2 || r.Reaction.N > r.PlayerMails || r.Reaction.Median <= 0 {
		t.Errorf("referee reaction %+v for %d player mails", r.Reaction, r.PlayerMails)
	}
	// Its stages: each input's wait and handler call are positive and
	// within its reaction (the send may be negative: a mail out before
	// the call returned).
	for _, run := range []*Throughput{r, e} {
		st := run.Stages
		if st == nil || st.Wait.N != run.Reaction.N || st.Handler.N != run.Reaction.N || st.Wait.Median <= 0 ||
			st.Handler.Median <= 0 || st.Wait.Median > run.Reaction.Max || st.Handler.Median > run.Reaction.Max {
			t.Errorf("%s: stages %+v of the reaction %+v", run.Referee, st, run.Reaction)
		}
	}
	if rep.Ratio == nil || rep.Ratio.MovesPerSec <= 0 || rep.Ratio.LatencyMedian <= 0 || rep.Ratio.Latency != "reaction" ||
		rep.Ratio.DeliveryMedian <= 0 {
		t.Errorf("ratio %+v", rep.Ratio)
	}
	if len(rep.Scale) != 2 {
		t.Fatalf("%d scale points", len(rep.Scale))
	}
	for _, p := range rep.Scale {
		if p.Moves != 10 || p.Move == nil || p.Move.Median <= 0 || p.BytesPerGame <= 0 || p.OutboxBytesPerGame <= 0 ||
			p.OutboxBytesPerGame > p.BytesPerGame || p.HeapInuse == 0 {
			t.Errorf("scale point %+v", p)
		}
	}
	if rep.Scale[1].StoreBytes <= rep.Scale[0].StoreBytes {
		t.Errorf("the store did not grow: %d then %d bytes", rep.Scale[0].StoreBytes, rep.Scale[1].StoreBytes)
	}
	// The profiles tell the parts apart by their goroutines' label.
	for _, run := range []string{"referee", "echo"} {
		f, err := os.Open(filepath.Join(profiles, run+".cpu.pprof"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		prof, err := io.ReadAll(zr)
		_ = f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{partLabel, partReferee, partPlayers, partServers} {
			if !bytes.Contains(prof, []byte(part)) {
				t.Errorf("%s profile: no label %q", run, part)
			}
		}
	}
	raw, err := json.Marshal(rep)
	if err != nil || !strings.Contains(string(raw), `"moves_per_sec"`) {
		t.Errorf("json: %v %s", err, raw)
	}
	if !strings.Contains(table.String(), "referee/echo") || !strings.Contains(table.String(), "LIVE GAMES") {
		t.Errorf("table:\n%s", table.String())
	}
}
