package settle

import (
	"testing"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/referee/records"
)

// ended is a state whose Result is res (nil: not over).
type ended struct {
	engine.State
	res *engine.Result
}

func (s ended) Result() *engine.Result { return s.res }

// scorable is an ended that can also score its position as it stands.
type scorable struct {
	ended
	adj *engine.Result
}

func (s scorable) Adjudicate() *engine.Result { return s.adj }

// TestResultEndedElseAdjudicated: a game's page shows its end's result;
// a game without one shows the position scored as it stands, marked
// adjudicated, only when the organiser closed it by adjudication (the game
// aborted and Close's ADJUDICATED entry in its log) and its state can
// score it; else no result. Varied over end, state kind, status and log.
func TestResultEndedElseAdjudicated(t *testing.T) {
	over, scored := &engine.Result{Rank: []int{1, 2}}, &engine.Result{Rank: []int{2, 1}}
	logs := map[string][]records.Entry{
		"empty":       nil,
		"adjudicated": {{Kind: records.EntryOrg, Params: map[string]any{"command": "ADJUDICATED"}}},
		"forfeit":     {{Kind: records.EntryOrg, Params: map[string]any{"command": "FORFEIT"}}},
		"said so":     {{Kind: records.EntrySay, Params: map[string]any{"command": "ADJUDICATED"}}},
	}
	for _, end := range []*engine.Result{nil, over} {
		for _, canScore := range []bool{false, true} {
			for _, status := range []string{records.StatusRunning, records.StatusOver, records.StatusAborted} {
				for name, all := range logs {
					var st engine.State = ended{res: end}
					if canScore {
						st = scorable{ended{res: end}, scored}
					}
					g := &records.Game{ID: "g1", Status: status}
					res, adj := Result(g, st, all)
					wantRes, wantAdj := end, false
					if end == nil && canScore && status == records.StatusAborted && name == "adjudicated" {
						wantRes, wantAdj = scored, true
					}
					if res != wantRes || adj != wantAdj {
						t.Errorf("end %v, scorable %v, %s, log %s: %v %v, want %v %v", end != nil, canScore, status, name, res, adj, wantRes, wantAdj)
					}
				}
			}
		}
	}
}
