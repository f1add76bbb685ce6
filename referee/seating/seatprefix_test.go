package seating

import (
	"encoding/base32"
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

// TestSecretTextAsBefore_Issue24: a secret's text is what the referee
// made before SecretText (the prefix, then the random bytes in upper-case
// base32 without padding, lowered), for 5,000 generated random parts
// under no prefix, a SeatPrefix and a longer one, and it is one string
// made at once (issue 24: 10,000 seat secrets of a START).
func TestSecretTextAsBefore_Issue24(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 25))
	old := func(prefix string, b [10]byte) string {
		return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
	}
	for i := range 5000 {
		var b [10]byte
		for k := range b {
			b[k] = byte(r.UintN(256))
		}
		for _, prefix := range []string{"", SeatPrefix(i * 211), strings.Repeat("q", 40)} {
			if got, want := SecretText(prefix, b), old(prefix, b); got != want {
				t.Fatalf("SecretText(%q, % x) = %q, want %q", prefix, b, got, want)
			}
		}
	}
	b, kept := [10]byte{1, 2, 3}, []string{""}
	if n := testing.AllocsPerRun(100, func() { kept[0] = SecretText("aaab", b) }); n != 1 {
		t.Errorf("SecretText: %v allocations, want 1", n)
	}
}
