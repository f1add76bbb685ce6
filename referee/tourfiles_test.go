package referee

import (
	"regexp"
	"strings"
	"testing"
)

// TestTournamentJoinMailNamesTheCalendar (issue 24): the sign-up
// confirmation of a public tournament gives the address of its calendar
// feed (the rounds as ICS) on a line of its own, with a line in the
// reader's language; a tournament without public pages has no feed and
// its mail names none.
func TestTournamentJoinMailNamesTheCalendar(t *testing.T) {
	intro := map[string]string{"en": "calendar app", "it": "app di calendario", "fr": "pour un agenda ", "nl": "agenda-app"}
	for _, public := range []bool{true, false} {
		h := newHarness(t)
		opt := ""
		if public {
			opt = " public"
		}
		if out := h.org("NEW TOURNAMENT cal game=toy rounds=3 deadline=72h" + opt); out.Status != "applied" {
			t.Fatalf("%+v", out)
		}
		for _, lang := range []string{"en", "it", "fr", "nl"} {
			p := lang + "@p.test"
			h.sendAs(Request{From: p, Text: "REGISTER " + lang + " " + lang})
			h.mails()
			h.asPlayer(p, "JOIN cal")
			ms := h.mails()
			checkWidth(t, ms)
			body := h.mailTo(ms, p).Body
			feed := regexp.MustCompile(`(?m)^\S*/t/cal-\w+/rounds\.ics$`).FindString(body)
			if !public {
				if strings.Contains(body, ".ics") || strings.Contains(body, intro[lang]) {
					t.Errorf("%s: a feed of a tournament without pages:\n%s", lang, body)
				}
				continue
			}
			if feed == "" || !strings.Contains(body, intro[lang]+":\n"+feed) {
				t.Errorf("%s: no calendar feed in the confirmation:\n%s", lang, body)
			}
			if tr := h.tour("cal"); !strings.HasSuffix(feed, "/t/cal-"+tr.Key+"/rounds.ics") {
				t.Errorf("%s: feed %q is not the page's", lang, feed)
			}
		}
	}
}
