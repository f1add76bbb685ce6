// Package metrics collects the referee daemon's Prometheus metrics on a
// private registry (never the global default one) and serves them in the
// Prometheus text format.
//
// The daemon feeds it from the referee's Observe callback (every processed
// input), the outbox sender's and the hook sender's OnResult callbacks
// (every delivery attempt), the IMAP watcher's counters and the store
// (queue depths and games by status, sampled at scrape time at most every
// SampleInterval). Instrument wraps HTTP handlers.
//
// Series (all prefixed "referee_"):
//
//	messages_in_total{source,status}          inbound messages by transport and outcome
//	ticks_total{status}                       deadline and timer runs per game
//	moves_applied_total                        engine moves applied
//	mails_queued_total, hook_calls_queued_total outgoing mails and hook calls queued
//	processing_seconds{source}                 histogram: one input, transaction included
//	messages_out_total{outcome}                SMTP attempts: sent, failed, retried
//	smtp_attempt_seconds{outcome}              histogram: one SMTP delivery attempt
//	mail_delivery_latency_seconds              histogram: queued to accepted by the server
//	hook_calls_total{outcome}                  hook attempts: sent, failed, retried
//	hook_attempt_seconds{outcome}              histogram: one hook call
//	delivery_failures_total{channel,reason}    mail/hook retired as failed: permanent, gave_up
//	queue_depth{queue}                         pending items in the outbox and hooks queues
//	games{status}                              games by status
//	imap_messages_total{result}                IMAP watcher: handled, duplicate, quarantined, transient
//	imap_reconnects_total, imap_connected, imap_last_sync_timestamp_seconds
//	http_requests_total{route,code}, http_request_seconds{route}
//	store_sample_errors_total                  failed samples of the store
//
// plus the Go runtime and process collectors.
//
// It owns the metrics' names, labels and registry. It must not read the
// store: every figure comes from the core's queries or the edges' counters.
package metrics

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/edge/hookout"
	"github.com/pbem-referee/referee/referee/edge/imapin"
	"github.com/pbem-referee/referee/referee/edge/smtpout"
)

const ns = "referee"

// SampleInterval is the least time between two samples of the store.
const SampleInterval = 15 * time.Second

// Metrics holds the collectors. Its methods are safe for concurrent use and
// never block on I/O, except the scrape itself.
type Metrics struct {
	reg *prometheus.Registry
	log *slog.Logger

	messagesIn, ticks               *prometheus.CounterVec
	moves, mailsQueued, hooksQueued prometheus.Counter
	processing                      *prometheus.HistogramVec
	messagesOut, hookCalls          *prometheus.CounterVec
	smtpAttempt, hookAttempt        *prometheus.HistogramVec
	mailLatency                     prometheus.Histogram
	failures                        *prometheus.CounterVec
	httpRequests                    *prometheus.CounterVec
	httpSeconds                     *prometheus.HistogramVec
	sampleErrors                    prometheus.Counter
}

// New returns Metrics on a new private registry, with the Go runtime and
// process collectors. logger may be nil.
func New(logger *slog.Logger) *Metrics {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	m := &Metrics{reg: prometheus.NewRegistry(), log: logger}
	counterVec := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: name, Help: help}, labels)
	}
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: name, Help: help})
	}
	histVec := func(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: name, Help: help, Buckets: buckets}, labels)
	}
	m.messagesIn = counterVec("messages_in_total", "Inbound messages processed, by transport (imap, webhook:*) and outcome.", "source", "status")
	m.ticks = counterVec("ticks_total", "Deadline and timer runs, one per game changed.", "status")
	m.moves = counter("moves_applied_total", "Engine moves applied.")
	m.mailsQueued = counter("mails_queued_total", "Outgoing mails queued in the outbox.")
	m.hooksQueued = counter("hook_calls_queued_total", "Outgoing webhook calls queued.")
	m.processing = histVec("processing_seconds", "Time to process one input, store transaction included.",
		prometheus.ExponentialBuckets(0.0005, 2.5, 12), "source")
	m.messagesOut = counterVec("messages_out_total", "Outgoing mail delivery attempts by outcome (sent, failed, retried).", "outcome")
	m.smtpAttempt = histVec("smtp_attempt_seconds", "Duration of one SMTP delivery attempt.",
		prometheus.ExponentialBuckets(0.01, 3, 10), "outcome")
	m.mailLatency = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "mail_delivery_latency_seconds",
		Help:    "Time from queueing a mail to its acceptance by the SMTP server.",
		Buckets: []float64{0.1, 0.5, 1, 5, 30, 60, 300, 1800, 3600, 6 * 3600, 24 * 3600, 5 * 24 * 3600}})
	m.hookCalls = counterVec("hook_calls_total", "Outgoing webhook call attempts by outcome (sent, failed, retried).", "outcome")
	m.hookAttempt = histVec("hook_attempt_seconds", "Duration of one outgoing webhook call.",
		prometheus.ExponentialBuckets(0.005, 3, 9), "outcome")
	m.failures = counterVec("delivery_failures_total", "Mails and webhook calls retired as failed (permanent or gave up).", "channel", "reason")
	m.httpRequests = counterVec("http_requests_total", "HTTP requests by route and status code.", "route", "code")
	m.httpSeconds = histVec("http_request_seconds", "HTTP request duration by route.", prometheus.ExponentialBuckets(0.001, 3, 10), "route")
	m.sampleErrors = counter("store_sample_errors_total", "Failed samples of the store (queue depths, games).")
	m.reg.MustRegister(m.messagesIn, m.ticks, m.moves, m.mailsQueued, m.hooksQueued, m.processing, m.messagesOut,
		m.smtpAttempt, m.mailLatency, m.hookCalls, m.hookAttempt, m.failures, m.httpRequests, m.httpSeconds, m.sampleErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{Namespace: ns}))
	return m
}

// Registry returns the private registry (to add collectors).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.InstrumentMetricHandler(m.reg, promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelError), ErrorHandling: promhttp.ContinueOnError,
		Registry: m.reg, Timeout: 30 * time.Second,
	}))
}

// Observe counts one processed input (referee.Options.Observe).
func (m *Metrics) Observe(o referee.Observation) {
	source, status := label(o.Source), label(o.Status)
	if o.Source == "tick" {
		m.ticks.WithLabelValues(status).Inc()
	} else {
		m.messagesIn.WithLabelValues(source, status).Inc()
	}
	m.processing.WithLabelValues(source).Observe(o.Duration.Seconds())
	m.moves.Add(float64(max(o.Moves, 0)))
	m.mailsQueued.Add(float64(max(o.Mails, 0)))
	m.hooksQueued.Add(float64(max(o.Hooks, 0)))
}

// MailResult counts one SMTP delivery attempt (smtpout.Options.OnResult).
func (m *Metrics) MailResult(r smtpout.Result) {
	outcome := outcomeLabel(r.Outcome)
	m.messagesOut.WithLabelValues(outcome).Inc()
	m.smtpAttempt.WithLabelValues(outcome).Observe(r.Duration.Seconds())
	switch r.Outcome {
	case smtpout.OutcomeSent:
		m.mailLatency.Observe(r.Latency.Seconds())
	case smtpout.OutcomeFailed:
		m.failures.WithLabelValues("mail", failReason(r.GaveUp)).Inc()
	}
}

// HookResult counts one outgoing webhook call (hookout.Options.OnResult).
func (m *Metrics) HookResult(r hookout.Result) {
	outcome := outcomeLabel(r.Outcome)
	m.hookCalls.WithLabelValues(outcome).Inc()
	m.hookAttempt.WithLabelValues(outcome).Observe(r.Duration.Seconds())
	if r.Outcome == hookout.OutcomeFailed {
		m.failures.WithLabelValues("hook", failReason(r.GaveUp)).Inc()
	}
}

func outcomeLabel(o string) string {
	if o == "retry" {
		return "retried"
	}
	return label(o)
}

func failReason(gaveUp bool) string {
	if gaveUp {
		return "gave_up"
	}
	return "permanent"
}

// label keeps label values bounded and readable.
func label(s string) string {
	if s == "" {
		return "none"
	}
	if len(s) > 40 {
		return s[:40]
	}
	return s
}

// Instrument wraps an HTTP handler with request counters and a duration
// histogram labelled with route (a mux pattern: bounded, unlike paths).
func (m *Metrics) Instrument(route string, h http.Handler) http.Handler {
	l := prometheus.Labels{"route": route}
	return promhttp.InstrumentHandlerDuration(m.httpSeconds.MustCurryWith(l),
		promhttp.InstrumentHandlerCounter(m.httpRequests.MustCurryWith(l), h))
}

// WatchIMAP exports an IMAP watcher's counters (imapin.Watcher.Stats).
func (m *Metrics) WatchIMAP(stats func() imapin.Stats) {
	m.reg.MustRegister(&imapCollector{stats: stats})
}

var (
	imapMessagesDesc = prometheus.NewDesc(ns+"_imap_messages_total", "IMAP watcher messages by result (handled, duplicate, quarantined, transient).", []string{"result"}, nil)
	imapReconnDesc   = prometheus.NewDesc(ns+"_imap_reconnects_total", "IMAP connections that failed or were lost.", nil, nil)
	imapConnDesc     = prometheus.NewDesc(ns+"_imap_connected", "1 while an IMAP session is established.", nil, nil)
	imapSyncDesc     = prometheus.NewDesc(ns+"_imap_last_sync_timestamp_seconds", "Unix time of the end of the last complete look at the mailbox (0 before the first).", nil, nil)
)

type imapCollector struct{ stats func() imapin.Stats }

func (c *imapCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- imapMessagesDesc
	ch <- imapReconnDesc
	ch <- imapConnDesc
	ch <- imapSyncDesc
}

func (c *imapCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	for result, v := range map[string]uint64{"handled": st.Handled, "duplicate": st.Duplicates,
		"quarantined": st.Quarantined, "transient": st.Transient} {
		ch <- prometheus.MustNewConstMetric(imapMessagesDesc, prometheus.CounterValue, float64(v), result)
	}
	ch <- prometheus.MustNewConstMetric(imapReconnDesc, prometheus.CounterValue, float64(st.Reconnects))
	conn := 0.0
	if st.Connected {
		conn = 1
	}
	ch <- prometheus.MustNewConstMetric(imapConnDesc, prometheus.GaugeValue, conn)
	sync := 0.0
	if !st.LastSync.IsZero() {
		sync = float64(st.LastSync.UnixNano()) / 1e9
	}
	ch <- prometheus.MustNewConstMetric(imapSyncDesc, prometheus.GaugeValue, sync)
}

// Counter reads the sizes the metrics export (the referee).
type Counter interface {
	Counts(queues ...string) (referee.Counts, error)
}

// WatchStore exports the depth of the given queues and the number of games
// by status, asked of the referee at scrape time, at most every interval
// (SampleInterval if <= 0); a scrape in between gets the last sample.
func (m *Metrics) WatchStore(src Counter, interval time.Duration, queues ...string) {
	if interval <= 0 {
		interval = SampleInterval
	}
	m.reg.MustRegister(&storeCollector{src: src, queues: queues, interval: interval, m: m})
}

var (
	queueDepthDesc = prometheus.NewDesc(ns+"_queue_depth", "Pending items in a durable queue.", []string{"queue"}, nil)
	gamesDesc      = prometheus.NewDesc(ns+"_games", "Games by status.", []string{"status"}, nil)
)

type storeCollector struct {
	src      Counter
	queues   []string
	interval time.Duration
	m        *Metrics

	mu     sync.Mutex
	at     time.Time
	depth  map[string]int
	status map[string]int
}

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- queueDepthDesc
	ch <- gamesDesc
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.depth == nil || time.Since(c.at) >= c.interval {
		c.sample()
	}
	for q, n := range c.depth {
		ch <- prometheus.MustNewConstMetric(queueDepthDesc, prometheus.GaugeValue, float64(n), q)
	}
	for s, n := range c.status {
		ch <- prometheus.MustNewConstMetric(gamesDesc, prometheus.GaugeValue, float64(n), s)
	}
}

// sample asks the referee, which reads the store in one read transaction
// (it never blocks writers).
func (c *storeCollector) sample() {
	counts, err := c.src.Counts(c.queues...)
	c.at = time.Now()
	if err != nil {
		c.m.sampleErrors.Inc()
		c.m.log.Warn("metrics: sampling the store failed", slog.Any("err", err))
		if c.depth == nil {
			c.depth, c.status = map[string]int{}, map[string]int{}
		}
		return
	}
	status := map[string]int{}
	for s, n := range counts.Games {
		status[label(s)] += n
	}
	c.depth, c.status = counts.Queues, status
}
