package referee

import (
	"encoding/json"
	"testing"

	"github.com/pbem-referee/referee/referee/tell"
)

// TestVocabularyWords: the named statuses and kinds are the words stored
// and sent before they had names, so records, logs and JSON answers read
// the same (an Outcome marshals as it always did).
func TestVocabularyWords(t *testing.T) {
	for c, want := range map[any]string{
		KindSeat: "seat", KindPlayer: "player", KindOrg: "org", KindNone: "",
		OutcomeApplied: "applied", OutcomeQueued: "queued", OutcomeRejected: "rejected",
		OutcomeDuplicate: "duplicate", OutcomeIgnored: "ignored", OutcomeAnswered: "answered",
		tell.LineDone: "done", tell.LineRejected: "rejected", tell.LineApplied: "applied", tell.LinePartial: "partial", tell.LineQueued: "queued",
		tell.LineSealed: "sealed", tell.LineElsePass: "else_pass", tell.LineHalted: "halted", tell.LineSkipped: "skipped",
		tell.LineFailed: "failed", tell.LineDropped: "dropped",
	} {
		js, _ := json.Marshal(c)
		if string(js) != `"`+want+`"` {
			t.Errorf("%v marshals as %s, want %q", c, js, want)
		}
	}
	js, err := json.Marshal(Outcome{Status: OutcomeQueued, Game: "g1", Seat: 2, Detail: "orders queued for later decisions"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"status":"queued","game":"g1","seat":2,"detail":"orders queued for later decisions"}`; string(js) != want {
		t.Errorf("Outcome marshals as %s, want %s", js, want)
	}
}
