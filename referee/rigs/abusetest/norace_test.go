//go:build !race

package abusetest

const raceEnabled = false
