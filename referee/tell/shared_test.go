package tell

import (
	"strings"
	"testing"
)

// oneSpacedCases are lines of every spacing: leads, ends, runs, tabs, line
// breaks and a no-break space, around words in the four languages.
func oneSpacedCases() []string {
	parts := []string{"", " ", "  ", "\t", "\n", "\u00a0", "PLACE", "MH1", "FABRIQUER", "è", "SEME,"}
	var out []string
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				out = append(out, a+b+c, a+" "+b+" "+c)
			}
		}
	}
	return out
}

// TestOneSpacedIsFieldsJoined_Issue24: a menu option's name is its words
// one space apart (strings.Join(strings.Fields(line), " ")), and a line
// already so is returned as it is.
func TestOneSpacedIsFieldsJoined_Issue24(t *testing.T) {
	kept := 0
	for _, line := range oneSpacedCases() {
		want := strings.Join(strings.Fields(line), " ")
		if got := oneSpaced(line); got != want {
			t.Errorf("oneSpaced(%q) = %q, want %q", line, got, want)
		}
		if want == line {
			kept++
		}
	}
	if kept == 0 {
		t.Fatal("no case is already one-spaced")
	}
}

func FuzzOneSpaced(f *testing.F) {
	for _, c := range oneSpacedCases() {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := oneSpaced(line), strings.Join(strings.Fields(line), " "); got != want {
			t.Fatalf("oneSpaced(%q) = %q, want %q", line, got, want)
		}
	})
}
