package records

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/store"
)

// authFixture stores n games of two seats each: game gI's seat S has the
// secret "sec-gI-S" and a seat token for its address; "org-tok" is an
// organiser token of orgtok@example.test.
func authFixture(t *testing.T, n int) *store.DB {
	t.Helper()
	db := openStore(t)
	err := db.Update(func(tx *store.Tx) error {
		for i := 0; i < n; i++ {
			g := game(fmt.Sprintf("g%d", i), "")
			for s := range g.Seats {
				g.Seats[s].Secret = fmt.Sprintf("sec-%s-%d", g.ID, s)
				if err := tx.PutToken(g.Seats[s].Secret, store.Token{Kind: "seat", Game: g.ID, Address: g.Seats[s].Address}); err != nil {
					return err
				}
			}
			if err := SaveGame(tx, g); err != nil {
				return err
			}
		}
		return tx.PutToken("org-tok", store.Token{Kind: "org", Address: "orgtok@example.test"})
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// Rule (issue 25, "seat authentication in one place"; issue 23): a seat
// secret authenticates its own seat only: in its own game (or with no game
// named, the webhook's form), while it is the seat's current secret and
// the address holds the seat. Another game's secret, an organiser's, an
// unknown one are ErrNotSeatToken; a secret the seat no longer has, or
// whose address left the seat, is ErrTokenRevoked with the game.
// Generated: games x seats x the game named x each kind of secret.
func TestAuthSeat(t *testing.T) {
	const n = 3
	db := authFixture(t, n)
	// Revoke: g1's seat 0 got a new secret; g2's seat 1 was handed to
	// someone else (the token still names the old address).
	err := db.Update(func(tx *store.Tx) error {
		g1, err := LoadGame(tx, "g1")
		if err != nil {
			return err
		}
		g1.Seats[0].Secret = "sec-g1-0-new"
		g2, err := LoadGame(tx, "g2")
		if err != nil {
			return err
		}
		g2.Seats[1].Address = "carol@example.test"
		if err := SaveGame(tx, g1); err != nil {
			return err
		}
		return SaveGame(tx, g2)
	})
	if err != nil {
		t.Fatal(err)
	}
	revoked := map[string]int{"sec-g1-0": 0, "sec-g2-1": -1}
	checked := 0
	err = db.View(func(tx *store.Tx) error {
		load := func(id string) (*Game, error) { return LoadGame(tx, id) }
		for gi := 0; gi < n; gi++ {
			id := fmt.Sprintf("g%d", gi)
			for _, named := range []string{id, ""} {
				for oi := 0; oi < n; oi++ {
					for s := 0; s < 2; s++ {
						secret := fmt.Sprintf("sec-g%d-%d", oi, s)
						g, seat, err := AuthSeat(tx, named, secret, load)
						checked++
						rs, isRevoked := revoked[secret]
						switch {
						case named != "" && oi != gi:
							if !errors.Is(err, ErrNotSeatToken) {
								t.Errorf("%s in game %s: %v, want ErrNotSeatToken", secret, named, err)
							}
						case isRevoked:
							if !errors.Is(err, ErrTokenRevoked) || g == nil || g.ID != fmt.Sprintf("g%d", oi) || seat != rs {
								t.Errorf("%s (revoked): %v seat %d, want ErrTokenRevoked seat %d", secret, err, seat, rs)
							}
						default:
							if err != nil || g.ID != fmt.Sprintf("g%d", oi) || seat != s || g.Seats[seat].Secret != secret {
								t.Errorf("%s in game %q: %v seat %d, want seat %d", secret, named, err, seat, s)
							}
						}
					}
				}
				for _, secret := range []string{"org-tok", "nosuch", "", "SEC-G0-0", "sec-g0-0 "} {
					if _, _, err := AuthSeat(tx, named, secret, load); !errors.Is(err, ErrNotSeatToken) {
						t.Errorf("%q in game %q: %v, want ErrNotSeatToken", secret, named, err)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 30 {
		t.Fatalf("%d cases: the check reads little", checked)
	}
}

// Rule (issue 23): an organiser's tag authenticates only with a
// configured organiser's secret or an organiser token, from that
// organiser's own address (in any case) and an authenticated sender; a
// seat's secret, an unknown one, another sender or an unverified one do
// not. Generated: the secrets x senders x verified.
func TestAuthOrganiser(t *testing.T) {
	db := authFixture(t, 1)
	configured := map[string]string{"conf@example.test": "conf-secret", "empty@example.test": ""}
	owner := map[string]string{"conf-secret": "conf@example.test", "org-tok": "orgtok@example.test"}
	err := db.View(func(tx *store.Tx) error {
		for _, secret := range []string{"conf-secret", "org-tok", "sec-g0-0", "nosuch", "", "CONF-SECRET"} {
			for _, from := range []string{"conf@example.test", "CONF@Example.TEST", "orgtok@example.test", "OrgTok@example.test", "eve@example.test", "empty@example.test"} {
				for _, verified := range []bool{true, false} {
					org, ok := AuthOrganiser(tx, configured, secret, from, verified)
					want := owner[secret] != "" && strings.EqualFold(owner[secret], from) && verified
					if ok != want || org != owner[secret] {
						t.Errorf("secret %q from %s verified %v: %q %v, want %q %v", secret, from, verified, org, ok, owner[secret], want)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Rule: a game's state token is read from its record without decoding
// the state: false before the start, the header's move count after;
// an unknown game is the store's ErrNotFound. Generated: move counts.
func TestStateToken(t *testing.T) {
	db := openStore(t)
	for _, moves := range []int{0, 1, 7, 12345} {
		err := db.Update(func(tx *store.Tx) error {
			if err := SaveGame(tx, game("before", "")); err != nil {
				return err
			}
			if err := SaveGame(tx, game("after", fmt.Sprintf(`{"state":{"head":{"game":"toy","moves":%d},"rest":[1,2]}}`, moves))); err != nil {
				return err
			}
			if tok, ok, err := StateToken(tx, "before"); err != nil || ok || tok != 0 {
				t.Errorf("before the start: %d %v %v", tok, ok, err)
			}
			if tok, ok, err := StateToken(tx, "after"); err != nil || !ok || tok != moves {
				t.Errorf("after %d moves: %d %v %v", moves, tok, ok, err)
			}
			if _, _, err := StateToken(tx, "nosuch"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("no game: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Rule: an organiser's address has one secret: the configured one over
// its token's, the token's when none is configured, none for an address
// that is neither (a seat's address included, and in another case: the
// address as written); OrganiserSecrets lists every one so. Generated:
// addresses x configured or not.
func TestOrganiserSecret(t *testing.T) {
	db := authFixture(t, 1)
	for _, configured := range []map[string]string{nil, {"conf@example.test": "conf-secret"},
		{"conf@example.test": "conf-secret", "orgtok@example.test": "over-tok", "blank@example.test": ""}} {
		want := map[string]string{"orgtok@example.test": "org-tok"}
		for a, s := range configured {
			if s != "" {
				want[a] = s
			}
		}
		err := db.View(func(tx *store.Tx) error {
			for _, addr := range []string{"conf@example.test", "orgtok@example.test", "ORGTOK@example.test", "blank@example.test",
				"Ann@Example.test", "nobody@example.test"} {
				if got := OrganiserSecret(tx, configured, addr); got != want[addr] {
					t.Errorf("%v: %s has %q, want %q", configured, addr, got, want[addr])
				}
			}
			all, err := OrganiserSecrets(tx, configured)
			if err != nil {
				return err
			}
			if fmt.Sprint(all) != fmt.Sprint(want) {
				t.Errorf("%v: every secret %v, want %v", configured, all, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
