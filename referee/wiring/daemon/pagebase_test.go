package daemon

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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

// TestPagesWithoutWebhookSecret (issue 24): an organiser whose mail comes
// by IMAP publishes pages on the HTTP listener without a webhook
// credential: the pages answer, no inbound endpoint is mounted.
func TestPagesWithoutWebhookSecret(t *testing.T) {
	text := "domain = \"pbem.example.org\"\ndata_dir = " + strconv.Quote(t.TempDir()) +
		"\n[smtp]\naddr = \"127.0.0.1:25\"\ntls = \"none\"\n" +
		"[imap]\naddr = \"imap.example.org:993\"\nusername = \"u\"\npassword = \"p\"\n" +
		"[webhook]\naddr = \"127.0.0.1:0\"\npublic_url = \"https://pbem.example.org\"\n"
	cfg, err := config.Parse([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	d, err := New(cfg, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NoSync: true, Mux: mux})
	if err != nil {
		t.Fatal(err)
	}
	defer d.DB.Close()
	for path, want := range map[string]int{"/t/": http.StatusOK, "/g/nosuch-0123": http.StatusNotFound} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want {
			t.Errorf("GET %s: %d, want %d", path, rec.Code, want)
		}
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("POST", "/inbound", strings.NewReader("x")))
	if rec.Code == http.StatusOK || rec.Code == http.StatusAccepted {
		t.Errorf("POST without a credential configured: %d", rec.Code)
	}
}
