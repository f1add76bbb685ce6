package bench

import "github.com/pbem-referee/referee/store"

// startCensus starts the store's page census of a mail run
// (Options.Pages).
func (o *Options) startCensus(db *store.DB) error {
	if !o.Pages {
		return nil
	}
	return db.StartPageCensus()
}

// census keeps the pages the run's commits wrote (Options.Pages), with
// a meta page a commit.
func (t *Throughput) census(o *Options, db *store.DB) {
	if !o.Pages {
		return
	}
	t.pages = db.PageCensus()
	t.pages["meta"] = t.Commits
}
