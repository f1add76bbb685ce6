package referee

import (
	"errors"
	"regexp"
	"testing"
)

// TestSingleGamePage: an organiser publishes a game outside tournaments
// with PUBLISH <game>; its page answers only at the unguessable address,
// shows the spectators' view, and PUBLISH <game> off removes it.
func TestSingleGamePage(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.mails()
	h.org("HELP")
	contains(t, orgResults(t, h), "PUBLISH <game> [listed|off]")
	if _, err := h.r.GamePage("g1-0000000000000000", "en"); !errors.Is(err, ErrNoPage) {
		t.Fatalf("unpublished game: %v, want ErrNoPage", err)
	}
	h.org("PUBLISH g1")
	res := orgResults(t, h)
	m := regexp.MustCompile(`/g/(g1-[0-9a-f]{16})\b`).FindStringSubmatch(res)
	if m == nil {
		t.Fatalf("no page address in:\n%s", res)
	}
	page, err := h.r.GamePage(m[1], "en")
	if err != nil {
		t.Fatal(err)
	}
	if page.ID != "g1" || page.Tournament != "" || len(page.Players) != 2 {
		t.Fatalf("page %+v", page)
	}
	for _, bad := range []string{"g1-0000000000000000", "g1", "g2-" + m[1][3:], m[1] + "0"} {
		if _, err := h.r.GamePage(bad, "en"); !errors.Is(err, ErrNoPage) {
			t.Errorf("%q: %v, want ErrNoPage", bad, err)
		}
	}
	// Publishing again keeps the address.
	h.org("PUBLISH g1")
	contains(t, orgResults(t, h), m[1])
	h.org("PUBLISH g1 loudly")
	contains(t, orgResults(t, h), "usage: PUBLISH <game> [listed|off]")
	h.org("PUBLISH g1 off")
	contains(t, orgResults(t, h), "the page of g1 is off")
	if _, err := h.r.GamePage(m[1], "en"); !errors.Is(err, ErrNoPage) {
		t.Fatalf("page after PUBLISH off: %v", err)
	}
	h.org("PUBLISH nosuch")
	contains(t, orgResults(t, h), "no tournament or game \"nosuch\"")
}
