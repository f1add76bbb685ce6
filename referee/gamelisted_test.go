package referee

import (
	"regexp"
	"testing"
)

// TestSingleGamePageListed: a game's page is unlisted by default; the
// organiser's PUBLISH <game> listed puts it on the index (same address),
// PUBLISH <game> makes it unlisted again, PUBLISH <game> off removes page
// and listing; a tournament game is published with its tournament.
func TestSingleGamePageListed(t *testing.T) {
	h := newHarness(t)
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.newToyGame("g2", "cat@p.test", "dan@p.test")
	h.mails()
	listed := func() []string {
		t.Helper()
		ls, err := h.r.ListedGames()
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, l := range ls {
			ids = append(ids, l.ID+" "+l.URL+" "+l.Title)
		}
		return ids
	}
	h.org("PUBLISH g1\nPUBLISH g2")
	res := orgResults(t, h)
	contains(t, res, "unlisted")
	if got := listed(); len(got) != 0 {
		t.Fatalf("unlisted pages on the index: %v", got)
	}
	addr := regexp.MustCompile(`/g/g1-[0-9a-f]{16}`).FindString(res)
	h.org("PUBLISH g1 listed")
	res = orgResults(t, h)
	contains(t, res, "listed on the index", addr)
	if got := listed(); len(got) != 1 || got[0] != "g1 "+addr+" Bid & Roll (contract test game)" {
		t.Fatalf("index %v, want g1 at %s", got, addr)
	}
	h.org("PUBLISH g1")
	if got := listed(); len(got) != 0 {
		t.Fatalf("PUBLISH without listed keeps it listed: %v", got)
	}
	h.org("PUBLISH g2 listed\nPUBLISH g1 listed\nPUBLISH g2 off")
	if got := listed(); len(got) != 1 || got[0][:3] != "g1 " {
		t.Fatalf("index %v, want g1 only", got)
	}
	// A tournament game's page comes with its tournament.
	h.org("NEW TOURNAMENT tt game=toy rounds=1\nENTER tt a@p.test A\nENTER tt b@p.test B\nSTART tt")
	h.mails()
	h.org("PUBLISH ttr1t1 listed")
	contains(t, orgResults(t, h), "tournament game: PUBLISH its tournament")
}
