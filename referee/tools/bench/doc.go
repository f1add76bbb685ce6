// Package bench is `referee bench`, the end-to-end benchmark: bot games
// played by real mail through a mail stack (the embedded one of
// referee/tools/demo, or Dovecot and Postfix), the same stack driven by a
// pass-through "echo" referee as the baseline, and the referee's store and
// memory with 10 to 10,000 live games.
//
// # How the players decide
//
// The referee run's players share the process (and its cores) with the
// referee; the echo's players do next to nothing. So that the two runs
// differ by the referee's work and not by the players', the referee run's
// players decide nothing while it is timed: before it, demo.PlanGame plays
// each game through the engine alone with the same bots (the game's best
// bot, each player's random source seeded from the run's seed, the seats
// drawn from the game's seed as the referee draws them) and records every
// seat's answer at every state token it is asked at. During the run a
// player (demo.ScriptBrain) reads each mail over IMAP, takes its seat and
// token from the Message-ID, and sends the planned answer over SMTP. It
// still asks for the JSON part (FORMAT json), so the referee renders the
// same mails. The run checks that the referee played exactly the plan:
// every game's logged moves and final state are the plan's (verifyGames).
// With Options.DecidingBots (--deciding-bots) the players decide on each
// prompt instead, reading the game's table from the referee's store
// (demo.PeekDecider), as before the plans; they play the same moves
// (TestScriptedBotsPlayTheDecidingBotsGames).
//
// Measured (6 games x 2 players, 724 moves, 560 player mails; CPU
// profiles labelled by part, load 28-36): the deciding players took
// 19-21% of the referee run's CPU samples, 2.8-3.7 ms per player mail
// (the echo's players 2.0-2.1 ms); the planned ones 8-11%, 1.1-1.4 ms.
// What a planned player still costs is its mail client: the IMAP fetch,
// mailmsg.Parse of the referee's multipart mail, the reply's composition
// and the SMTP send.
//
// # What the figures measure
//
// CPU time is the whole process's. A profile (Options.ProfileDir) labels
// each part's goroutines bench=daemon, players or "mail servers"
// (go tool pprof -tags); the unlabelled rest is the runtime's, mostly the
// garbage collector's workers (about 15%). The handler's CPU per mail is
// the referee's intake on its own thread (handlercpu.go): it leaves out
// the store commits of its writes that the store's next-group goroutine
// wrote (store.DB.Group; in the profiles its writes replayed outside
// HandleMail, store.(*Tx).apply with the outbox bodies deflated, were 25
// to 40% of the handler's own samples, plus a share of the bbolt commits
// those goroutines wrote with the sender's delivery records), and
// includes the collector's assists its goroutine paid. Those goroutines'
// CPU is counted apart (store.DB.MeasureGroupCPU, on their locked
// threads) and reported per mail handled as group_cpu_ms: it holds the
// sender's delivery records and the intake's attempts too, so
// handler_cpu_ms + group_cpu_ms bounds the handler's CPU with all its
// commits from above.
//
// An execution trace of each mail run (Options.TraceDir, --trace DIR;
// go tool trace) shows where the reaction's wall time goes that is not
// CPU; each hand-over to the handler is a region named "handler". The reaction's stages are wall times that
// include the waits for a core held by the players and the servers.
//
// SchedWait (sched_wait) is how long the process's goroutines waited for
// a processor during each mail run, from the runtime's histogram
// (runtime/metrics /sched/latencies:seconds, read before and after the
// timed part, the same for both runs): where the reaction's wait goes
// that is neither I/O nor the store. It found the referee's intake
// waiting behind the handlers' CPU (12.3 ms a player mail, p99 16.8 ms,
// against the echo's 2.5 ms, load 24-30). Yielding the processor at
// the handler's stages (runtime.Gosched) cut it under load but cost the
// referee 8-10% of its throughput on a quiet machine (more commits a
// mail: 0.99 -> 1.09), so it was taken out again (session 16).
//
// With Options.Pages (--pages) the mail runs also count the pages every
// commit of the store writes, per top-level bucket and kind
// (store.DB.StartPageCensus: each commit's new nodes read before the
// next commit; exact, and the runs' times not comparable), reported per
// player mail (Throughput.PagesPerInput, pages_per_input) beside the
// echo's: where DiskBytesPerInput goes. HeaderMerges (header_merges) says
// how many times the store merged its top level back into one leaf.
//
// It owns the benchmark's load, its measures and its report. It must not
// change the referee's behaviour to measure it: it drives the daemon as a
// player would, by mail.
package bench
