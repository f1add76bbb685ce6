package daemon

import (
	"io"
	"log/slog"
	"strconv"
	"testing"

	"github.com/pbem-referee/referee/referee/wiring/config"
)

// TestPublicURLIsThePageBase: webhook.public_url makes the links to the
// pages in mails absolute; Options.PageBase (the demo's) wins over it.
func TestPublicURLIsThePageBase(t *testing.T) {
	for _, c := range []struct{ public, opt, want string }{
		{"", "", ""},
		{"https://pbem.example.org/referee/", "", "https://pbem.example.org/referee"},
		{"https://pbem.example.org", "http://127.0.0.1:9999", "http://127.0.0.1:9999"},
	} {
		text := "domain = \"pbem.example.org\"\ndata_dir = " + strconv.Quote(t.TempDir()) +
			"\n[smtp]\naddr = \"127.0.0.1:25\"\ntls = \"none\"\n[webhook]\naddr = \"127.0.0.1:0\"\nsecret = \"s\"\n"
		if c.public != "" {
			text += "public_url = " + strconv.Quote(c.public) + "\n"
		}
		cfg, err := config.Parse([]byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := New(cfg, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), PageBase: c.opt, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Referee.PageBase(); got != c.want {
			t.Errorf("public_url %q, PageBase %q: page base %q, want %q", c.public, c.opt, got, c.want)
		}
		d.DB.Close()
	}
}
