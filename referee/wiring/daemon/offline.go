package daemon

import (
	"os"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/store"
)

// Offline opens the store of a configuration without the daemon, as the
// organiser's command line and the test rigs do (the daemon must be
// stopped: it holds the store's lock, and Open then fails with
// store.ErrLocked). Mails the referee causes wait in the outbox until the
// daemon runs. The caller closes the returned store.
func Offline(cfg *config.Config) (*referee.Referee, *store.DB, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, nil, err
	}
	db, err := store.Open(cfg.StorePath(), nil)
	if err != nil {
		return nil, nil, err
	}
	r, err := referee.New(referee.Options{DB: db, Domain: cfg.Domain, Local: cfg.Referee.LocalPart, Name: cfg.Referee.Name,
		Compose: referee.Composer(mailmsg.Address{Name: cfg.Referee.Name, Addr: cfg.RefereeAddress()}), PageBase: cfg.Webhook.PublicURL})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return r, db, nil
}

// ErrLocked is the error of Offline while the daemon runs (it holds the
// store's lock).
var ErrLocked = store.ErrLocked

// Compact rewrites a configuration's store file without its free pages
// (the daemon must be stopped) and returns the sizes before and after.
func Compact(cfg *config.Config) (before, after int64, err error) {
	return store.Compact(cfg.StorePath())
}
