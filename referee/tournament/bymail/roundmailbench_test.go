package bymail

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbem-referee/referee/templates"
)

// benchHost is a desk's host that gives each entrant a reply address and
// a zone, and drops the mails (a benchmark keeps none).
type benchHost struct {
	*testHost
	mails, bytes int
}

func (h *benchHost) MailEntrant(m Mail) error {
	h.mails++
	h.bytes += len(m.Body)
	return nil
}

func (h *benchHost) ReplyTo(a string) Reply {
	return Reply{To: a, Address: "referee+" + a, TZ: entrantZones[len(a)%len(entrantZones)]}
}

// BenchmarkRoundMail_Issue24 measures one entrant's round mail, what a
// mail costs of its own: what the round's mails share (mailBase, the
// standings of the round before, each row's line and the subject once a
// language, a calendar once a language and zone) is made before the
// timer by a first mail to every entrant, as a round opening makes it
// once a batch. A Swiss tournament of 1,000 entrants in four languages
// and five zones, round 2 just drawn, each mail with its excerpt of round
// 1's standings. The op is one mail; allocs/op is what a round mail
// allocates (issue 24: a round of 5,000 games is 10,000 of them).
// Run: go test -run '^$' -bench RoundMail -benchmem ./referee/tournament/bymail/
func BenchmarkRoundMail_Issue24(b *testing.B) {
	tr := genTour(b, rand.New(rand.NewPCG(24, 1)), "swiss", 1000, 2, 2)
	for i := range tr.Entrants {
		tr.Entrants[i].Lang = templates.Languages[i%len(templates.Languages)]
	}
	h := &benchHost{testHost: newTestHost(b, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))}
	d := newDesk(h)
	at := seats(tr.Rounds[1])
	rm := d.newRoundMailer(tr, 1)
	send := func(i int) {
		e := tr.Entrants[i%len(tr.Entrants)]
		if k, ok := at[e.ID]; ok {
			rm.mail(e, k)
		}
	}
	for i := range tr.Entrants {
		send(i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		send(i)
		i++
	}
	if h.mails == 0 {
		b.Fatal("no mail")
	}
	b.ReportMetric(float64(h.bytes)/float64(h.mails), "body-B/mail")
}
