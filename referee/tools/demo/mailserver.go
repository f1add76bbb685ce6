package demo

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// MailOptions configure the embedded mail stack.
type MailOptions struct {
	// Domain is the only mail domain served ("example.test" if empty).
	Domain string
	// Logger receives the servers' errors (discarded if nil).
	Logger *slog.Logger
	// OnDeliver, if set, is called after each message was appended to a
	// mailbox, on the SMTP session's goroutine: it must be quick.
	OnDeliver func(Delivery)
	// MaxMessageBytes bounds one message (default 10 MiB).
	MaxMessageBytes int64
}

// Delivery describes one message appended to a mailbox by the SMTP server.
type Delivery struct {
	// Account is the address of the mailbox's owner; Rcpt the envelope
	// recipient as given (plus part included); From the envelope sender.
	Account, Rcpt, From string
	// MessageID and InReplyTo are the message's fields (angle brackets
	// included, as written).
	MessageID, InReplyTo string
	// At is the moment the message was appended.
	At   time.Time
	Size int
}

// MailServer is the embedded mail stack: an IMAP server (go-imap v2's
// imapmemserver, one mailbox tree per user) and an SMTP server (go-smtp)
// whose backend delivers each recipient into the right INBOX, on
// 127.0.0.1. Plus addresses are delivered to the base account
// (referee+g1.0.secret@domain lands in referee@domain's INBOX) with a
// Delivered-To field naming the envelope recipient, so the tag survives as
// it does with Postfix and Dovecot. Mail for another domain is refused (no
// relaying), mail for an unknown user gets 550. AUTH PLAIN is offered for
// mail clients but not required (the server listens on loopback only).
// Everything lives in memory and is lost on Close.
type MailServer struct {
	// Domain is the mail domain; IMAPAddr and SMTPAddr the listeners'
	// "127.0.0.1:port" addresses.
	Domain   string
	IMAPAddr string
	SMTPAddr string

	opt       MailOptions
	log       *slog.Logger
	mem       *imapmemserver.Server
	imap      *imapserver.Server
	smtp      *smtp.Server
	mu        sync.RWMutex
	accounts  map[string]*account // by lower-case local part
	delivered atomic.Uint64
	wg        sync.WaitGroup
	closeOnce sync.Once
}

type account struct {
	addr, password string
	user           *imapmemserver.User
}

// StartMailServer starts the IMAP and SMTP servers on random loopback
// ports. Close stops them.
func StartMailServer(opt MailOptions) (*MailServer, error) {
	if opt.Domain == "" {
		opt.Domain = "example.test"
	}
	opt.Domain = strings.ToLower(opt.Domain)
	if opt.MaxMessageBytes <= 0 {
		opt.MaxMessageBytes = 10 << 20
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &MailServer{Domain: opt.Domain, opt: opt, log: log, mem: imapmemserver.New(), accounts: map[string]*account{}}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			sess, ok := s.mem.NewSession().(imapserver.SessionIMAP4rev2)
			if !ok {
				return nil, nil, errors.New("demo: imapmemserver session lacks IMAP4rev2")
			}
			return idleSession{sess}, nil, nil
		},
		// Listed explicitly: without IMAP4rev2 the client would use
		// neither MOVE nor IDLE.
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true,
		Logger:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	})
	iln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("imap listen: %w", err)
	}
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = iln.Close()
		return nil, fmt.Errorf("smtp listen: %w", err)
	}
	s.IMAPAddr, s.SMTPAddr = iln.Addr().String(), sln.Addr().String()
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{s: s}, nil }))
	s.smtp.Domain = "mail." + opt.Domain
	s.smtp.AllowInsecureAuth = true
	s.smtp.MaxMessageBytes = opt.MaxMessageBytes
	s.smtp.MaxRecipients = 100
	s.smtp.ReadTimeout, s.smtp.WriteTimeout = 5*time.Minute, time.Minute
	s.smtp.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	s.serve("imap", func() error { return s.imap.Serve(iln) })
	s.serve("smtp", func() error { return s.smtp.Serve(sln) })
	return s, nil
}

// serve runs a server loop, logging a panic or an unexpected end.
func (s *MailServer) serve(name string, f func() error) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("mail server panicked", slog.String("server", name), slog.Any("panic", p),
					slog.String("stack", string(debug.Stack())))
			}
		}()
		if err := f(); err != nil && !errors.Is(err, smtp.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
			s.log.Warn("mail server stopped", slog.String("server", name), slog.Any("err", err))
		}
	}()
}

// Close stops both servers and closes their connections.
func (s *MailServer) Close() error {
	var err error
	s.closeOnce.Do(func() {
		err = errors.Join(s.smtp.Close(), s.imap.Close())
		s.wg.Wait()
	})
	return err
}

// Delivered returns the number of messages appended so far (one per
// recipient).
func (s *MailServer) Delivered() uint64 { return s.delivered.Load() }

// AddUser creates the account local@Domain with a random password (or the
// given one) and an INBOX, and returns the address and password. Adding an
// existing user returns its credentials.
func (s *MailServer) AddUser(local, password string) (addr, pw string, err error) {
	local = strings.ToLower(strings.TrimSpace(local))
	if local == "" || strings.ContainsAny(local, "@+ \t\r\n\"<>") {
		return "", "", fmt.Errorf("demo: bad user name %q", local)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.accounts[local]; a != nil {
		return a.addr, a.password, nil
	}
	if password == "" {
		if password, err = randomPassword(); err != nil {
			return "", "", err
		}
	}
	addr = local + "@" + s.Domain
	u := imapmemserver.NewUser(addr, password)
	if err := u.Create("INBOX", nil); err != nil {
		return "", "", err
	}
	s.mem.AddUser(u)
	s.accounts[local] = &account{addr: addr, password: password, user: u}
	return addr, password, nil
}

// Password returns the password of an account ("" if unknown).
func (s *MailServer) Password(addr string) string {
	if a, err := s.lookup(addr); err == nil {
		return a.password
	}
	return ""
}

func randomPassword() (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}

// lookup maps an address to its account: user+tag@domain is user's.
func (s *MailServer) lookup(addr string) (*account, error) {
	addr = strings.Trim(strings.TrimSpace(addr), "<>")
	at := strings.LastIndexByte(addr, '@')
	if at < 0 || !strings.EqualFold(addr[at+1:], s.Domain) {
		return nil, &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "relay access denied"}
	}
	local := strings.ToLower(addr[:at])
	if i := strings.IndexByte(local, '+'); i >= 0 {
		local = local[:i]
	}
	s.mu.RLock()
	a := s.accounts[local]
	s.mu.RUnlock()
	if a == nil {
		return nil, &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "user unknown"}
	}
	return a, nil
}

// deliver appends a message to the recipient's INBOX, with Return-Path
// and Delivered-To in front, as a local delivery agent does.
func (s *MailServer) deliver(from, rcpt string, body []byte, hdr textproto.MIMEHeader) error {
	a, err := s.lookup(rcpt)
	if err != nil {
		return err
	}
	now := time.Now()
	var msg bytes.Buffer
	msg.Grow(len(body) + 200)
	fmt.Fprintf(&msg, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, rcpt)
	fmt.Fprintf(&msg, "Received: by %s (referee demo mail server); %s\r\n", s.smtp.Domain, now.Format(time.RFC1123Z))
	msg.Write(body)
	if _, err := a.user.Append("INBOX", bytes.NewReader(msg.Bytes()), &imap.AppendOptions{Time: now}); err != nil {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailbox unavailable: " + err.Error()}
	}
	s.delivered.Add(1)
	if s.opt.OnDeliver != nil {
		s.opt.OnDeliver(Delivery{Account: a.addr, Rcpt: rcpt, From: from, MessageID: hdr.Get("Message-Id"),
			InReplyTo: hdr.Get("In-Reply-To"), At: now, Size: msg.Len()})
	}
	return nil
}

// smtpSession is one SMTP transaction's state.
type smtpSession struct {
	s     *MailServer
	from  string
	rcpts []string
}

func (ss *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pw string) error {
		a, err := ss.s.lookup(user)
		if err != nil || a.addr != strings.ToLower(user) || a.password != pw {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.from, ss.rcpts = from, nil
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if _, err := ss.s.lookup(to); err != nil {
		return err
	}
	ss.rcpts = append(ss.rcpts, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	var hdr textproto.MIMEHeader
	if ss.s.opt.OnDeliver != nil {
		hdr, _ = textproto.NewReader(bufio.NewReader(bytes.NewReader(body))).ReadMIMEHeader()
	}
	for _, rcpt := range ss.rcpts {
		if err := ss.s.deliver(ss.from, rcpt, body, hdr); err != nil {
			return err
		}
	}
	return nil
}

func (ss *smtpSession) Reset() { ss.from, ss.rcpts = "", nil }

func (ss *smtpSession) Logout() error { return nil }

// idleRepoll bounds how long an IDLE session may miss an update.
const idleRepoll = 250 * time.Millisecond

// idleSession works around a lost wake-up in go-imap v2.0.0-beta.8's
// server: SessionTracker.Idle only polls when an update arrives after it
// registered, so mail appended between the client's last command and its
// IDLE was not announced until the next mail (a watcher would sleep until
// its re-sync). This Idle polls first and then every idleRepoll.
type idleSession struct {
	imapserver.SessionIMAP4rev2
}

func (s idleSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := s.SessionIMAP4rev2.Poll(w, true); err != nil {
			return err
		}
		inner := make(chan struct{})
		done := make(chan struct{})
		t := time.NewTimer(idleRepoll)
		go func() {
			defer close(inner)
			defer func() { _ = recover() }()
			select {
			case <-stop:
			case <-t.C:
			case <-done:
			}
		}()
		err := s.SessionIMAP4rev2.Idle(w, inner)
		t.Stop()
		close(done)
		if err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		default:
		}
	}
}
