//go:build race

package mailin

// raceEnabled: the generated mails of a person-shaped test run in the
// content pass, not under the race detector (one goroutine, nothing to
// detect).
const raceEnabled = true
