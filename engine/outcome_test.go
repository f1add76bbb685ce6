package engine

import "testing"

// Issue 21, Dice Brewing: an event parameter named "code" (the ingredient
// bought, "HONEY") is a fact, never a rule error; only Event.Err makes a
// line "partial".
func TestEventParamsAreNotRuleErrors(t *testing.T) {
	buy := NewEvent("db.buy", 0, Public, "code", "HONEY", "rule", "DB-5.7.3", "price", 3)
	if re := eventError(buy, 0); re != nil {
		t.Fatalf("a BUY event read as the error %v", re)
	}
	drop := NewEvent("db.item_dropped", 0, Public, "item", "HP1 SEED", "code", "no_seed")
	drop.Err = Reject("DB-5.3.4", "no_seed")
	if re := eventError(drop, 0); re == nil || re.Code != "no_seed" || re.Rule != "DB-5.3.4" {
		t.Fatalf("the dropped item's error not read: %v", re)
	}
	if re := eventError(drop, 1); re != nil {
		t.Fatalf("another seat's event read as this seat's error: %v", re)
	}
	// The redacted copy keeps the error (it is the acting seat's).
	drop.Vis = Only(0)
	drop.Redacted = map[string]any{"item": "?"}
	if ev, ok := drop.For(1); !ok || ev.Err == nil || ev.Params["code"] != nil {
		t.Fatalf("redacted copy: %+v", ev)
	}
}
