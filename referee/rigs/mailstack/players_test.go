package mailstack_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	gomail "github.com/emersion/go-message/mail"

	"github.com/pbem-referee/referee/engine"
	_ "github.com/pbem-referee/referee/engine/dicebrewing"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/rigs/mailstack"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
)

// syncBuffer is a log sink safe for the daemon's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// inbox is a person's view of their inbox; w writes their replies in a
// mail client's layout drawn per mail (testkit.Writer).
type inbox struct {
	t    *testing.T
	s    *mailstack.Stack
	user string
	seen int
	w    *testkit.Writer
	raws map[string][]byte // Message-ID -> the mail as it arrived
}

// next waits for the next mail in the user's INBOX and parses it.
func (in *inbox) next() (*mailmsg.Message, []byte) {
	in.t.Helper()
	in.s.WaitCount(in.t, in.user, "INBOX", in.seen+1, 20*time.Second)
	ms := in.s.Messages(in.t, in.user, "INBOX")
	raw := ms[in.seen].Raw
	in.seen++
	m, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		in.t.Fatalf("%s: unparseable mail: %v", in.user, err)
	}
	if in.raws == nil {
		in.raws = map[string][]byte{}
	}
	in.raws[m.MessageID] = raw
	return m, raw
}

// none checks that no new mail arrived for the user.
func (in *inbox) none() {
	in.t.Helper()
	if n := in.s.Count(in.t, in.user, "INBOX"); n != in.seen {
		var subjects []string
		for _, m := range in.s.Messages(in.t, in.user, "INBOX") {
			pm, _ := mailmsg.Parse(m.Raw, mailmsg.Options{})
			subjects = append(subjects, pm.Subject+" / "+pm.MessageID)
		}
		in.t.Fatalf("%s: unexpected mail (read %d): %q", in.user, in.seen, subjects)
	}
}

// reply sends a reply to m as a person does, in a mail client's layout
// drawn for this mail (testkit.Writer: to its Reply-To, with In-Reply-To
// and References, a greeting and sign-off now and then, a signature, the
// referee's mail quoted), under Message-ID <user.n@the client's domain>.
func (in *inbox) reply(m *mailmsg.Message, n int, text string) {
	in.t.Helper()
	if in.w == nil {
		in.w = &testkit.Writer{User: in.user, Name: in.user, Lang: "en", Seed: "players"}
	}
	from := in.s.Address(in.user)
	to, raw, client := in.w.Reply(in.t, in.raws[m.MessageID], from, fmt.Sprintf("%s.%d", in.user, n), text)
	in.t.Logf("%s answers %q from %s", in.user, text, client)
	in.s.Send(in.t, from, []string{to}, raw)
}

func (in *inbox) send(to, subject, inReplyTo string, n int, text string) {
	in.t.Helper()
	from := in.s.Address(in.user)
	var refs string
	if inReplyTo != "" {
		refs = "In-Reply-To: " + inReplyTo + "\r\nReferences: " + inReplyTo + "\r\n"
	}
	raw := fmt.Sprintf("From: %s <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s.%d@players.example.test>\r\n%s"+
		"Date: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		in.user, from, to, subject, in.user, n, refs, time.Now().Format(time.RFC1123Z), strings.ReplaceAll(text, "\n", "\r\n"))
	in.s.Send(in.t, from, []string{to}, []byte(raw))
}

func jsonAttachment(t *testing.T, raw []byte) map[string]json.RawMessage {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && r == nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			return nil
		}
		if h, ok := p.Header.(*gomail.AttachmentHeader); ok {
			if ct, _, _ := h.ContentType(); ct == "application/json" {
				b, _ := io.ReadAll(p.Body)
				var v map[string]json.RawMessage
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
	}
}

// checkJSONThroughDovecot (issue 25): the JSON part of a FORMAT json
// player's mail crossed Postfix and Dovecot as the referee wrote it,
// 7bit lines of at most mailmsg.MaxLineOctets (no relay re-encoded it),
// and Dovecot's own decoding of the part (IMAP BINARY) is the same JSON
// value go-message reads (v): a view with its seat (and the prompt and
// legal answers when the seat is asked).
func checkJSONThroughDovecot(t *testing.T, s *mailstack.Stack, user string, raw []byte, v map[string]json.RawMessage, asked bool) {
	t.Helper()
	keys := []string{"game", "seat", "view", "token"}
	if asked {
		keys = append(keys, "prompt", "legal")
	}
	for _, k := range keys {
		if v[k] == nil {
			t.Errorf("the JSON part has no %q: %v", k, v)
		}
	}
	head := raw[bytes.Index(raw, []byte("Content-Type: application/json")):]
	body := head[bytes.Index(head, []byte("\r\n\r\n"))+4:]
	body = body[:bytes.Index(body, []byte("\r\n--"))]
	if !bytes.Contains(raw, []byte("Content-Transfer-Encoding: 7bit\r\nContent-Type: application/json")) {
		t.Errorf("the JSON part is not 7bit as it arrived:\n%s", raw)
	}
	lines := bytes.Split(body, []byte("\r\n"))
	for _, l := range lines {
		if len(l) > mailmsg.MaxLineOctets || bytes.IndexFunc(l, func(r rune) bool { return r >= 0x80 }) >= 0 {
			t.Errorf("a line of the JSON part: %q", l)
		}
	}
	ms := s.Messages(t, user, "INBOX")
	var uid imap.UID
	for _, m := range ms {
		if bytes.Equal(m.Raw, raw) {
			uid = m.UID
		}
	}
	if uid == 0 {
		t.Fatal("the mail is not in the inbox")
	}
	decoded := s.BinaryPart(t, user, "INBOX", uid, []int{2})
	var fromDovecot, fromGo any
	if err := json.Unmarshal(decoded, &fromDovecot); err != nil {
		t.Fatalf("Dovecot's BINARY[2] is not JSON (%v): %q", err, decoded)
	}
	b, _ := json.Marshal(v)
	_ = json.Unmarshal(b, &fromGo)
	if !reflect.DeepEqual(fromDovecot, fromGo) {
		t.Errorf("Dovecot decodes another JSON value:\n%s\n---- go-message:\n%s", decoded, b)
	}
	t.Logf("the JSON part: %d lines, %d bytes as sent; Dovecot's decoding %d bytes", len(lines), len(body), len(decoded))
}

// Issue 12 (1, 2, 3, 9) and issue 11.7 through the real stack: an organiser
// gets in by mail and creates a Dice Brewing game; the subjects say what
// each mail is and never carry a secret (the Reply-To does); every mail of
// a game to a player hangs under one root; a reply authenticates by the
// plus address (and its In-Reply-To gives the state it answers), a reply
// with an old-format subject to the plain address still works; the player
// who must act gets one mail that opens with the prompt, the other nothing.
// The players reply as people do, in a mail client's layout drawn per
// mail (testkit.Writer; Bob's greeting and sign-off in Italian).
func TestPlayersAndOrganiserByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s := mailstack.Start(t, "referee", "olga", "ann", "bob")
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "referee.toml")
	cfgText := fmt.Sprintf(`domain = %q
data_dir = %q
organisers = [%q]
[referee]
# Every answer at once: the test counts the mails of each step (receipts
# folding, issue 22, has its own tests).
receipt_window = "0s"
[imap]
addr = %q
tls = "none"
username = %q
password = "referee-pw"
idle = "off"
poll_interval = "100ms"
[smtp]
addr = %q
tls = "none"
auth = "none"
`, mailstack.Domain, filepath.Join(dir, "data"), s.Address("olga"), s.IMAPAddr, s.Address("referee"), s.MXAddr)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	d, err := daemon.New(cfg, daemon.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	// The organiser: the daemon logged the address; HELP to the plain
	// address brings it by mail with the organiser help.
	if !strings.Contains(logs.String(), "organiser address") || !strings.Contains(logs.String(), "referee+org.") {
		t.Errorf("the daemon did not log the organiser address:\n%s", logs.String())
	}
	olga := &inbox{t: t, s: s, user: "olga"}
	olga.send(s.Address("referee"), "hello", "", 1, "HELP")
	hello, _ := olga.next()
	orgAddr := ""
	for _, f := range strings.Fields(hello.Text) {
		if strings.HasPrefix(f, "referee+org.") {
			orgAddr = f
		}
	}
	if orgAddr == "" || !strings.Contains(hello.Text, "NEW dicebrewing id=g42 players=3 deadline=48h") {
		t.Fatalf("no organiser address in the answer:\n%s", hello.Text)
	}
	if strings.Contains(hello.Subject, "org.") {
		t.Errorf("a secret in the subject: %q", hello.Subject)
	}
	olga.send(orgAddr, "new game", "", 2, "NEW dicebrewing id=g42 seed=e2e deadline=48h\n"+
		"PLAYER "+s.Address("ann")+" Ann en\nPLAYER "+s.Address("bob")+" Bob it\nLIST")
	res, _ := olga.next()
	if !strings.Contains(res.Text, "NEW: created game g42") || !strings.Contains(res.Text, "  g42 ") {
		t.Fatalf("organiser's answer:\n%s", res.Text)
	}

	// The invitations: "[Dice Brewing g42] ..." and no secret but in the Reply-To.
	ann := &inbox{t: t, s: s, user: "ann"}
	bob := &inbox{t: t, s: s, user: "bob", w: &testkit.Writer{User: "bob", Name: "Bob", Lang: "it", Seed: "players"}}
	invA, _ := ann.next()
	invB, _ := bob.next()
	for _, inv := range []*mailmsg.Message{invA, invB} {
		tag, ok := mailmsg.TagFromAddress(inv.ReplyTo[0].Addr, s.Address("referee"))
		if !ok || tag.Secret == "" || !strings.HasPrefix(inv.Subject, "[Dice Brewing g42] ") || strings.Contains(inv.Subject, tag.Secret) {
			t.Fatalf("invitation subject %q reply-to %s", inv.Subject, inv.ReplyTo[0].Addr)
		}
	}
	ann.reply(invA, 1, "JOIN\nFORMAT json")
	joined, _ := ann.next()
	if !strings.Contains(joined.Text, "JOIN") || !strings.HasPrefix(joined.InReplyTo[0], "<ann.1@") {
		t.Fatalf("JOIN answer (in reply to %v):\n%s", joined.InReplyTo, joined.Text)
	}
	bob.none() // ann's JOIN needs no mail of its own (default NOTIFY)
	// Bob answers too. (A seat's secret in an old-format subject tag alone,
	// written to the plain address, no longer authenticates: issue 23,
	// TestIntakeSubjectSecretIsNoAuthentication in edge/mailin.)
	bob.reply(invB, 1, "JOIN")

	// The start: one of them must act. Collect both mails of the start.
	startA, rawA := ann.next()
	startB, rawB := bob.next()
	roots := map[string]string{"ann": invA.MessageID, "bob": invB.MessageID}
	for who, m := range map[string]*mailmsg.Message{"ann": startA, "bob": startB} {
		if len(m.References) == 0 || m.References[0] != roots[who] {
			t.Errorf("%s: References %v do not start at the thread's root %s", who, m.References, roots[who])
		}
		if len(m.References) > 2 {
			t.Errorf("%s: a deep thread: References %v", who, m.References)
		}
	}
	var actor *inbox
	var mail *mailmsg.Message
	var raw []byte
	switch {
	case strings.Contains(startA.Subject, "Your move"):
		actor, mail, raw = ann, startA, rawA
	case strings.Contains(startB.Subject, "Tocca a te"):
		actor, mail, raw = bob, startB, rawB
	default:
		t.Fatalf("nobody is asked to move: %q / %q", startA.Subject, startB.Subject)
	}
	other := map[*inbox]*inbox{ann: bob, bob: ann}[actor]
	checkJSONThroughDovecot(t, s, "ann", rawA, jsonAttachment(t, rawA), actor == ann)
	if !strings.Contains(mail.Subject, ": round 1, ") || !strings.Contains(mail.Subject, "(") {
		t.Errorf("the subject does not say what to do: %q", mail.Subject)
	}
	first := strings.Join(strings.SplitN(mail.Text, "\n", 25)[:24], "\n")
	if !strings.Contains(first, "WHAT YOU NEED TO DO NOW") && !strings.Contains(first, "COSA DEVI FARE ADESSO") {
		t.Errorf("the first screen of the action mail lacks the prompt:\n%s", first)
	}
	for _, l := range strings.Split(mail.Text, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %s", n, l)
		}
	}

	// The actor answers with a legal move; the other player hears nothing
	// until asked (default NOTIFY).
	cmd := ""
	if actor == ann {
		v := jsonAttachment(t, raw)
		var legal []engine.Option
		if err := json.Unmarshal(v["legal"], &legal); err != nil || len(legal) == 0 {
			t.Fatalf("no legal moves in the JSON view: %v", err)
		}
		cmd = legal[0].Cmd
	} else {
		cmd = "DONE" // the token window opens the game in Dice Brewing (DB-5.1)
	}
	other.none()
	actor.reply(mail, 2, cmd)
	ans, _ := actor.next()
	if len(ans.InReplyTo) != 1 || !strings.HasPrefix(ans.InReplyTo[0], "<"+actor.user+".2@") {
		t.Errorf("the answer does not answer the move: In-Reply-To %v", ans.InReplyTo)
	}
	if strings.Contains(ans.Text, "REFUSED") || strings.Contains(ans.Text, "RESPINTO") {
		t.Fatalf("%q refused:\n%s", cmd, ans.Text)
	}
	t.Logf("the move %q answered with %q", cmd, ans.Subject)
}
