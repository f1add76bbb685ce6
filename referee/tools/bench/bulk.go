package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/wiring/daemon"
	"github.com/pbem-referee/referee/store"
)

// The bulk loader (issue 25: 100,000 live games). Loading through the
// referee costs an organiser command and a JOIN input per seat (10,000
// games took 400 s and more); the bulk loader loads a few template games
// that way, then copies them straight through the store's API, many games
// a transaction: each copy is a template's state as the referee wrote it
// (record, indexes, log, seat tokens, players, wake-up) under a new game
// id, new seat addresses and new secrets. The copies' mails are not
// queued (OutboxBytesPerGame counts the templates' only).

// bulkTemplates is how many games are loaded through the referee first
// (per kind of game); bulkBatch the copies written per transaction.
const (
	bulkTemplates = 2
	bulkBatch     = 2000
)

// template is one game as the referee stored it.
type template struct {
	id      string
	rec     []byte
	index   store.GameIndex
	log     [][]byte
	wake    time.Time
	tokens  map[string]store.Token // secret -> token, the game's seats
	players map[string][]byte      // address -> player record
}

// bulkLoad grows the store to n games: templates through the referee,
// then copies.
func (s *scaler) bulkLoad(ctx context.Context, d *daemon.Daemon, n int) error {
	if s.games == 0 {
		if err := s.load(ctx, d, min(n, bulkTemplates*len(s.kinds))); err != nil {
			return err
		}
		var err error
		if s.templates, err = readTemplates(d.DB, s.games); err != nil {
			return err
		}
	}
	for s.games < n {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := d.DB.Update(func(tx *store.Tx) error {
			for k := 0; k < bulkBatch && s.games < n; k++ {
				s.games++
				t := s.templates[s.games%len(s.templates)]
				if err := t.copyAs(tx, s.games); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("bench: bulk load: %w", err)
		}
	}
	return nil
}

// readTemplates reads games s1..sN as stored.
func readTemplates(db *store.DB, n int) ([]*template, error) {
	var out []*template
	err := db.View(func(tx *store.Tx) error {
		byGame := map[string]map[string]store.Token{}
		if err := tx.Tokens(func(secret string, t store.Token) error {
			if t.Kind == "seat" {
				if byGame[t.Game] == nil {
					byGame[t.Game] = map[string]store.Token{}
				}
				byGame[t.Game][secret] = t
			}
			return nil
		}); err != nil {
			return err
		}
		for k := 1; k <= n; k++ {
			t := &template{id: "s" + strconv.Itoa(k), tokens: byGame["s"+strconv.Itoa(k)], players: map[string][]byte{}}
			var err error
			if t.rec, err = tx.Game(t.id); err != nil {
				return err
			}
			ix, ok, err := tx.GameIndexOf(t.id)
			if err != nil || !ok {
				return fmt.Errorf("bench: template %s has no index (%v)", t.id, err)
			}
			t.index = ix
			if err := tx.Log(t.id, 1, func(_ uint64, e []byte) error { t.log = append(t.log, e); return nil }); err != nil {
				return err
			}
			t.wake = tx.Wake(t.id)
			for _, a := range ix.Addresses {
				if rec, err := tx.Player(a); err == nil {
					t.players[a] = rec
				}
			}
			out = append(out, t)
		}
		return nil
	})
	return out, err
}

// copyAs writes the template as game s<k>: its id, its seats' addresses
// (s<k>p<j>@...) and secrets replaced wherever they occur.
func (t *template) copyAs(tx *store.Tx, k int) error {
	id := "s" + strconv.Itoa(k)
	pairs := []string{`"` + t.id + `"`, `"` + id + `"`, t.id + "p", id + "p"}
	secrets := map[string]string{}
	for secret := range t.tokens {
		sum := sha256.Sum256([]byte(secret + "/" + id))
		ns := hex.EncodeToString(sum[:])[:len(secret)]
		secrets[secret] = ns
		pairs = append(pairs, secret, ns)
	}
	r := strings.NewReplacer(pairs...)
	re := func(b []byte) []byte { return []byte(r.Replace(string(b))) }
	if err := tx.PutGame(id, re(t.rec)); err != nil {
		return err
	}
	ix := t.index
	ix.Addresses = nil
	for _, a := range t.index.Addresses {
		ix.Addresses = append(ix.Addresses, r.Replace(a))
	}
	if err := tx.IndexGame(id, ix); err != nil {
		return err
	}
	for _, e := range t.log {
		if _, err := tx.AppendLog(id, re(e)); err != nil {
			return err
		}
	}
	if !t.wake.IsZero() {
		if err := tx.SetWake(id, t.wake); err != nil {
			return err
		}
	}
	for secret, tok := range t.tokens {
		tok.Game, tok.Address = id, r.Replace(tok.Address)
		if err := tx.PutToken(secrets[secret], tok); err != nil {
			return err
		}
	}
	for a, rec := range t.players {
		if !bytes.Contains([]byte(a), []byte(t.id+"p")) {
			continue // a player of other games too: left as it is
		}
		if err := tx.PutPlayer(r.Replace(a), re(rec)); err != nil {
			return err
		}
	}
	return nil
}
