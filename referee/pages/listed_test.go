package pages

import (
	"regexp"
	"strings"
	"testing"
)

// TestPagesListedGameAndCalendar: a single game whose organiser listed its
// page (PUBLISH <game> listed) is on the index and its page answers; an
// unlisted one is not; a tournament with a calendar shows its rounds'
// dates in its zone.
func TestPagesListedGameAndCalendar(t *testing.T) {
	s := newSite(t)
	lines, err := s.r.Organise(org, "NEW dicebrewing id=solo1 players=2\nPLAYER ann@players.test Ann\nPLAYER bob@players.test Bob\n"+
		"NEW dicebrewing id=solo2 players=2\nPLAYER cat@players.test Cat\nPLAYER dan@players.test Dan\n"+
		"PUBLISH solo1 listed\nPUBLISH solo2")
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(lines, "\n")
	g1 := regexp.MustCompile(`/g/solo1-[0-9a-f]{16}`).FindString(out)
	if g1 == "" || !strings.Contains(out, "listed on the index") {
		t.Fatalf("PUBLISH solo1 listed: %s", out)
	}
	_, idx := get(t, s.srv.URL+"/t/")
	if !strings.Contains(idx, `id="games"`) || !strings.Contains(idx, `href="`+g1+`?lang=en"`) || strings.Contains(idx, "solo2") {
		t.Fatalf("index:\n%s", idx)
	}
	code, body := get(t, s.srv.URL+g1)
	if code != 200 || !strings.Contains(body, "Ann, Bob") || strings.Contains(body, "Tournament <a") || strings.Contains(strings.ToLower(body), "<script") {
		t.Fatalf("%s: %d\n%s", g1, code, body)
	}
	if _, err := s.r.Organise(org, "PUBLISH solo1 off"); err != nil {
		t.Fatal(err)
	}
	if _, idx = get(t, s.srv.URL+"/t/"); strings.Contains(idx, "solo1") {
		t.Fatalf("a page turned off is still on the index:\n%s", idx)
	}

	lines, err = s.r.Organise(org, "NEW TOURNAMENT cal game=dicebrewing rounds=3 start=2026-12-01T20:00 every=7d tz=Europe/Rome listed")
	if err != nil {
		t.Fatal(err)
	}
	page := regexp.MustCompile(`/t/cal-\S+`).FindString(strings.Join(lines, " "))
	code, body = get(t, s.srv.URL+page)
	if code != 200 || !strings.Contains(body, `id="calendar"`) {
		t.Fatalf("%s: %d\n%s", page, code, body)
	}
	for _, want := range []string{"Tue 1 Dec 2026 20:00 CET", "Tue 15 Dec 2026 20:00 CET", "Tue 22 Dec 2026 20:00 CET"} {
		if !strings.Contains(body, want) {
			t.Errorf("the calendar lacks %q:\n%s", want, body)
		}
	}
}
