package bymail

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/failure"
	"github.com/pbem-referee/referee/referee/tournament"
	"github.com/pbem-referee/referee/templates"
)

// coreFailHost is batchHost answering in a language, whose EnsurePlayer
// may fail as the core's store can.
type coreFailHost struct {
	*batchHost
	lang   string
	ensure error
}

func (h *coreFailHost) AnswerLang() string { return h.lang }
func (h *coreFailHost) EnsurePlayer(a, n, l, z string) (Player, error) {
	if h.ensure != nil {
		return Player{}, h.ensure
	}
	return h.batchHost.EnsurePlayer(a, n, l, z)
}
func (h *coreFailHost) ParseInvitee(f []string) (Invitee, error) {
	if len(f) < 2 {
		return Invitee{}, errors.New("usage")
	}
	return Invitee{Address: f[0], Name: strings.Join(f[1:], " ")}, nil
}

// causeWords are err.cause's words in each language: a passing failure,
// a permanent one.
var causeWords = map[string][2]string{
	"en": {"try again later", "will not pass by itself"},
	"it": {"riprova più tardi", "non passerà da sola"},
	"fr": {"réessayez plus tard", "ne passera pas d'elle-même"},
	"nl": {"probeer het later opnieuw", "gaat niet vanzelf over"},
}

// TestCoreFailuresToldInWords (issue 24; doc.go): a failure of the core's
// (a store error, a game that could not open) that an organiser would
// read is told in words - the table, when a game of a round's first batch
// failed, and the failure's class - never the error's own text, which
// goes to the log. Generated: the organiser's four languages x a passing
// and a permanent failure x raw texts carrying a Go map, a bad verb, a nil
// and a pointer x where it fails: START (the first batch, at its first or
// a later game), sign-up closing at its date (the same batch, told by
// mail: org.cannot_start) and ENTER (the player's record not written).
func TestCoreFailuresToldInWords(t *testing.T) {
	raws := []string{"bbolt: tx closed: map[cup:1]", "open game: %!d(string=x) <nil>", "seat 0xc000123456: broken"}
	for _, lang := range templates.Languages {
		for _, permanent := range []bool{false, true} {
			for i, raw := range raws {
				for _, stage := range []string{"start", "close", "enter"} {
					failAt := 1 + i // the game of the batch that fails
					name := fmt.Sprintf("%s/permanent=%v/%d/%s", lang, permanent, i, stage)
					t.Run(name, func(t *testing.T) {
						rawErr := errors.New(raw)
						if permanent {
							rawErr = failure.Permanent("%s", raw)
						}
						h := &coreFailHost{batchHost: newBatchHost(t, 0), lang: lang}
						calls := 0
						if stage != "enter" {
							h.fail = func(string) error {
								if calls++; calls < failAt {
									return nil
								}
								return rawErr
							}
						} else {
							h.ensure = rawErr
						}
						h.unit(t, func(d *desk) error { return d.saveTour(signupTour(t, lang, 8, h.now, stage == "close")) })
						h.now = h.now.Add(time.Hour)
						var told string
						switch stage {
						case "start", "enter":
							line := []string{"START", "cup"}
							if stage == "enter" {
								line = []string{"ENTER", "cup", "new@x.test", "New", "Player"}
							}
							h.unit(t, func(*desk) error {
								_, ok, err := Org(h, "org@x.test", line)
								if !ok || err == nil {
									t.Fatalf("%s: ok %v, no failure", line[0], ok)
								}
								var u undoErr
								if errors.As(err, &u) {
									return err
								}
								told = line[0] + ": " + err.Error()
								return nil
							})
						case "close":
							h.unit(t, func(d *desk) error { return d.tourTick("cup") })
							if len(h.org) != 1 {
								t.Fatalf("%d organiser mails:\n%s", len(h.org), strings.Join(h.org, "\n---\n"))
							}
							told = h.org[0]
						}
						fits(t, name, told)
						flat := strings.Join(strings.Fields(told), " ")
						k := 0
						if permanent {
							k = 1
						}
						if !strings.Contains(flat, causeWords[lang][k]) || strings.Contains(flat, causeWords[lang][1-k]) {
							t.Errorf("the failure's class is not told in words:\n%s", told)
						}
						if stage != "enter" && !strings.Contains(flat, fmt.Sprintf(" %d", failAt)) {
							t.Errorf("the table %d is not named:\n%s", failAt, told)
						}
						for _, v := range append(goValue, raw, "bbolt", "tx closed", "permanent:", "tournament desk", "undo") {
							if strings.Contains(told, v) {
								t.Errorf("the organiser reads %q of the raw error:\n%s", v, told)
							}
						}
						logged := false
						for _, w := range h.warned {
							logged = logged || strings.Contains(w, raw)
						}
						if !logged {
							t.Errorf("the raw error is not in the log: %q", h.warned)
						}
						// Nothing half done: the tournament is still in sign-up.
						if tr := loadTourT(t, h.rec); tr.Status != tournament.StatusSignup || len(tr.Rounds) != 0 {
							t.Errorf("a failed %s left the tournament %s with %d rounds", stage, tr.Status, len(tr.Rounds))
						}
					})
				}
			}
		}
	}
}

// signupTour is tournament "cup" in sign-up with n entrants, organised in
// lang; closing: its sign-up closed an hour after now.
func signupTour(t *testing.T, lang string, n int, now time.Time, closing bool) *tournament.Tournament {
	t.Helper()
	s := tournament.Settings{Game: "toy", Format: "swiss", Table: 2, NumRounds: 3, OrgLang: lang, Deadline: 72 * time.Hour}
	if closing {
		s.Close = now.Add(30 * time.Minute)
	}
	if err := tournament.Defaults(&s, engine.Info{Name: "toy", MinPlayers: 2, MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	tr := &tournament.Tournament{ID: "cup", Organiser: "org@x.test", Settings: s, Seed: "seed",
		Status: tournament.StatusSignup, Key: "k", Created: now}
	tr.Commitment = engine.Commitment(tr.Seed)
	for i := range n {
		tr.Entrants = append(tr.Entrants, tournament.Entrant{ID: i, Address: fmt.Sprintf("p%d@x.test", i),
			Name: fmt.Sprintf("Player %d", i), Lang: lang})
	}
	return tr
}
