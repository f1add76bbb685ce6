package organise

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/referee/deadline"
	"github.com/pbem-referee/referee/referee/hooks"
)

// Rule (issue 22): a refusal of a deadline policy or of a HOOK line
// reaches the organiser as the door's *Error with the same code and
// parameters (worded by org.error.<code>), wrapped or not; any other
// error (the core's failure) is not turned into a refusal. Generated:
// the hooks' and the policies' refusals of real lines x wrapping.
func TestRefusal(t *testing.T) {
	var refusals []error
	for _, args := range [][]string{nil, {"ftp://x"}, {"https://x.example.test", "nosuchkind"}} {
		_, err := hooks.Parse(args)
		refusals = append(refusals, err)
	}
	_, _, err := hooks.Remove(nil, []string{"abc"})
	refusals = append(refusals, err)
	for _, text := range []string{"banana", "48h remind=x", "at=25:99", "days=funday", "misses=-1"} {
		if _, err := deadline.ParsePolicy(text); err != nil {
			refusals = append(refusals, err)
		}
	}
	if len(refusals) < 5 {
		t.Fatalf("only %d refusals generated: the check reads little", len(refusals))
	}
	for i, base := range refusals {
		var code string
		var params map[string]any
		var de *deadline.Error
		var he *hooks.Error
		switch {
		case errors.As(base, &de):
			code, params = de.Code, de.Params
		case errors.As(base, &he):
			code, params = he.Code, he.Params
		default:
			t.Fatalf("refusal %d is neither a deadline's nor a hook's: %v", i, base)
		}
		for _, err := range []error{base, fmt.Errorf("wrapped: %w", base)} {
			var e *Error
			if !errors.As(Refusal(err), &e) || e.Code != code || fmt.Sprint(e.Params) != fmt.Sprint(params) {
				t.Errorf("Refusal(%v) = %v, want code %s %v", err, Refusal(err), code, params)
			}
			if !doorError(Refusal(err)) {
				t.Errorf("Refusal(%v) is not the door's error", err)
			}
		}
	}
	core := errors.New("store: disk full")
	if Refusal(core) != core || doorError(Refusal(core)) {
		t.Errorf("a failure of the core's became a refusal: %v", Refusal(core))
	}
	if e := Fail("no_hook", "hook", "x1"); e.Code != "no_hook" || e.Params["hook"] != "x1" {
		t.Errorf("Fail: %+v", e)
	}
}
