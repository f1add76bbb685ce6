package referee

import (
	"strings"
	"testing"
)

// Fromage's advanced tile placement (FR-5.11.2, FR-6.3): a seat's tiles
// stay hidden until every seat is ready, but the others see that a tile was
// placed ("Ann places a tile."): the event's redacted copy is empty, which
// means "seen, without its facts" (engine.Event.Redacted). The log's JSON
// dropped an empty redacted copy, so the others never saw the placement
// once the entry was stored (and referee/mail.go read the entries in
// memory the same way; Bob's LOG reads them back). Golden mails in the four languages: Ann places
// two tiles and is ready (sealed, FR-5.11.2); when Bob is ready, his mail
// tells him of each placement without its tile, then the reveal names
// them.
func TestGoldenFromageTilePlacement(t *testing.T) {
	eachLanguage(t, "tiles", func(g *golden) {
		h, l := g.h, g.lang
		h.org("NEW fromage id=f1 variant=advanced seed=tiles1 deadline=24h\n" +
			"PLAYER ann@example.test Ann " + l + "\n" +
			"PLAYER bob@example.test Bob " + l)
		h.send("f1", ann, "JOIN", -1)
		h.send("f1", bob, "JOIN\nNOTIFY every", -1)
		h.mails()
		// The draft (FR-5.11.1): each seat keeps its hand's first tile.
		for n := 0; n < 20 && h.table("f1").Prompts[0].Decision.Kind == "draft"; n++ {
			for _, d := range h.table("f1").Waiting() {
				opts := h.table("f1").State.Legal(d)
				h.send("f1", h.game("f1").Seats[d.Seat].Address, opts[0].Cmd, -1)
			}
			h.mails()
		}
		var places []string
		for _, o := range h.table("f1").State.Legal(h.table("f1").Prompts[h.game("f1").SeatOfAddress(ann)].Decision) {
			if strings.HasPrefix(o.Cmd, "PLACE ") {
				places = append(places, o.Cmd)
			}
		}
		if len(places) < 2 {
			g.t.Fatalf("%s: Ann may place %v: the scenario wants two tiles", l, places)
		}
		h.send("f1", ann, places[0]+"\n"+places[1]+"\nREADY", -1)
		am := g.pick(h.mails(), ann)
		g.record("Ann places two tiles and is ready: sealed", am)
		h.send("f1", bob, "READY", -1)
		ms := h.mails()
		bm := g.pick(ms, bob)
		g.record("Bob is ready: the placements and the reveal", bm)
		g.record("Ann: her placements and the reveal", g.pick(ms, ann))
		if n := strings.Count(bm.Body, "Ann "+placesATile[l]); n != 2 {
			g.t.Errorf("%s: Bob is told %d times that Ann places a tile, want 2:\n%s", l, n, bm.Body)
		}
		// The log as stored, read back: the same two lines.
		h.send("f1", bob, "LOG", -1)
		lm := g.pick(h.mails(), bob)
		g.record("Bob's LOG, read back from the store", lm)
		if n := strings.Count(lm.Body, "Ann "+placesATile[l]); n != 2 {
			g.t.Errorf("%s: Bob's LOG says %d times that Ann places a tile, want 2:\n%s", l, n, lm.Body)
		}
	})
}

// placesATile is the redacted fr.place_tile in each language, after the
// name (templates/fromage/<lang>/events.tmpl).
var placesATile = map[string]string{"en": "places a tile.", "it": "posiziona una tessera.", "fr": "pose une tuile.", "nl": "legt een tegel."}
