package bymail

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// TestSharedMailBaseWritesEachEntrantsOwnMail_Issue24: the values a
// mailBase makes once for every mail of a moment (mailBase.fixed) leave
// each mail as a base of its own would write it: every entrant of a
// round, in every language, through kinds that change within one base
// (round, confirm, round), named and addressed as themselves.
func TestSharedMailBaseWritesEachEntrantsOwnMail_Issue24(t *testing.T) {
	at := time.Date(2026, 9, 23, 23, 59, 0, 0, time.UTC)
	p := orgProfile{id: "t2026", names: []string{"Zoë", `"quoted"`, "O'Brien", "Ana-María"}, address: []string{"z@x.test"}, num: 2048}
	for _, lang := range templates.Languages {
		shared := &entrantHost{testHost: newTestHost(t, at), replyTo: p.address[0], tz: "Asia/Kolkata"}
		own := &entrantHost{testHost: newTestHost(t, at), replyTo: p.address[0], tz: "Asia/Kolkata"}
		ds, do := newDesk(shared), newDesk(own)
		tr := entrantTour(t, p, lang, at)
		base := ds.newMailBase(tr)
		for _, kind := range []string{"round", "confirm", "round"} {
			for _, e := range tr.Entrants {
				data := func() *mailData {
					m := &mailData{}
					if kind == "round" {
						ds.roundDataAt(m, tr, 1, e.ID, matchAt(tr.Rounds[1], e.ID))
					}
					return m
				}
				ds.tourMailAs(tr, e, kind, data(), base)
				do.tourMailAs(tr, e, kind, data(), do.newMailBase(tr))
			}
		}
		if len(shared.sent) != 3*len(tr.Entrants) || len(shared.sent) != len(own.sent) {
			t.Fatalf("%s: %d mails with one base, %d with one each", lang, len(shared.sent), len(own.sent))
		}
		for i, m := range shared.sent {
			if e := tr.Entrants[i%len(tr.Entrants)]; !strings.Contains(m.Body, e.Name) {
				t.Errorf("%s: mail %d to %s does not name %q:\n%s", lang, i, m.To, e.Name, m.Body)
			}
			if o := own.sent[i]; m.Subject != o.Subject || m.Body != o.Body || m.To != o.To {
				t.Errorf("%s: mail %d to %s with one base differs from its own base's:\n%s\n---\n%s", lang, i, m.To, m.Body, o.Body)
			}
		}
	}
}
