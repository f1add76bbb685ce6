package smtpout

import (
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"regexp"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"github.com/pbem-referee/referee/referee/edge/netaddr"
)

// deliverFunc sends msg from the envelope sender from to the one recipient
// to. It returns the server's final reply on success, and otherwise an error
// that classify understands.
type deliverFunc func(ctx context.Context, from, to string, msg []byte) (reply string, err error)

// Stages of an SMTP delivery, for error reports.
const (
	stageConnect = "connect" // dial, greeting, EHLO, STARTTLS, AUTH
	stageMail    = "mail"
	stageRcpt    = "rcpt"
	stageData    = "data" // DATA command, message transfer, final reply
)

// DeliveryError describes a failed delivery attempt.
type DeliveryError struct {
	// Stage is where the attempt failed: "connect", "mail", "rcpt" or
	// "data".
	Stage string
	// Code is the SMTP reply code (0 for network and local errors).
	Code int
	// Enhanced is the enhanced status code ("5.1.1"), if the server sent
	// one.
	Enhanced string
	// Reply is the server's reply as sent ("550 5.1.1 <bob@...>: Recipient
	// address rejected: User unknown"), empty without one.
	Reply string
	// Permanent reports a failure that retrying cannot fix.
	Permanent bool
	// Err is the underlying error.
	Err error
}

func (e *DeliveryError) Error() string {
	kind := "transient"
	if e.Permanent {
		kind = "permanent"
	}
	if e.Reply != "" {
		return fmt.Sprintf("%s failure at %s: %s", kind, e.Stage, e.Reply)
	}
	return fmt.Sprintf("%s failure at %s: %v", kind, e.Stage, e.Err)
}

func (e *DeliveryError) Unwrap() error { return e.Err }

// Transient reports whether a later attempt may succeed (referee.Transienter).
func (e *DeliveryError) Transient() bool { return !e.Permanent }

var enhancedRE = regexp.MustCompile(`^([245])\.\d{1,3}\.\d{1,3}\b`)

// classify turns an error of stage into a *DeliveryError. SMTP replies 5xx
// to MAIL, RCPT and DATA are permanent; everything else is transient.
func classify(stage string, err error) *DeliveryError {
	var de *DeliveryError
	if errors.As(err, &de) {
		return de
	}
	d := &DeliveryError{Stage: stage, Err: err}
	var te *textproto.Error
	if errors.As(err, &te) {
		d.Code = te.Code
		d.Reply = fmt.Sprintf("%03d %s", te.Code, strings.ReplaceAll(te.Msg, "\n", " "))
		if m := enhancedRE.FindString(te.Msg); m != "" {
			d.Enhanced = m
		}
		d.Permanent = te.Code >= 500 && te.Code < 600 && stage != stageConnect
	}
	return d
}

// permanentf returns a permanent local failure (no SMTP reply involved).
func permanentf(stage, format string, args ...any) *DeliveryError {
	return &DeliveryError{Stage: stage, Permanent: true, Err: fmt.Errorf(format, args...)}
}

// checkAddr validates an envelope address: a bare addr-spec (or "" for the
// null sender when nullOK), with no angle brackets, spaces or control
// characters.
func checkAddr(a string, nullOK bool) error {
	if a == "" {
		if nullOK {
			return nil
		}
		return errors.New("empty address")
	}
	if strings.ContainsAny(a, "<> \t\r\n") || strings.Count(a, "@") < 1 {
		return fmt.Errorf("invalid address %q", a)
	}
	for _, r := range a {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("invalid address %q", a)
		}
	}
	at := strings.LastIndexByte(a, '@')
	if at == 0 || at == len(a)-1 {
		return fmt.Errorf("invalid address %q", a)
	}
	return nil
}

// smtpDeliver returns the real transport: go-mail dials (TLS policy,
// implicit TLS, AUTH) and the stored bytes are sent unchanged with its
// low-level client (MAIL, RCPT, DATA).
func (o *Options) smtpDeliver() (deliverFunc, error) {
	host, port, err := netaddr.SplitServer(o.Addr)
	if err != nil {
		return nil, err
	}
	opts := []mail.Option{
		mail.WithPort(port),
		mail.WithTimeout(o.DialTimeout),
		mail.WithHELO(o.HELO),
	}
	if o.TLSConfig != nil {
		tc := o.TLSConfig.Clone()
		if tc.ServerName == "" {
			tc.ServerName = host
		}
		opts = append(opts, mail.WithTLSConfig(tc))
	}
	if o.ImplicitTLS {
		opts = append(opts, mail.WithSSL(), mail.WithTLSPolicy(mail.NoTLS))
	} else {
		switch o.TLSPolicy {
		case TLSMandatory:
			opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
		case TLSOpportunistic:
			opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
		default:
			opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
		}
	}
	// go-mail's PLAIN and LOGIN refuse a connection without TLS unless the
	// host is literally localhost; the "NoEnc" variants skip that check,
	// which Options.validate already made for loopback or AllowInsecure.
	clearOK := netaddr.IsLoopback(host) || o.AllowInsecure
	switch o.Auth {
	case AuthPlain:
		if clearOK {
			opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlainNoEnc))
		} else {
			opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain))
		}
		opts = append(opts, mail.WithUsername(o.Username), mail.WithPassword(o.Password))
	case AuthLogin:
		if clearOK {
			opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthLoginNoEnc))
		} else {
			opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthLogin))
		}
		opts = append(opts, mail.WithUsername(o.Username), mail.WithPassword(o.Password))
	default:
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthNoAuth))
	}
	// Validate once now, so a bad option is a startup error.
	if _, err := mail.NewClient(host, opts...); err != nil {
		return nil, fmt.Errorf("smtpout: %w", err)
	}
	cmdTimeout, dataTimeout := o.CommandTimeout, o.DataTimeout

	return func(ctx context.Context, from, to string, msg []byte) (string, error) {
		mc, err := mail.NewClient(host, opts...)
		if err != nil {
			return "", classify(stageConnect, err)
		}
		sc, err := mc.DialToSMTPClientWithContext(ctx)
		if err != nil {
			return "", classify(stageConnect, err)
		}
		// Close the connection at once if the context ends mid-delivery
		// (forced shutdown); it is closed normally below otherwise.
		stop := context.AfterFunc(ctx, func() { _ = sc.Close() })
		reply, err := sendRaw(sc, from, to, msg, cmdTimeout, dataTimeout)
		stop()
		if err != nil {
			_ = sc.Close()
			return "", err
		}
		// The server has the message: return now, so that the caller
		// commits "sent" without waiting for QUIT, which a slow server
		// can stretch to minutes (the window in which a crash sends the
		// mail twice; issue 11, item 9). QUIT follows on its own.
		go func() {
			_ = sc.Quit()
			_ = sc.Close()
		}()
		return reply, nil
	}, nil
}

// sendRaw runs one mail transaction on an open client.
func sendRaw(sc *smtp.Client, from, to string, msg []byte, cmdTimeout, dataTimeout time.Duration) (string, error) {
	if err := sc.UpdateDeadline(cmdTimeout); err != nil {
		return "", classify(stageMail, err)
	}
	if err := sc.Mail("<" + from + ">"); err != nil {
		return "", classify(stageMail, err)
	}
	if err := sc.Rcpt("<" + to + ">"); err != nil {
		return "", classify(stageRcpt, err)
	}
	w, err := sc.Data()
	if err != nil {
		return "", classify(stageData, err)
	}
	if err := sc.UpdateDeadline(dataTimeout); err != nil {
		return "", classify(stageData, err)
	}
	if _, err := w.Write(msg); err != nil {
		return "", classify(stageData, err)
	}
	// The dot writer stuffs leading dots, turns bare LF into CRLF and ends
	// an unterminated last line before the final dot; nothing else changes.
	if err := w.Close(); err != nil {
		return "", classify(stageData, err)
	}
	reply := ""
	if dc, ok := w.(*smtp.DataCloser); ok {
		reply = dc.ServerResponse()
	}
	// The server has accepted the message: from here on nothing may turn
	// this into a failure (go-mail's "error after delivery" trap). The
	// caller sends QUIT.
	_ = sc.UpdateDeadline(cmdTimeout)
	return reply, nil
}
