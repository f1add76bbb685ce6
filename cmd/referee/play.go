package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee"
)

const playArgs = "GAME --players ann,bob[,...] [--variant V] [--option k=v]... [--seed S] [--ruleset FILE] " +
	"[--state STATE.json | --from LOG.json [--at MOVE]] [--script FILE] [--lang en|it|fr|nl] [--views] [--log LOG.json] [--json]"

// cmdPlay plays a game offline. The script (a file, or stdin) holds one
// "player: command" per line; consecutive lines of one player form one
// message (as one mail would), a blank line ends a message; "#" starts a
// comment; directive lines script the random source ("!dice 3 4 5",
// "!draw R12": any kind the game lists; those before the first move script
// the setup's own draws) or make a deadline pass for a player ("!expire
// ann"). --from starts from a published game log up to move --at (an
// organiser's "what if"); --state from a state JSON, checked with the
// game's own consistency check.
func cmdPlay(_ context.Context, env *cliEnv, args []string) error {
	fs := newFlags(env, "play", playArgs)
	players := fs.String("players", "", "comma-separated player names, in seat order")
	variant := fs.String("variant", "", "variant (default: the game's first)")
	seed := fs.String("seed", "1", "seed of the random source")
	opts := kvFlag{}
	fs.Var(opts, "option", "game option key=value (repeatable)")
	rulesetFile := fs.String("ruleset", "", "ruleset data file overriding the game's default")
	stateFile := fs.String("state", "", "start from this state JSON instead of a new game")
	fromFile := fs.String("from", "", "start from this published game log (the final mail's attachment or referee export)")
	at := fs.Int("at", -1, "with --from: replay the log up to this move number (default: all of it)")
	scriptFile := fs.String("script", "", "script file (default: read stdin)")
	lang := fs.String("lang", "en", "language of the output")
	views := fs.Bool("views", false, "print every player's view after each message")
	logFile := fs.String("log", "", "write the game log (for referee replay) to this file")
	asJSON := fs.Bool("json", false, "print JSON only: every message's results with error codes, the final views, state and result")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	var from *engine.Log
	if *fromFile != "" {
		if *stateFile != "" {
			return fmt.Errorf("%w: --from and --state exclude each other", errUsage)
		}
		data, err := os.ReadFile(*fromFile)
		if err != nil {
			return err
		}
		from = &engine.Log{}
		if err := json.Unmarshal(data, from); err != nil {
			return fmt.Errorf("%s: not a game log: %w", *fromFile, err)
		}
		if len(pos) == 0 {
			pos = []string{from.Game}
		}
	} else if *at >= 0 {
		return fmt.Errorf("%w: --at goes with --from", errUsage)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one GAME", errUsage)
	}
	g, err := engine.Lookup(pos[0])
	if err != nil {
		return err
	}
	if from != nil && from.Game != g.Info().Name {
		return fmt.Errorf("%s is a log of %s, not %s", *fromFile, from.Game, g.Info().Name)
	}
	if *stateFile != "" && *logFile != "" {
		return fmt.Errorf("%w: --log needs the game from its start (a new game or --from LOG.json); a state JSON has no seed to replay from", errUsage)
	}
	var ruleset []byte
	if *rulesetFile != "" {
		if ruleset, err = os.ReadFile(*rulesetFile); err != nil {
			return err
		}
	}
	r, err := referee.NewRenderer()
	if err != nil {
		return err
	}
	out := env.stdout
	if *asJSON {
		out = io.Discard
	}
	p := &player{g: g, r: r, lang: *lang, out: out, views: *views, json: *asJSON}

	in := env.stdin
	if *scriptFile != "" {
		f, err := os.Open(*scriptFile)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	// Directives before the first player line script the setup's own draws.
	br := bufio.NewReader(in)
	var leading []engine.Forced
	var pending []string
	for {
		line, err := br.ReadString('\n')
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "!") && !strings.HasPrefix(strings.ToLower(t), "!expire") {
			f := strings.Fields(t[1:])
			if len(f) < 2 || !knownKind(g, f[0]) {
				return fmt.Errorf("script: unknown directive %q before the first move (%s)", t, directiveHelp(g))
			}
			for _, v := range f[1:] {
				leading = append(leading, engine.Forced{Kind: strings.ToLower(f[0]), Value: v})
			}
		} else if t != "" && !strings.HasPrefix(t, "#") {
			pending = append(pending, line)
			break
		}
		if err != nil {
			break
		}
	}
	rest := io.MultiReader(strings.NewReader(strings.Join(pending, "")), br)

	var setup []engine.Event
	var first *engine.Report
	switch {
	case from != nil:
		lg, err := logUpTo(*from, *at)
		if err != nil {
			return err
		}
		st, err := engine.Replay(g, lg)
		if err != nil {
			return fmt.Errorf("%s: %w", *fromFile, err)
		}
		p.tb = engine.WrapTable(g, st)
		for _, f := range leading { // recorded in the next step, so the new log replays
			p.tb.Script(f.Kind, f.Value)
		}
		first = &engine.Report{}
		p.log = &lg
		fmt.Fprintf(out, "== %s replayed up to move %d of %d\n", *fromFile, st.Head().Moves, lastMove(*from))
	case *stateFile != "":
		data, err := os.ReadFile(*stateFile)
		if err != nil {
			return err
		}
		st, err := g.DecodeState(data, ruleset)
		if err != nil {
			return fmt.Errorf("%s: %w", *stateFile, err)
		}
		// An impossible position (51 dice, -5 coins) is refused with the
		// game's own consistency check.
		if err := st.Check(); err != nil {
			return fmt.Errorf("%s: not a possible position: %w", *stateFile, err)
		}
		// Directives before the first move script the next draws.
		p.tb = engine.WrapTable(g, st)
		for _, f := range leading {
			p.tb.Script(f.Kind, f.Value)
		}
		first = &engine.Report{}
	default:
		if *players == "" {
			return fmt.Errorf("%w: --players is required", errUsage)
		}
		cfg := engine.Config{Variant: *variant, Options: opts, Seats: strings.Split(*players, ","), Seed: *seed, Ruleset: ruleset, Script: leading}
		p.tb, first, setup, err = engine.NewTable(g, cfg)
		if err != nil {
			return err
		}
		p.log = &engine.Log{Game: g.Info().Name, Config: cfg, Ruleset: ruleset, RulesetSHA: p.tb.State.Head().RulesetSHA, Setup: setup}
	}
	p.tb.HashSteps = true
	p.seats = p.tb.State.Head().Seats
	p.events(-1, setup)
	p.report(first)
	p.prompts()

	if err := p.runScript(rest); err != nil {
		return err
	}

	res := p.tb.State.Result()
	if p.log != nil && *logFile != "" {
		p.log.Final, _ = engine.StateHash(p.tb.State)
		data, err := json.MarshalIndent(p.log, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*logFile, data, 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		views := make([]any, len(p.seats))
		for s := range views {
			views[s] = p.tb.State.View(s)
		}
		var waiting []any
		if res == nil {
			for _, d := range p.tb.Waiting() {
				waiting = append(waiting, map[string]any{"seat": d.Seat, "player": p.seats[d.Seat], "prompt": p.tb.Prompts[d.Seat],
					"legal": p.tb.State.Legal(d)})
			}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Token    int            `json:"token"`
			Messages []jsonMessage  `json:"messages"`
			Waiting  []any          `json:"waiting,omitempty"`
			Views    []any          `json:"views"`
			State    engine.State   `json:"state"`
			Result   *engine.Result `json:"result"`
		}{p.tb.Token(), p.messages, waiting, views, p.tb.State, res})
	}
	if res != nil {
		p.result(res)
	} else {
		fmt.Fprintf(out, "\n== the script ended; the game goes on (token %d)\n", p.tb.Token())
	}
	if p.views || res != nil {
		for s := range p.seats {
			p.view(s)
		}
	}
	return nil
}

// jsonMessage is one scripted message in the --json output: each order's
// status with the rule errors (codes and parameters) and the steps applied.
type jsonMessage struct {
	Player   string        `json:"player"`
	Seat     int           `json:"seat"`
	Text     string        `json:"text"`
	Rejected bool          `json:"rejected"`
	Orders   []jsonOrder   `json:"orders"`
	Steps    []engine.Step `json:"steps,omitempty"`
}

type jsonOrder struct {
	Text   string              `json:"text"`
	Status string              `json:"status"`
	Cmds   []string            `json:"cmds,omitempty"`
	Errors []*engine.RuleError `json:"errors,omitempty"`
}

// logUpTo is a published log cut after move at (all of it when at < 0),
// without its final hash; errata from later moves go too.
func logUpTo(lg engine.Log, at int) (engine.Log, error) {
	if at < 0 {
		lg.Final = ""
		return lg, nil
	}
	if last := lastMove(lg); at > last {
		return lg, fmt.Errorf("--at %d: the log ends at move %d", at, last)
	}
	var steps []engine.Step
	for _, s := range lg.Steps {
		if s.Token > at {
			break
		}
		steps = append(steps, s)
	}
	var errata []engine.Erratum
	for _, e := range lg.Errata {
		if e.Before <= len(steps) {
			errata = append(errata, e)
		}
	}
	lg.Steps, lg.Errata, lg.Final = steps, errata, ""
	return lg, nil
}

func lastMove(lg engine.Log) int {
	if len(lg.Steps) == 0 {
		return 0
	}
	return lg.Steps[len(lg.Steps)-1].Token
}

type player struct {
	g     engine.Game
	tb    *engine.Table
	r     *referee.Renderer
	lang  string
	out   io.Writer
	views bool
	seats []string
	log   *engine.Log
	// json collects the messages for --json.
	json     bool
	messages []jsonMessage
}

func (p *player) reader(seat int) referee.Reader {
	return referee.Reader{Game: p.g.Info().Name, Lang: p.lang, Seat: seat, Seats: p.seats}
}

func (p *player) seatOf(name string) (int, error) {
	name = strings.TrimSpace(name)
	for i, s := range p.seats {
		if strings.EqualFold(s, name) {
			return i, nil
		}
	}
	if n, err := strconv.Atoi(name); err == nil && n >= 0 && n < len(p.seats) {
		return n, nil
	}
	return -1, fmt.Errorf("no player %q (players: %s)", name, strings.Join(p.seats, ", "))
}

// runScript reads the script and feeds it to the table.
func (p *player) runScript(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	cur, curSeat, lineNo := []string(nil), -1, 0
	flush := func() error {
		if curSeat < 0 || len(cur) == 0 {
			cur, curSeat = nil, -1
			return nil
		}
		seat, text := curSeat, strings.Join(cur, "\n")
		cur, curSeat = nil, -1
		return p.message(seat, text)
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i == 0 {
			continue
		}
		if line == "" {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		if strings.HasPrefix(line, "!") {
			if err := flush(); err != nil {
				return err
			}
			if err := p.directive(line[1:]); err != nil {
				return fmt.Errorf("script line %d: %w", lineNo, err)
			}
			continue
		}
		name, cmd, ok := strings.Cut(line, ":")
		if !ok {
			return fmt.Errorf("script line %d: want \"player: command\", got %q", lineNo, line)
		}
		seat, err := p.seatOf(name)
		if err != nil {
			return fmt.Errorf("script line %d: %w", lineNo, err)
		}
		if seat != curSeat {
			if err := flush(); err != nil {
				return err
			}
			curSeat = seat
		}
		cur = append(cur, strings.TrimSpace(cmd))
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}

func (p *player) directive(d string) error {
	f := strings.Fields(d)
	if len(f) == 0 {
		return fmt.Errorf("empty directive")
	}
	kind := strings.ToLower(f[0])
	if kind == "expire" {
		if len(f) != 2 {
			return fmt.Errorf("want \"!expire PLAYER\"")
		}
		seat, err := p.seatOf(f[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(p.out, "\n== the deadline passes for %s\n", p.seats[seat])
		rep, err := p.tb.Expire(seat)
		if err != nil {
			return err
		}
		p.report(rep)
		p.prompts()
		return nil
	}
	if !knownKind(p.g, kind) {
		return fmt.Errorf("unknown directive !%s (%s)", kind, directiveHelp(p.g))
	}
	if len(f) < 2 {
		return fmt.Errorf("!%s needs values", kind)
	}
	p.tb.Script(kind, f[1:]...)
	return nil
}

// message submits one player's message, handling CLEAR and STATUS as the
// referee would.
func (p *player) message(seat int, text string) error {
	fmt.Fprintf(p.out, "\n== %s:\n%s\n", p.seats[seat], indentLines(text, "   > "))
	var orders []engine.Order
	for _, o := range engine.ParseScript(text) {
		switch o.Keyword() {
		case "CLEAR":
			n := len(p.tb.Clear(seat))
			fmt.Fprintf(p.out, "   cleared %d queued order(s)\n", n)
		case "STATUS":
			p.view(seat)
		default:
			orders = append(orders, o)
		}
	}
	if len(orders) == 0 {
		return nil
	}
	rep, err := p.tb.Submit(seat, orders, -1)
	if err != nil {
		return err
	}
	if p.json {
		m := jsonMessage{Player: p.seats[seat], Seat: seat, Text: text, Rejected: rep.Rejected, Steps: rep.Steps}
		for _, r := range rep.Results {
			m.Orders = append(m.Orders, jsonOrder{Text: r.Order.Text, Status: r.Status, Cmds: r.Cmds, Errors: r.Errors})
		}
		p.messages = append(p.messages, m)
	}
	p.report(rep)
	p.prompts()
	if p.views {
		for s := range p.seats {
			p.view(s)
		}
	}
	return nil
}

func (p *player) report(rep *engine.Report) {
	if rep == nil {
		return
	}
	rd := p.reader(rep.Seat)
	for _, res := range rep.Results {
		line := res.Order.Text
		switch res.Status {
		case "applied", "agreed", "partial", "else_pass":
			fmt.Fprintf(p.out, "   %-9s %s", res.Status, line)
			if len(res.Cmds) > 0 && strings.Join(res.Cmds, "; ") != line {
				fmt.Fprintf(p.out, "  => %s", strings.Join(res.Cmds, "; "))
			}
			fmt.Fprintln(p.out)
		default:
			fmt.Fprintf(p.out, "   %-9s %s\n", res.Status, line)
		}
		for _, e := range res.Errors {
			fmt.Fprintf(p.out, "             %s\n", p.errorText(rd, e))
		}
	}
	if rep.Rejected {
		fmt.Fprintln(p.out, "   (nothing was applied)")
	}
	for _, s := range rep.Steps {
		p.events(-1, s.Events)
	}
	for _, h := range rep.Halts {
		fmt.Fprintf(p.out, "   %s's queue halted at %q:\n", p.seats[h.Seat], h.Halt.Order.Text)
		for _, e := range h.Halt.Errors {
			fmt.Fprintf(p.out, "             %s\n", p.errorText(p.reader(h.Seat), e))
		}
	}
	for _, d := range rep.Dropped {
		for i, o := range d.Orders {
			fmt.Fprintf(p.out, "   dropped   %s (%s)\n", o.Text, p.seats[d.Seat])
			if i < len(d.Reasons) && d.Reasons[i] != nil {
				fmt.Fprintf(p.out, "             %s\n", p.errorText(p.reader(d.Seat), d.Reasons[i]))
			}
		}
	}
	for _, f := range rep.Failed {
		fmt.Fprintf(p.out, "   failed    %s (%s)\n", f.Order.Text, p.seats[f.Seat])
	}
	if p.log != nil {
		p.log.Steps = append(p.log.Steps, rep.Steps...)
	}
}

// events prints events as an observer sees them (the offline referee is
// trusted: it shows what the public sees plus a mark for private events).
func (p *player) events(_ int, evs []engine.Event) {
	for _, ev := range evs {
		viewer := -1
		if !ev.Vis.Public && len(ev.Vis.Seats) > 0 {
			viewer = ev.Vis.Seats[0]
		}
		s, ok, err := p.r.Event(p.reader(viewer), ev)
		if err != nil {
			s = fmt.Sprintf("%s (template error: %v)", ev.Type, err)
		}
		if !ok {
			continue
		}
		mark := ""
		if viewer >= 0 {
			mark = " [private to " + p.seats[viewer] + "]"
		}
		fmt.Fprintf(p.out, "   * %s%s\n", s, mark)
	}
}

func (p *player) prompts() {
	if p.tb.State.Result() != nil {
		return
	}
	for _, d := range p.tb.Waiting() {
		pr := p.tb.Prompts[d.Seat]
		s, err := p.r.Prompt(p.reader(d.Seat), pr, p.tb.State.View(d.Seat))
		if err != nil {
			s = fmt.Sprintf("%s (template error: %v)", d.Kind, err)
		}
		fmt.Fprintf(p.out, "-- waiting for %s [token %d]:\n%s\n", p.seats[d.Seat], pr.Token, indentLines(s, "   "))
	}
}

func (p *player) view(seat int) {
	s, err := p.r.Summary(p.reader(seat), p.tb.State.View(seat))
	if err != nil {
		s = fmt.Sprintf("(template error: %v)", err)
	}
	fmt.Fprintf(p.out, "\n-- %s's view:\n%s\n", p.seats[seat], indentLines(s, "   "))
}

func (p *player) result(res *engine.Result) {
	fmt.Fprintln(p.out, "\n== game over")
	for _, sc := range ranked(res) {
		var parts []string
		for _, pt := range sc.Parts {
			parts = append(parts, fmt.Sprintf("%s %d", pt.Name, pt.Points))
		}
		fmt.Fprintf(p.out, "   %d. %-12s %4d  %s\n", res.Rank[sc.Seat], p.seats[sc.Seat], sc.Total, strings.Join(parts, ", "))
	}
}

// directiveHelp lists the directives a game knows.
func directiveHelp(g engine.Game) string {
	kinds := []string{"!expire PLAYER"}
	for _, k := range g.Info().ScriptKinds {
		kinds = append(kinds, k.Usage)
	}
	return "this game knows " + strings.Join(kinds, ", ")
}

// knownKind reports whether the game declares a script kind.
func knownKind(g engine.Game, kind string) bool {
	for _, k := range g.Info().ScriptKinds {
		if strings.EqualFold(k.Kind, kind) {
			return true
		}
	}
	return false
}

func indentLines(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}

// errorText is a rule error as a player reads it, with its code in
// brackets when the sentence does not name it: the organiser trying a
// position wants both (a game without words for a code gets a generic
// sentence).
func (p *player) errorText(rd referee.Reader, e *engine.RuleError) string {
	s, _ := p.r.Error(rd, e)
	if !strings.Contains(s, e.Code) {
		s += " [" + e.Code + "]"
	}
	return s
}
