package webhook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/mailin"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
	"github.com/pbem-referee/referee/referee/wiring/config"
	"github.com/pbem-referee/referee/referee/wiring/daemon"
	"github.com/pbem-referee/referee/store"
)

// alwaysFails stands for a message whose handling always fails with an
// error taken as transient; set-aside notices go to the daemon's intake
// (the referee's record, the sender's note, the operator's mail).
type alwaysFails struct{ in *mailin.Intake }

func (alwaysFails) HandleMail(context.Context, mailin.Inbound) (referee.Outcome, error) {
	return referee.Outcome{}, errors.New("cannot compose: temporary")
}

func (a *alwaysFails) NotifyQuarantined(ctx context.Context, n referee.QuarantineNotice) (referee.Outcome, error) {
	return a.in.NotifyQuarantined(ctx, n)
}

// Issue 23, the webhook's failure count is durable, through the real
// daemon and its store: a posted message that fails twice, then three
// times more after the daemon restarts on the same data directory, is set
// aside on its fifth failure (webhook.max_attempts) and answered "do not
// retry"; before, the count was in memory and began again at each
// restart. The operator (operator.address) gets one mail about it, queued
// in the daemon's outbox.
func TestDaemonFailureCountSurvivesRestart(t *testing.T) {
	cfg := config.Default()
	cfg.Domain, cfg.DataDir = "example.test", t.TempDir()
	cfg.SMTP.Addr, cfg.SMTP.TLS = "127.0.0.1:1", "none"
	cfg.Webhook.Secret = config.Secret(rawKey)
	cfg.Operator.Address = "ops@example.org"
	raw := []byte("From: Pat <pat@example.org>\r\nTo: referee@example.test\r\nSubject: x\r\n" +
		"Message-ID: <fails@example.org>\r\nDate: Sun, 06 Dec 2026 01:00:00 +0000\r\n\r\nHELP\r\n")
	var codes []int
	for run, posts := range []int{2, 3} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		h := &alwaysFails{}
		d, err := daemon.New(&cfg, daemon.Options{Listener: ln, NoSync: true, Handler: h,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		h.in = d.Intake
		stop := testkit.Run(t, d.Run)
		base := "http://" + ln.Addr().String()
		waitFor(t, "healthz", func() bool {
			resp, err := http.Get(base + "/healthz")
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode == 200
		})
		for i := 0; i < posts; i++ {
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			req, _ := http.NewRequest("POST", base+"/inbound", bytes.NewReader(raw))
			req.Header.Set(hookout.HeaderTimestamp, ts)
			req.Header.Set(hookout.HeaderSignature, hookout.Sign(rawKey, ts, raw))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
			resp.Body.Close()
			codes = append(codes, resp.StatusCode)
		}
		if run == 1 {
			ops := 0
			d.DB.View(func(tx *store.Tx) error {
				return tx.Items(referee.OutboxQueue, func(it store.Item) error {
					if it.To == "ops@example.org" && bytes.Contains(it.Payload, []byte("fails@example.org")) {
						ops++
					}
					return nil
				})
			})
			if ops != 1 {
				t.Errorf("%d mails to the operator, want 1", ops)
			}
		}
		stop() // the daemon stops; its store is closed
	}
	if got := fmt.Sprint(codes); got != "[503 503 503 503 422]" {
		t.Errorf("answers over a restart: %s, want [503 503 503 503 422]", got)
	}
}
