package bench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the report as plain tables.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "referee bench: %s; %s, %d CPUs; %.0fs\n", r.Stack, r.GoVersion, r.CPUs, r.Seconds)
	if r.Referee != nil && r.Echo != nil {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		rf, ec, ra := r.Referee, r.Echo, r.Ratio
		if ra == nil {
			ra = &Ratio{}
		}
		row := func(name, a, b, c string) { fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", name, a, b, c) }
		row("MAIL RUNS", "referee", "echo", "referee/echo")
		row("concurrent games x players", fmt.Sprintf("%d x %d", rf.Games, rf.Players), fmt.Sprintf("%d x %d", ec.Games, ec.Players), "")
		row("wall time (s)", f1(rf.Seconds), f1(ec.Seconds), "")
		row("moves (echo: mails answered)", fmt.Sprint(rf.Moves), fmt.Sprint(ec.Moves), "")
		row("player mails", fmt.Sprint(rf.PlayerMails), fmt.Sprint(ec.PlayerMails), "")
		row("mails delivered (both ways)", fmt.Sprint(rf.Mails), fmt.Sprint(ec.Mails), "")
		row("mails out per mail in", f2(rf.OutPerIn), f2(ec.OutPerIn), "")
		row("mean mail out (bytes)", fmt.Sprint(rf.OutBytes), fmt.Sprint(ec.OutBytes), "")
		row("moves/s", f1(rf.MovesPerSec), f1(ec.MovesPerSec), f2(ra.MovesPerSec))
		row("mails/s", f1(rf.MailsPerSec), f1(ec.MailsPerSec), f2(ra.MailsPerSec))
		lat := func(name string, a, b *Dist, cmp bool) {
			if a == nil || b == nil {
				return
			}
			// The latency compared is the ratio's; the others' ratios are
			// in parentheses.
			rm, rp := "("+f2(safeDiv(a.Median, b.Median))+")", "("+f2(safeDiv(a.P99, b.P99))+")"
			if cmp {
				rm, rp = f2(ra.LatencyMedian), f2(ra.LatencyP99)
			}
			row(name+" median (ms)", f1(a.Median), f1(b.Median), rm)
			row(name+" p99 (ms)", f1(a.P99), f1(b.P99), rp)
		}
		lat("reaction", rf.Reaction, ec.Reaction, ra.Latency == "reaction")
		if rf.Stages != nil && ec.Stages != nil {
			lat("reaction: intake wait", rf.Stages.Wait, ec.Stages.Wait, false)
			lat("reaction: handler", rf.Stages.Handler, ec.Stages.Handler, false)
			lat("reaction: send", rf.Stages.Send, ec.Stages.Send, false)
		}
		lat("latency", rf.Latency, ec.Latency, ra.Latency == "delivery")
		lat("round trip", rf.RoundTrip, ec.RoundTrip, ra.Latency == "round trip")
		row("store commits per player mail", f2(rf.CommitsPerInput), f2(ec.CommitsPerInput), "")
		row("store bytes written per player mail", f1(rf.DiskBytesPerInput), f1(ec.DiskBytesPerInput), "")
		row("log+outbox bytes per player mail", f1(rf.DataBytesPerInput), f1(ec.DataBytesPerInput), "")
		row("store write+fsync time (s)", f1(rf.DiskSeconds), f1(ec.DiskSeconds), f2(safeDiv(rf.DiskSeconds, ec.DiskSeconds)))
		row("CPU time (s)", f1(rf.CPUSeconds), f1(ec.CPUSeconds), f2(safeDiv(rf.CPUSeconds, ec.CPUSeconds)))
		row("handler CPU per mail (ms)", f2(rf.HandlerCPU), f2(ec.HandlerCPU), f2(safeDiv(rf.HandlerCPU, ec.HandlerCPU)))
		row("store group-commit CPU per mail (ms)", f2(rf.GroupCPU), f2(ec.GroupCPU), f2(safeDiv(rf.GroupCPU, ec.GroupCPU)))
		row("verified", yes(rf.Verified), yes(ec.Verified), "")
		_ = tw.Flush()
		fmt.Fprintln(w, "\nreaction: player's mail appended to the referee's mailbox -> the first mail the referee queued for it appended to its reader's;")
		fmt.Fprintln(w, "  its stages (medians of each, not adding up): arrival -> the hand-over to the handler, the handler's call (wall), its return -> that mail delivered;")
		fmt.Fprintln(w, "latency: player's mail appended to the referee's mailbox -> the answer appended to the player's (at the mail server;")
		fmt.Fprintln(w, "the referee folds a receipt that asks nothing into the player's next mail, which may follow the other seats' moves);")
		fmt.Fprintln(w, "round trip: player's mail accepted by SMTP -> the answer read by the player over IMAP (at the player).")
		fmt.Fprintln(w, "A move is an engine move applied (forced ones included); the referee also mails every other seat: the echo")
		fmt.Fprintln(w, "sends as many mails per input, of the same mean size (copies to another player, who ignores them).")
		fmt.Fprintln(w, "CPU time is the whole process's (servers, bots, sender); handler CPU the referee's (or echo's) own per mail, on its thread:")
		fmt.Fprintln(w, "  it leaves out the commits of its writes that the store's next-group goroutine wrote, and includes the GC assists it paid.")
		fmt.Fprintln(w, botsLine(rf.Bots))
		writePages(w, rf, ec)
		for _, p := range append(append([]string(nil), rf.Problems...), ec.Problems...) {
			fmt.Fprintln(w, "PROBLEM: "+p)
		}
	}
	if len(r.Scale) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "LIVE GAMES\tload (s)\tstore/game\tof it outbox\theap peak\tRSS peak\tRSS after\tof it mmap\tmmap at open\ttrims\tmove median\tmove p99\twritten/move\tlog+outbox/move\t\n")
		for _, p := range r.Scale {
			med, p99 := "-", "-"
			if p.Move != nil {
				med, p99 = fmt.Sprintf("%.2f ms", p.Move.Median), fmt.Sprintf("%.2f ms", p.Move.P99)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", p.Games, f1(p.LoadSeconds), bytesStr(uint64(p.BytesPerGame)),
				bytesStr(uint64(p.OutboxBytesPerGame)), bytesStr(p.HeapInuse), bytesStr(p.RSS), bytesStr(p.RSSFile+p.RSSAnon), bytesStr(p.RSSFile), bytesStr(p.RSSFileOpen), p.MapTrims, med, p99,
				bytesStr(uint64(p.DiskBytesPerMove)), bytesStr(uint64(p.DataBytesPerMove)))
		}
		_ = tw.Flush()
		if r.BulkLoad {
			fmt.Fprintln(w, "\nThe bulk load puts a few games through the referee, then copies them through the store's API on a NoSync store;")
		} else {
			fmt.Fprintln(w, "\nThe bulk load goes through the referee (organiser NEW, one JOIN input per seat) on a NoSync store;")
		}
		fmt.Fprintln(w, "the store is then reopened with fsync and the moves are timed (Referee.Process of one player's orders).")
		fmt.Fprintln(w, "Heap and RSS peaks are the whole process's while serving those moves (RSS includes the store's mapped pages: \"of it mmap\", the file-backed resident pages after the moves).")
		fmt.Fprintln(w, "\"mmap at open\" is the file-backed RSS just after the open (the binary's pages and the store's few read): the store reads its free list from the file,")
		fmt.Fprintln(w, "written by its Close; only after a crash does the open walk every page, and then it maps the file again (store/freelist.go).")
		fmt.Fprintln(w, "\"trims\": how many times the store dropped its mapping's pages from the process during the moves, its file-backed RSS having grown")
		fmt.Fprintln(w, "past store.Options.MappedLimit (the pages stay in the kernel's page cache; store/mapping.go).")
		for _, p := range r.Scale {
			if p.OpenWalked {
				fmt.Fprintf(w, "PROBLEM: at %d games the open walked the store (its free list was not on file).\n", p.Games)
			}
		}
	}
}

// writePages prints the pages a player mail wrote per bucket and kind
// (Options.Pages), the referee's beside the echo's.
func writePages(w io.Writer, rf, ec *Throughput) {
	if rf.PagesPerInput == nil {
		return
	}
	names := map[string]bool{}
	for k := range rf.PagesPerInput {
		names[k] = true
	}
	for k := range ec.PagesPerInput {
		names[k] = true
	}
	var sum [2]float64
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "PAGES A PLAYER MAIL\treferee\techo\t\n")
	for _, k := range slices.Sorted(maps.Keys(names)) {
		a, b := rf.PagesPerInput[k], ec.PagesPerInput[k]
		sum[0], sum[1] = sum[0]+a, sum[1]+b
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t\n", k, a, b)
	}
	fmt.Fprintf(tw, "all\t%.2f\t%.2f\t\n", sum[0], sum[1])
	_ = tw.Flush()
}

func f1(x float64) string { return fmt.Sprintf("%.1f", x) }
func f2(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", x)
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

func bytesStr(n uint64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return strings.TrimSpace(fmt.Sprintf("%d B", n))
}

// botsLine says how the referee run's players decided.
func botsLine(bots string) string {
	if bots == "deciding" {
		return "Players: deciding bots (--deciding-bots): each reads the game's table from the referee's store and asks the engine's bot on every prompt."
	}
	return "Players: scripted, every answer decided before the run by the same bots on the engine alone (same games, seeds, moves: checked);\n" +
		"  during the run a player reads its mail (IMAP), looks its answer up by the mail's seat and state token, and sends it (SMTP)."
}
