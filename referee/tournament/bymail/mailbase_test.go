package bymail

import (
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// TestSharedMailPartsAreEachMailsOwn_Issue24: the subjects and calendars a
// mailBase keeps (one render for the mails of one moment, by language,
// kind and round; by language and zone) are, for every language, kind,
// round and zone, those of a mail with a mailBase of its own: the mails
// are the same.
func TestSharedMailPartsAreEachMailsOwn_Issue24(t *testing.T) {
	at := time.Date(2026, 9, 23, 23, 59, 0, 0, time.UTC)
	p := orgProfile{id: "cup", names: []string{"Al", "Bo", "Cy", "Di"}, address: []string{"a@b.it"}, num: 1}
	kinds := []string{"confirm", "round", "standings", "final", "correction", "waitlist"}
	shared := &entrantHost{testHost: newTestHost(t, at), replyTo: p.address[0], tz: "UTC"}
	own := &entrantHost{testHost: newTestHost(t, at), replyTo: p.address[0], tz: "UTC"}
	ds, do := newDesk(shared), newDesk(own)
	tr := entrantTour(t, p, "en", at)
	base := ds.newMailBase(tr)
	data := func(round int) *mailData { // every kind's fields
		return &mailData{Round: round, Seed: tr.Seed, Place: 1, Cap: 1, Bye: true, dueAt: at, nextAt: at}
	}
	for _, round := range []int{1, 2, 1} {
		for _, kind := range kinds {
			for i, e := range tr.Entrants {
				e.Lang = templates.Languages[i%len(templates.Languages)]
				shared.tz = entrantZones[(i+round)%len(entrantZones)]
				own.tz = shared.tz
				ds.tourMailAs(tr, e, kind, data(round), base)
				do.tourMailAs(tr, e, kind, data(round), do.newMailBase(tr))
			}
		}
	}
	for i, m := range shared.sent {
		if want := own.sent[i]; m != want {
			t.Errorf("mail %d (%s): subject %q, want %q; body\n%s\nwant\n%s", i, m.Lang, m.Subject, want.Subject, m.Body, want.Body)
		}
	}
	if len(shared.sent) < 3*len(kinds)*len(templates.Languages) {
		t.Fatalf("%d mails", len(shared.sent))
	}
}
