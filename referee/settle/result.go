package settle

import (
	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
)

// Result is the result game g shows (its public page) with state st and
// log all: the state's own when the game ended, else, for a game the
// organiser closed by adjudication (the entry Close logged for
// CloseAdjudicated, the game aborted), the position scored as it stands,
// adjudicated true; nil when neither.
func Result(g *records.Game, st engine.State, all []records.Entry) (res *engine.Result, adjudicated bool) {
	if res := st.Result(); res != nil {
		return res, false
	}
	adj, ok := st.(interface{ Adjudicate() *engine.Result })
	if !ok || g.Status != records.StatusAborted {
		return nil, false
	}
	for _, e := range all {
		if ClosedAs(e, CloseAdjudicated) {
			return adj.Adjudicate(), true
		}
	}
	return nil, false
}
