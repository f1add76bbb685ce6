package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Account is a mailbox and the servers to reach it, as a person would
// configure a mail client: IMAP to read, SMTP to send, both on loopback
// without TLS.
type Account struct {
	// Name is the display name; Addr the address, also the login.
	Name, Addr, Password string
	IMAPAddr, SMTPAddr   string
	// SMTPAuth logs in before sending (a submission server such as the
	// real Postfix of referee/tools/realstack requires it).
	SMTPAuth bool
}

// StoredMessage is one message read from a mailbox.
type StoredMessage struct {
	UID  imap.UID
	Date time.Time // INTERNALDATE (delivery time, to the second)
	Raw  []byte
}

// dialIMAP connects and logs in.
func dialIMAP(ctx context.Context, acc Account, opts *imapclient.Options) (*imapclient.Client, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "tcp", acc.IMAPAddr)
	if err != nil {
		return nil, fmt.Errorf("imap dial %s: %w", acc.IMAPAddr, err)
	}
	c := imapclient.New(conn, opts)
	if err := c.WaitGreeting(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("imap greeting: %w", err)
	}
	if err := c.Login(acc.Addr, acc.Password).Wait(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("imap login %s: %w", acc.Addr, err)
	}
	return c, nil
}

// FetchAll returns every message of a mailbox in UID order (nil when the
// mailbox does not exist).
func FetchAll(ctx context.Context, acc Account, mailbox string) ([]StoredMessage, error) {
	c, err := dialIMAP(ctx, acc, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = c.Close() }()
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			return nil, nil
		}
		return nil, fmt.Errorf("select %s: %w", mailbox, err)
	}
	var out []StoredMessage
	if sel.NumMessages > 0 {
		var set imap.SeqSet
		set.AddRange(1, sel.NumMessages)
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, InternalDate: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", mailbox, err)
		}
		for _, m := range msgs {
			out = append(out, StoredMessage{UID: m.UID, Date: m.InternalDate, Raw: m.FindBodySection(section)})
		}
	}
	if err := c.Logout().Wait(); err != nil {
		return out, nil //nolint:nilerr // the messages are in hand
	}
	slices.SortFunc(out, func(a, b StoredMessage) int { return int(a.UID) - int(b.UID) })
	return out, nil
}

// Send hands a message to the account's SMTP server (with AUTH PLAIN when
// SMTPAuth is set).
func Send(ctx context.Context, acc Account, to []string, raw []byte) error {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "tcp", acc.SMTPAddr)
	if err != nil {
		return fmt.Errorf("smtp dial %s: %w", acc.SMTPAddr, err)
	}
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	c := smtp.NewClient(conn)
	defer func() { _ = c.Close() }()
	if err := c.Hello("client.localhost"); err != nil {
		return fmt.Errorf("smtp hello: %w", err)
	}
	if acc.SMTPAuth {
		if err := c.Auth(sasl.NewPlainClient("", acc.Addr, acc.Password)); err != nil {
			return fmt.Errorf("smtp auth %s: %w", acc.Addr, err)
		}
	}
	if err := c.SendMail(acc.Addr, to, bytes.NewReader(raw)); err != nil {
		return fmt.Errorf("smtp send: %w", err)
	}
	return c.Quit()
}
