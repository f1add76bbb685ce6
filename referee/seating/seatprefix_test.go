package seating

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// TestSeatSecretsSortByBatch_Issue24: a tournament game's (seated) seat
// secrets begin with SeatPrefix of the number of games there were, whose
// byte order is the numbers' order (so a round's batches append to the
// store's tokens rather than split pages all over them), in the secrets'
// alphabet [a-z2-7], four letters; an organiser's game's seats, and every
// player's token, have none. Generated: 2,000 pairs of counts, and games
// of every engine, seated and invited, at counts drawn at random.
func TestSeatSecretsSortByBatch_Issue24(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 11))
	for range 2000 {
		a, b := r.IntN(1<<20), r.IntN(1<<20)
		pa, pb := SeatPrefix(a), SeatPrefix(b)
		if len(pa) != 4 || strings.Trim(pa, "abcdefghijklmnopqrstuvwxyz234567") != "" {
			t.Fatalf("SeatPrefix(%d) = %q: not four letters of [a-z2-7]", a, pa)
		}
		if (a < b) != (pa < pb) || (a == b) != (pa == pb) {
			t.Fatalf("SeatPrefix(%d) = %q, SeatPrefix(%d) = %q: out of order", a, pa, b, pb)
		}
	}
	if SeatPrefix(1<<20) != SeatPrefix(0) || SeatPrefix(0) != "2222" || SeatPrefix(1<<20-1) != "zzzz" {
		t.Errorf("SeatPrefix wraps at 2^20: %q %q %q", SeatPrefix(0), SeatPrefix(1<<20), SeatPrefix(1<<20-1))
	}
	for _, eg := range engine.Games() {
		info := eg.Info()
		kind := info.Name
		for _, seated := range []bool{true, false} {
			h := newHost()
			for range r.IntN(40) {
				h.games[fmt.Sprint("x", len(h.games))] = nil
			}
			want := ""
			if seated {
				want = SeatPrefix(len(h.games) + 1) // the game itself counts once tracked
			}
			ng := NewGame{Game: kind, Organiser: "org@example.org", Seated: seated}
			for i := range info.MinPlayers {
				ng.Invite = append(ng.Invite, Invitee{Address: fmt.Sprintf("p%d@example.org", i)})
			}
			gm, err := Create(h, ng)
			if err != nil {
				t.Fatalf("%s seated=%v: %v", kind, seated, err)
			}
			for _, s := range gm.Record().Seats {
				if rest, ok := strings.CutPrefix(s.Secret, want); !ok || !strings.HasPrefix(rest, "secret") {
					t.Errorf("%s seated=%v: seat secret %q, want prefix %q", kind, seated, s.Secret, want)
				}
				if p := h.players[s.Address]; strings.HasPrefix(p.Secret, want) && want != "" {
					t.Errorf("%s: the player's secret %q has the seats' prefix", kind, p.Secret)
				}
			}
		}
	}
}
