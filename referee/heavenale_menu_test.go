package referee

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
)

// nextOption finds where the next option of a two-column menu line starts.
var nextOption = regexp.MustCompile(`\s{2,}\d+\) `)

// wholeOption returns option n of a rendered menu as a person copies it:
// everything after "n) " up to the next column, description included.
func wholeOption(text string, n int) string {
	mark := fmt.Sprintf("%d) ", n)
	for _, l := range strings.Split(text, "\n") {
		k := strings.Index(l, mark)
		if k < 0 || (k > 0 && l[k-1] != ' ') || strings.TrimSpace(l[:k]) != "" && !nextOption.MatchString(l[:k+len(mark)]) {
			continue
		}
		rest := l[k+len(mark):]
		if loc := nextOption.FindStringIndex(rest); loc != nil {
			rest = rest[:loc[0]]
		}
		return strings.TrimSpace(rest)
	}
	return ""
}

// Issue 12 (Heaven & Ale menus): each option's description is set off
// with "#", which starts a comment, so a menu line copied whole (ALLER 3
// # MON4 (4/8) M2) is the command as shown. Over a whole game in every
// language, every answer is sent exactly as its menu line reads, and
// played.
func TestHeavenAleMenuLinesAsShownArePlayed(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.org("NEW heavenale id=w1 deadline=48h seed=menus1\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
			h.send("w1", ann, "JOIN", -1)
			h.send("w1", bob, "JOIN", -1)
			h.mails()
			eg, _ := engine.Lookup("heavenale")
			bot, err := eg.(engine.BotMaker).NewBot(eg.Info().Bots[1])
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			described := 0
			for n := 0; n < 300 && h.game("w1").Status == StatusRunning; n++ {
				tb := h.table("w1")
				d := tb.Prompts[tb.Waiting()[0].Seat].Decision
				p := tb.Prompts[d.Seat]
				gm := h.game("w1")
				opts := tb.State.Legal(d)
				i := bot.Choose(tb.State, d, opts, rng)
				cmd := opts[i].Cmd
				if p.Numbered {
					rd := Reader{Game: "heavenale", Lang: lang, Seat: d.Seat, Seats: gm.names()}
					text, err := h.r.render.Prompt(rd, p, tb.State.View(d.Seat))
					if err != nil {
						t.Fatal(err)
					}
					as := wholeOption(text, i+1)
					if as == "" {
						t.Fatalf("option %d (%s) not in the menu:\n%s", i+1, cmd, text)
					}
					if strings.Contains(as, "#") {
						described++
					}
					cmd = as
				}
				h.clock.Advance(2 * time.Minute)
				out := h.send("w1", gm.Seats[d.Seat].Address, cmd, tb.Token())
				h.mails()
				if out.Status != "applied" && out.Status != "queued" {
					t.Fatalf("%q as shown: %+v\n%s", cmd, out, h.mailTo(h.mails(), gm.Seats[d.Seat].Address).Body)
				}
			}
			if described < 20 {
				t.Errorf("only %d answers with a description", described)
			}
			t.Logf("%d answers sent whole, description included", described)
		})
	}
}
