package bymail

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// checkPlayerText checks a text a player reads: within 80 columns, no
// Go-ish text and no English word in it/fr/nl once the reader's own
// values are taken out.
func checkPlayerText(t *testing.T, lang, what, text string, values ...string) {
	t.Helper()
	if !templates.Fits(text) {
		t.Errorf("%s: a line past 80 columns:\n%s", what, text)
	}
	testkit.CheckWords(t, lang, what, text, values...)
}

// TestPlayerRefusalsInWords_Issue24 (doc.go): a player's tournament
// command that fails is undone and answered in the player's language
// (error.failed around the failure's words), never with the error's text.
// The code table is walked: every Error key the desk writes and every
// Fault code of package tournament (failKeys, read from the sources: a new
// one without words fails), x 4 languages x 7 hostile values (quotes, a
// 70-character name, Cyrillic, CJK, a bad verb, a nil, a map): within 80
// columns, no Go-ish text, no English word in it/fr/nl.
func TestPlayerRefusalsInWords_Issue24(t *testing.T) {
	keys, codes := failKeys(t)
	data := func(v string) map[string]any {
		m := map[string]any{}
		for _, k := range []string{"id", "game", "games", "who", "a", "b", "name", "address", "arg", "value", "key", "date",
			"format", "tz", "open", "late", "forfeits", "tiebreak", "points", "every", "usage"} {
			m[k] = v
		}
		for _, k := range []string{"round", "rounds", "seats", "min", "max", "entrants", "table", "place", "places", "prev"} {
			m[k] = 123456
		}
		m["status"], m["cause"] = "running", "transient"
		m["error"] = &tournament.Fault{Code: tournament.FaultDuration, Data: map[string]any{"value": v}}
		return m
	}
	n := 0
	for _, lang := range templates.Languages {
		for _, v := range testkit.HostileValues {
			var errs []error
			for _, k := range keys {
				errs = append(errs, &Error{Key: k, Data: data(v)})
			}
			for _, c := range codes {
				errs = append(errs, &tournament.Fault{Code: c, Data: data(v)})
			}
			for _, err := range errs {
				h := newBatchHost(t, 0)
				got := newDesk(h).playerFailed("player X", lang, err)
				var u undoErr
				if !errors.As(got, &u) || u.key != "player X" {
					t.Fatalf("%s %v: not undone: %v", lang, err, got)
				}
				if len(h.warned) > 0 {
					t.Errorf("%s %v: a refusal told as a failure of the core's: %q", lang, err, h.warned)
				}
				checkPlayerText(t, lang, fmt.Sprintf("%s %v", lang, err), u.msg, v)
				n++
			}
		}
	}
	if n < 4*7*50 {
		t.Fatalf("only %d texts checked", n)
	}
}

// closeFailHost is batchHost whose CloseGame fails as the core's can.
type closeFailHost struct {
	*batchHost
	close error
}

func (h *closeFailHost) CloseGame(g, how string, kv ...any) error {
	if h.close != nil {
		return h.close
	}
	return h.batchHost.CloseGame(g, how, kv...)
}

// TestPlayerCoreFailuresInWords_Issue24 (doc.go): a failure of the
// core's under a player's tournament command (here WITHDRAW, whose open
// game cannot be closed) undoes the command - the player is still in -
// and the player reads, in their language, that it was not carried out
// and the failure's class (passing, or permanent); its own text goes to
// the log. Generated: 4 languages x raw texts carrying a map, a bad verb,
// a nil and a pointer x passing or permanent.
func TestPlayerCoreFailuresInWords_Issue24(t *testing.T) {
	raws := []string{"bbolt: tx closed: map[cup:1]", "close game: %!d(string=x) <nil>", "seat 0xc000123456: broken"}
	for _, lang := range templates.Languages {
		for _, raw := range raws {
			for k, permanent := range []bool{false, true} {
				name := fmt.Sprintf("%s/%q/permanent=%v", lang, raw, permanent)
				h := &closeFailHost{batchHost: newBatchHost(t, 0)}
				h.unit(t, func(d *desk) error { return d.saveTour(signupTour(t, lang, 6, h.now, false)) })
				h.unit(t, func(*desk) error {
					_, _, err := Org(h, "org@x.test", []string{"START", "cup"})
					return err
				})
				h.close = errors.New(raw)
				if permanent {
					h.close = failure.Permanent("%s", raw)
				}
				p := Player{Address: "p0@x.test", Name: "Player 0", Lang: lang}
				var answer string
				h.unit(t, func(*desk) error {
					a, ok, err := PlayerCommand(h, p, "WITHDRAW", []string{"WITHDRAW", "cup"})
					if !ok {
						t.Fatalf("%s: WITHDRAW cup is not the desk's", name)
					}
					answer = a
					return err
				})
				checkPlayerText(t, lang, name, answer)
				flat := strings.Join(strings.Fields(answer), " ")
				if !strings.Contains(flat, causeWords[lang][k]) || strings.Contains(flat, causeWords[lang][1-k]) {
					t.Errorf("%s: the failure's class is not told:\n%s", name, answer)
				}
				if strings.Contains(answer, raw) || strings.Contains(answer, "bbolt") {
					t.Errorf("%s: the raw error reaches the player:\n%s", name, answer)
				}
				logged := false
				for _, w := range h.warned {
					logged = logged || strings.Contains(w, raw)
				}
				if !logged {
					t.Errorf("%s: the raw error is not in the log: %q", name, h.warned)
				}
				if e := loadTourT(t, h.rec).Entrant(p.Address); e == nil || e.Withdrawn != 0 {
					t.Errorf("%s: the failed WITHDRAW was not undone: %+v", name, e)
				}
			}
		}
	}
}
