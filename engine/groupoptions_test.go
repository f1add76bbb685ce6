package engine

import (
	"strings"
	"testing"
)

// Issue 22 (doc.go, "Menus that fit a decision"): the Table keeps the
// options of one group together, the groups in the order of their first
// option and each group's options in the game's order; a menu without
// groups or already grouped is left as it is (the same slice).
func TestGroupOptions_Issue22(t *testing.T) {
	mk := func(spec string) []Option {
		var out []Option
		for _, f := range strings.Fields(spec) {
			g, c, _ := strings.Cut(f, ":")
			out = append(out, Option{Cmd: c, Group: g})
		}
		return out
	}
	text := func(os []Option) string {
		var b []string
		for _, o := range os {
			b = append(b, o.Group+":"+o.Cmd)
		}
		return strings.Join(b, " ")
	}
	for _, c := range []struct{ in, want string }{
		{"a:1 b:2 a:3 c:4 b:5", "a:1 a:3 b:2 b:5 c:4"},
		{"a:1 a:2 b:3", "a:1 a:2 b:3"},
		{":1 :2 :3", ":1 :2 :3"},
		{"x:1 :2 x:3", "x:1 x:3 :2"},
		{"", ""},
	} {
		in := mk(c.in)
		before := text(in)
		got := GroupOptions(in)
		if text(got) != c.want {
			t.Errorf("%q: got %q, want %q", c.in, text(got), c.want)
		}
		if text(got) == c.in && len(in) > 0 && &got[0] != &in[0] {
			t.Errorf("%q: an ordered menu was copied", c.in)
		}
		if text(in) != before {
			t.Errorf("%q: the caller's slice was reordered", c.in)
		}
	}
}
