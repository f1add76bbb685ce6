// Package mailstack is the test rig around referee/tools/realstack: a
// throwaway Dovecot (IMAP + LMTP) and Postfix (SMTP) on 127.0.0.1 for
// integration tests, stopped and removed when the test ends, with helpers
// that read the mailboxes over IMAP.
//
// Start skips the test with a clear message when Dovecot or Postfix is not
// installed or the test does not run as root (Postfix's master must start
// as root), unless REFEREE_MAILSTACK=require is set (CI sets it), in which
// case the test fails instead. When the servers are there but the stack
// does not come up, Start fails the test loudly, with the servers' logs.
// The stack itself (ports, domain example.test, users with password
// "<user>-pw", plus-addressing) is described in realstack.
//
// It owns the rig around the real stack: skips, cleanup, mailbox helpers. It
// must not be linked into the binary (a test rig).
package mailstack

import (
	"errors"
	"net"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/pbem-referee/referee/referee/tools/realstack"
)

// RequireEnv is the environment variable that turns a skip into a failure
// when set to "require".
const RequireEnv = "REFEREE_MAILSTACK"

// Domain is the mail domain of every stack.
const Domain = realstack.Domain

// Available reports why a stack cannot run here, or nil.
func Available() error { return realstack.Available() }

// Stack is a running Dovecot + Postfix, for one test.
type Stack struct {
	*realstack.Stack
}

// Start starts a stack with the given users (default referee, alice, bob,
// carol, dave) and stops it when the test ends.
func Start(t testing.TB, users ...string) *Stack {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv(RequireEnv) == "require" {
			t.Fatalf("mailstack required (%s=require) but unavailable: %v", RequireEnv, err)
		}
		t.Skipf("mailstack: %v", err)
	}
	s, err := realstack.Start(t.Logf, users...)
	if err != nil {
		t.Fatalf("mailstack: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("mailstack logs:\n%s", s.Logs())
		}
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	return &Stack{s}
}

// Send hands a message to Postfix at MXAddr (no authentication: the
// recipients are local), failing the test on error.
func (s *Stack) Send(t testing.TB, from string, to []string, raw []byte) {
	t.Helper()
	if err := s.SendErr(from, to, raw); err != nil {
		t.Fatalf("mailstack: send: %v", err)
	}
}

// Message is a message in a mailbox.
type Message struct {
	UID   imap.UID
	Flags []imap.Flag
	Raw   []byte
}

// Messages returns the messages of a user's mailbox ("INBOX", "Processed",
// ...), in UID order; nil if the mailbox does not exist.
func (s *Stack) Messages(t testing.TB, user, mailbox string) []Message {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return nil // no such mailbox
		}
		t.Fatalf("mailstack: select %s/%s: %v", user, mailbox, err)
	}
	var out []Message
	if sel.NumMessages > 0 {
		section := &imap.FetchItemBodySection{Peek: true}
		var seq imap.SeqSet
		seq.AddRange(1, sel.NumMessages)
		msgs, err := c.Fetch(seq, &imap.FetchOptions{UID: true, Flags: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			t.Fatalf("mailstack: fetch %s/%s: %v", user, mailbox, err)
		}
		for _, m := range msgs {
			out = append(out, Message{UID: m.UID, Flags: m.Flags, Raw: m.FindBodySection(section)})
		}
	}
	_ = c.Logout().Wait()
	slices.SortFunc(out, func(a, b Message) int { return int(a.UID) - int(b.UID) })
	return out
}

// BinaryPart returns a part of the message uid in a user's mailbox as
// Dovecot decodes it (IMAP BINARY, RFC 3516: the content transfer
// encoding undone by the server); part numbers the MIME part ([2]: the
// second part of a multipart mail).
func (s *Stack) BinaryPart(t testing.TB, user, mailbox string, uid imap.UID, part []int) []byte {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	if _, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatalf("mailstack: select %s/%s: %v", user, mailbox, err)
	}
	section := &imap.FetchItemBinarySection{Part: part, Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{BinarySection: []*imap.FetchItemBinarySection{section}}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("mailstack: fetch binary %v of %s/%s %d: %v (%d messages)", part, user, mailbox, uid, err, len(msgs))
	}
	_ = c.Logout().Wait()
	return msgs[0].FindBinarySection(section)
}

// MessagesAfter returns the messages of a user's mailbox with a UID above
// after, in UID order (nil if the mailbox does not exist): what arrived
// since the last look, without fetching the rest again.
func (s *Stack) MessagesAfter(t testing.TB, user, mailbox string, after imap.UID) []Message {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return nil
		}
		t.Fatalf("mailstack: select %s/%s: %v", user, mailbox, err)
	}
	var out []Message
	if sel.NumMessages > 0 && (sel.UIDNext == 0 || sel.UIDNext > after+1) {
		section := &imap.FetchItemBodySection{Peek: true}
		var set imap.UIDSet
		set.AddRange(after+1, 0)
		msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, Flags: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			t.Fatalf("mailstack: fetch %s/%s: %v", user, mailbox, err)
		}
		for _, m := range msgs {
			if m.UID > after { // "n:*" also returns the last UID when it is below n
				out = append(out, Message{UID: m.UID, Flags: m.Flags, Raw: m.FindBodySection(section)})
			}
		}
	}
	_ = c.Logout().Wait()
	slices.SortFunc(out, func(a, b Message) int { return int(a.UID) - int(b.UID) })
	return out
}

// Count returns the number of messages in a user's mailbox (0 if it does
// not exist).
func (s *Stack) Count(t testing.TB, user, mailbox string) int {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	n, err := count(c, mailbox)
	if err != nil {
		t.Fatalf("mailstack: status %s/%s: %v", user, mailbox, err)
	}
	_ = c.Logout().Wait()
	return n
}

func count(c *imapclient.Client, mailbox string) (int, error) {
	st, err := c.Status(mailbox, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return 0, nil
		}
		return 0, err
	}
	return int(*st.NumMessages), nil
}

// WaitCount waits until a user's mailbox holds at least n messages,
// checking every 10 ms over one connection, and returns the count.
func (s *Stack) WaitCount(t testing.TB, user, mailbox string, n int, timeout time.Duration) int {
	t.Helper()
	c := s.dial(t, user)
	defer func() { _ = c.Close() }()
	deadline := time.Now().Add(timeout)
	for {
		got, err := count(c, mailbox)
		if err != nil {
			t.Fatalf("mailstack: status %s/%s: %v", user, mailbox, err)
		}
		if got >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailstack: %s/%s holds %d messages after %v, want %d\n%s", user, mailbox, got, timeout, n, s.Logs())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Stack) dial(t testing.TB, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr, nil)
	if err != nil {
		t.Fatalf("mailstack: dial IMAP: %v", err)
	}
	if err := c.Login(s.Address(user), s.Password(user)).Wait(); err != nil {
		_ = c.Close()
		t.Fatalf("mailstack: login %s: %v", user, err)
	}
	return c
}

// StopDovecot stops Dovecot (Postfix keeps running and defers mail for the
// stack's users) and returns once it is down.
func (s *Stack) StopDovecot(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGUSR1, "down")
	// The port is closed once the master is gone.
	if c, err := net.DialTimeout("tcp", s.IMAPAddr, time.Second); err == nil {
		_ = c.Close()
		t.Fatalf("mailstack: IMAP still accepts connections after stopping Dovecot")
	}
}

// StartDovecot starts Dovecot again after StopDovecot and returns once it
// accepts connections.
func (s *Stack) StartDovecot(t testing.TB) {
	t.Helper()
	s.signal(t, syscall.SIGUSR2, "up")
}

func (s *Stack) signal(t testing.TB, sig syscall.Signal, want string) {
	t.Helper()
	if err := s.Signal(sig, want); err != nil {
		t.Fatal(err)
	}
}

// Doveadm runs doveadm against the stack's Dovecot and returns its output.
func (s *Stack) Doveadm(t testing.TB, args ...string) string {
	t.Helper()
	out, err := s.Stack.Doveadm(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
