package referee

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// TestCorrectionMailedToWhoPlayedIt_Issue24 (issue 24: after a REPLACE,
// every mail names who played which game; corrections mailed to the
// players concerned): a place changes hands, between rounds or within
// its round-1 game after a generated number of moves, to a substitute of
// another language; then the organiser corrects that round-1 game
// (RESULT, changed or the same again; DOUBLEFORFEIT of a game handed on).
// Every language of the organiser x Swiss and tables x the two hand-overs
// x the corrections: the correction is mailed to everyone who played the
// game, the departed holder too, each once in their own language, and to
// the place's holder now only when they played it or their standings
// change (the game had no result, or the place's points moved); the
// organiser's answer names exactly them.
func TestCorrectionMailedToWhoPlayedIt_Issue24(t *testing.T) {
	langs := templates.Languages
	eg, _ := engine.Lookup("toy")
	bot, _ := eg.(engine.BotMaker).NewBot(eg.Info().Bots[0])
	departedTold := 0
	for li, lang := range langs {
		for _, format := range []string{"swiss", "tables"} {
			for _, within := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/within=%v", lang, format, within), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(24, uint64(li)))
					h := newHarness(t)
					table := ""
					if format == "tables" {
						table = " table=3"
					}
					h.org(fmt.Sprintf("NEW TOURNAMENT cup game=toy format=%s%s rounds=3 lang=%s", format, table, lang))
					langOf := map[string]string{}
					var enter strings.Builder
					for i := range 6 {
						addr, l := fmt.Sprintf("p%d@p.test", i), langs[(li+i)%len(langs)]
						langOf[addr] = l
						fmt.Fprintf(&enter, "ENTER cup %s P%d %s\n", addr, i, l)
					}
					h.org(enter.String() + "START cup")
					h.mails()
					tr := h.tour("cup")
					var m tournament.Match
					for _, x := range tr.Rounds[0].Matches {
						if x.State != tournament.MatchBye && slices.Contains(x.Seats, 0) {
							m = x
						}
					}
					if m.GameID == "" {
						t.Fatal("P0 has a bye in round 1")
					}
					zedLang := langs[(li+2)%len(langs)]
					langOf["zed@p.test"] = zedLang
					replace := fmt.Sprintf("REPLACE cup p0@p.test zed@p.test Zed %s", zedLang)
					if within {
						for moves := 1 + rng.IntN(2); h.table(m.GameID).Token() < moves; {
							tb := h.table(m.GameID)
							d := tb.Waiting()[0]
							opts := tb.State.Legal(d)
							h.send(m.GameID, h.game(m.GameID).Seats[d.Seat].Address, opts[bot.Choose(tb.State, d, opts, rng)].Cmd, tb.Token())
						}
						h.org(replace)
						h.mails()
					} else {
						var adj strings.Builder
						for _, x := range tr.Rounds[0].Matches {
							if x.State != tournament.MatchBye {
								fmt.Fprintf(&adj, "ADJUDICATE %s\n", x.GameID)
							}
						}
						h.org(adj.String())
						h.mails()
						if n := len(h.tour("cup").Rounds); n != 2 {
							t.Fatalf("%d rounds open", n)
						}
						h.org(replace)
						h.mails()
					}
					seat0 := slices.Index(m.Seats, 0)
					// check runs a correction and compares whom it mailed
					// with whom it should: who played each seat's game
					// (P0 and, when handed on within it, Zed), and Zed
					// when the place's standings change.
					check := func(line string, zedConcerned bool) {
						t.Helper()
						h.org(line)
						var want []string
						for _, e := range m.Seats {
							if e == 0 {
								want = append(want, "p0@p.test")
								if within || zedConcerned {
									want = append(want, "zed@p.test")
								}
								continue
							}
							want = append(want, fmt.Sprintf("p%d@p.test", e))
						}
						var got []string
						var answer string
						for _, x := range h.mails() {
							if x.To == org {
								answer += x.Body
								continue
							}
							if x.Kind != "tournament" {
								continue
							}
							got = append(got, x.To)
							if w := correctionWords[langOf[x.To]][0]; !strings.Contains(x.Subject, w) {
								t.Errorf("%s: the mail to %s (%s) is headed %q", line, x.To, langOf[x.To], x.Subject)
							}
							if x.To == "p0@p.test" {
								departedTold++
							}
						}
						sort.Strings(got)
						sort.Strings(want)
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Errorf("%s: mailed %q, want %q", line, got, want)
						}
						told := answer[strings.Index(answer, correctionWords[lang][1]):]
						for _, a := range want {
							name := "Zed"
							if a != "zed@p.test" {
								name = "P" + strings.TrimSuffix(strings.TrimPrefix(a, "p"), "@p.test")
							}
							if !strings.Contains(told, name) {
								t.Errorf("%s: the organiser's answer does not name %s:\n%s", line, name, answer)
							}
						}
						if !within && !zedConcerned && strings.Contains(told, "Zed") {
							t.Errorf("%s: the organiser's answer names Zed, whose standings did not change:\n%s", line, answer)
						}
					}
					n := len(m.Seats)
					rank := make([]int, n)
					for i := range rank {
						rank[i] = i + 1
					}
					rank[seat0], rank[(seat0+1)%n] = rank[(seat0+1)%n], rank[seat0]
					places := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(rank)), ","), "[]")
					if within && li%2 == 1 {
						check("DOUBLEFORFEIT "+m.GameID, true)
						return
					}
					old := h.tour("cup").Rounds[0].Matches
					var was []int
					for _, x := range old {
						if x.GameID == m.GameID {
							was = x.Rank
						}
					}
					check(fmt.Sprintf("RESULT %s %s", m.GameID, places), len(was) != n || was[seat0] != rank[seat0])
					// The same result again: the place's standings stay.
					check(fmt.Sprintf("RESULT %s %s", m.GameID, places), false)
				})
			}
		}
	}
	if departedTold == 0 {
		t.Fatal("no departed holder was told: the test checks nothing it is for")
	}
}
