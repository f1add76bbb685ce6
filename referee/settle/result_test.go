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

// TestResultReadsWhatCloseWrote: a game Close stopped for each reason, its
// position scorable, shows the adjudicated result exactly when it was
// closed for CloseAdjudicated: Result reads the entry Close wrote, so a
// change of Close's word (or of how it is logged) fails here, unlike the
// hand-written entries of TestResultEndedElseAdjudicated.
func TestResultReadsWhatCloseWrote(t *testing.T) {
	scored := &engine.Result{Rank: []int{2, 1}}
	for _, why := range []string{CloseAdjudicated, CloseForfeit, CloseRepaired, "aborted"} {
		for _, l := range layouts(t) {
			f := started(t, l.eg, l.n, "close", func(int) bool { return false })
			if err := Close(f, t0, why, "result", "1. P0 3"); err != nil {
				t.Fatal(err)
			}
			res, adj := Result(f.g, scorable{ended{}, scored}, f.entries)
			if want := why == CloseAdjudicated; adj != want || (res == scored) != want {
				t.Fatalf("%s, closed %q: Result %v adjudicated %v, want adjudicated %v", l.eg.Info().Name, why, res, adj, want)
			}
			if len(f.entries) != 1 || !ClosedAs(f.entries[0], why) {
				t.Fatalf("closed %q: logged %+v", why, f.entries)
			}
		}
	}
}
