//go:build race

package abusetest

// The race detector multiplies a program's memory by five to ten: the
// bound on the daemon's peak RSS is raised accordingly (still far below
// the 4.4 GB one mail bomb took before issue 11).
const raceEnabled = true
