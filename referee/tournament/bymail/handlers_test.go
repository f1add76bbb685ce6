package bymail

import "testing"

// TestOneHandlerARow_Issue25 (issue 25: one handler per keyword, from the
// table): the desk's organiser and player tables and their handler maps
// name the same keywords, each once. A row without a handler would be
// passed to the core as a game command; a handler without a row would
// have no syntax for its usage error.
func TestOneHandlerARow_Issue25(t *testing.T) {
	check := func(family string, rows []Command, handled func(string) bool, n int) {
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r.Keyword] {
				t.Errorf("%s: %s has two rows", family, r.Keyword)
			}
			seen[r.Keyword] = true
			if r.Usage == "" || len(r.Usage) < len(r.Keyword) || r.Usage[:len(r.Keyword)] != r.Keyword {
				t.Errorf("%s: %s's usage %q does not start with its keyword", family, r.Keyword, r.Usage)
			}
			if !handled(r.Keyword) {
				t.Errorf("%s: %s has a row and no handler", family, r.Keyword)
			}
		}
		if n != len(seen) {
			t.Errorf("%s: %d handlers for %d rows: a handler without a row", family, n, len(seen))
		}
	}
	check("organiser", OrgCommands, func(k string) bool { return orgHandlers[k] != nil }, len(orgHandlers))
	check("player", PlayerCommands, func(k string) bool { return playerHandlers[k] != nil }, len(playerHandlers))
	if len(OrgCommands) < 15 || len(PlayerCommands) < 4 {
		t.Fatalf("%d organiser rows, %d player rows", len(OrgCommands), len(PlayerCommands))
	}
}
