package enginetest

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/engine"
)

// Submit submits a seat's mail text to a Table, answering its current
// token; an error of the engine (a bug, never a refused order) fails the
// test.
func Submit(t testing.TB, tb *engine.Table, seat int, text string) *engine.Report {
	t.Helper()
	rep, err := tb.Submit(seat, engine.ParseScript(text), tb.Token())
	if err != nil {
		t.Fatalf("Submit(%d, %q): %v", seat, text, err)
	}
	return rep
}

// Statuses lists the statuses of a report's results, comma-separated
// ("applied,sealed").
func Statuses(rep *engine.Report) string {
	var s []string
	for _, r := range rep.Results {
		s = append(s, r.Status)
	}
	return strings.Join(s, ",")
}
