package race

import (
	"runtime/debug"
	"testing"
)

// TestEnabledIsTheBuildsRaceFlag: Enabled says what the build says: the
// -race flag go test was given is in the binary's build settings.
func TestEnabledIsTheBuildsRaceFlag(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build info in the test binary")
	}
	built := false
	for _, s := range info.Settings {
		if s.Key == "-race" && s.Value == "true" {
			built = true
		}
	}
	if Enabled != built {
		t.Fatalf("race.Enabled = %v, the build's -race setting says %v", Enabled, built)
	}
}
