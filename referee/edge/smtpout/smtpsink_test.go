package smtpout

import (
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/pbem-referee/referee/store"
)

// received is one message accepted by the sink, for one recipient.
type received struct {
	From, To string
	Data     []byte
}

// sink is an in-process SMTP server (go-smtp) whose behaviour depends on
// the recipient's local part:
//
//	unknown@...  550 5.1.1 at RCPT
//	busy@...     451 4.3.0 at RCPT, tempFails times, then accepted
//	drop@...     accepted, then the connection is dropped before the reply
//	             to the next command (QUIT)
//	mute@...     accepted, then nothing more is answered (QUIT hangs) until
//	             the test ends
//	anything else accepted
type sink struct {
	addr string

	mu          sync.Mutex
	msgs        []received
	auths       []string // "user:password" of every AUTH PLAIN
	tempFails   int      // remaining 451s for busy@
	requireAuth bool
	arrived     chan struct{} // one value per accepted message
	// gate, when set, runs before a message's data is read (a test's
	// hold on the client, set before the first connection).
	gate   func()
	unmute chan struct{} // closed when the test ends
}

func startSink(t *testing.T) *sink { return startSinkTLS(t, nil, false) }

// startSinkTLS starts a sink that offers STARTTLS with tc, or speaks TLS
// from the first byte when implicit.
func startSinkTLS(t *testing.T, tc *tls.Config, implicit bool) *sink {
	t.Helper()
	sk := &sink{requireAuth: true, arrived: make(chan struct{}, 100), unmute: make(chan struct{})}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &sinkSession{sk: sk, conn: c}, nil
	}))
	srv.Domain = "sink.test"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = quietLogger{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if implicit {
		ln = tls.NewListener(ln, tc)
	} else {
		srv.TLSConfig = tc
	}
	sk.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		close(sk.unmute)
		_ = srv.Close()
	})
	return sk
}

func (sk *sink) messages() []received {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	return append([]received(nil), sk.msgs...)
}

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}
func (quietLogger) Println(...any)        {}

type sinkSession struct {
	sk     *sink
	conn   *smtp.Conn
	authed bool
	from   string
	rcpts  []string
	drop   bool
	mute   bool
}

func (s *sinkSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *sinkSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		s.sk.mu.Lock()
		s.sk.auths = append(s.sk.auths, user+":"+pass)
		s.sk.mu.Unlock()
		if pass != "s3cret-Pa55" {
			return smtp.ErrAuthFailed
		}
		s.authed = true
		return nil
	}), nil
}

func (s *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.sk.requireAuth && !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	local, _, _ := strings.Cut(to, "@")
	switch local {
	case "unknown":
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "user unknown"}
	case "busy":
		s.sk.mu.Lock()
		defer s.sk.mu.Unlock()
		if s.sk.tempFails > 0 {
			s.sk.tempFails--
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
		}
	case "drop":
		s.drop = true
	case "mute":
		s.mute = true
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

func (s *sinkSession) Data(r io.Reader) error {
	if g := s.sk.gate; g != nil {
		g()
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.sk.mu.Lock()
	for _, to := range s.rcpts {
		s.sk.msgs = append(s.sk.msgs, received{From: s.from, To: to, Data: b})
		s.sk.arrived <- struct{}{}
	}
	s.sk.mu.Unlock()
	return nil
}

// Reset runs right after the reply to DATA was written; for drop@ it cuts
// the connection there, so the client's QUIT fails after the message was
// accepted.
func (s *sinkSession) Reset() {
	if s.drop {
		_ = s.conn.Conn().Close()
	}
	if s.mute {
		<-s.sk.unmute
	}
	s.from, s.rcpts, s.drop, s.mute = "", nil, false, false
}

func (s *sinkSession) Logout() error { return nil }

// openStore opens a throwaway store.
func openStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "referee.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		_ = db.Close()
	})
	return db
}

// enqueue adds one outbox item and returns its id.
func enqueue(t testing.TB, db *store.DB, key, from, to string, payload []byte, created time.Time) uint64 {
	t.Helper()
	var id uint64
	err := db.Update(func(tx *store.Tx) error {
		var err error
		id, err = tx.Enqueue(DefaultQueue, store.Item{
			Key: key, To: to, Payload: payload, Meta: map[string]string{"from": from},
			Created: created, Kind: "test",
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// item reads an item, live or retired.
func item(t testing.TB, db *store.DB, id uint64) store.Item {
	t.Helper()
	var it store.Item
	if err := db.View(func(tx *store.Tx) error {
		var err error
		it, err = tx.QueueItem(DefaultQueue, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return it
}

// testMessage is a complete message; its body has a line starting with a
// dot, to check dot-stuffing round trips.
func testMessage(msgid, to string) []byte {
	return []byte("From: Referee <referee@example.test>\r\n" +
		"To: " + to + "\r\n" +
		"Subject: Your turn\r\n" +
		"Message-ID: " + msgid + "\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n" +
		"MIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"\r\n" +
		"It is your move.\r\n" +
		".hidden line starting with a dot\r\n" +
		"..two dots\r\n" +
		"Grüße\r\n")
}

func debugLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
