package referee

import "testing"

// The referee's keyword test knows its own commands, the games' commands
// and every alias in every language, and nothing else.
func TestRefereeKeywords(t *testing.T) {
	h := newHarness(t)
	for w, want := range map[string]bool{
		"JOIN": true, "LANG": true, "LINGUA": true, "TAAL": true, "LANGUE": true, "CLAIM": true, "PASS": true,
		"NEXT": true, "OR": true, "END": true, "CIAO": false, "GRAZIE": false, "THANKS": false, "HELLO": false,
	} {
		if got := h.r.isKeyword(w); got != want {
			t.Errorf("isKeyword(%q) = %v, want %v", w, got, want)
		}
	}
}
