package mailfmt

import (
	"sync"
	"testing"
)

// TestNumberKeysReadAtOnce: number words are read by many readers at once
// (the IMAP watcher's lanes): their keys come out right from goroutines
// reading together, and the race detector (make check's race pass) finds
// no state shared between them (a transform.Chain shared by every call
// raced).
func TestNumberKeysReadAtOnce(t *testing.T) {
	words := map[string]string{"Vingt-et-Un": "vingtetun", "deuxième": "deuxieme", "fünf": "funf",
		"dreißigsten": "dreissigsten", "ventitreesimo": "ventitreesimo", "tweeëntwintigste": "tweeentwintigste"}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				for w, want := range words {
					if got := numberKey(w); got != want {
						t.Errorf("numberKey(%q) = %q, want %q", w, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
