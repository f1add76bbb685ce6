//go:build !race

package race

// Enabled: the test binary runs under the race detector (go test -race).
const Enabled = false
