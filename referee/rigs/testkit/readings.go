package testkit

import (
	"sync"
	"testing"

	"github.com/pbem-referee/referee/referee/reading"
)

// ClaimAnswers are a claim game's answers in every form a player writes
// (issue 25, one reading): a bare command, alternatives, chat around the
// answer, an option number, another option, a typo, a block, PASS. The
// tests of one reading (mailin's and imapin's readonce_test.go) answer
// with them in turn.
var ClaimAnswers = []string{
	"CLAIM 1 | CLAIM 2 | CLAIM 3 | CLAIM 4 | CLAIM 5",
	"Hi!\nCLAIM 5 | CLAIM 4 | CLAIM 3 | CLAIM 2 | CLAIM 1\nthanks",
	"1",
	"option 2",
	"clam 3 | CLAIM 4 | CLAIM 1 | CLAIM 2 | CLAIM 5",
	"NEXT\nCLAIM 2\nOR\nCLAIM 3\nOR\nCLAIM 4\nOR\nCLAIM 1\nOR\nCLAIM 5\nEND",
	"PASS",
}

// Readings counts every parser run on a mail's text (reading.ReadHook),
// per reading.Mail and per form, safe for concurrent readers.
type Readings struct {
	mu    sync.Mutex
	forms map[*reading.Mail]map[string]int
}

// WatchReadings sets reading.ReadHook to count into a new Readings until
// the test ends.
func WatchReadings(t testing.TB) *Readings {
	r := &Readings{forms: map[*reading.Mail]map[string]int{}}
	reading.ReadHook = func(m *reading.Mail, form string) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.forms[m] == nil {
			r.forms[m] = map[string]int{}
		}
		r.forms[m][form]++
	}
	t.Cleanup(func() { reading.ReadHook = nil })
	return r
}

// Reset forgets what was counted.
func (r *Readings) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.forms)
}

// Counts returns how many Mails read a text and, per Mail, how many times
// each form was read.
func (r *Readings) Counts() (mails int, forms []map[string]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, fs := range r.forms {
		c := make(map[string]int, len(fs))
		for f, n := range fs {
			c[f] = n
		}
		forms = append(forms, c)
	}
	return len(r.forms), forms
}
