package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/pbem-referee/referee/referee"
	"github.com/pbem-referee/referee/referee/reading"
)

// SourceCommands is the Inbound/Request source of the commands endpoint.
const SourceCommands = "webhook:commands"

// CommandRequest is the JSON body of POST /games/{id}/commands.
type CommandRequest struct {
	// Seat, when given, must be the seat of the bearer token (0-based, as
	// in the referee's tags).
	Seat *int `json:"seat,omitempty"`
	// Text holds the commands, one per line, as a player would write them.
	Text string `json:"text"`
	// StateToken is the state the commands answer (the game's move count);
	// absent: not checked.
	StateToken *int `json:"state_token,omitempty"`
	// MessageID is the client's idempotency key: the same id is processed
	// once.
	MessageID string `json:"message_id,omitempty"`
}

// CommandResponse is the JSON answer of POST /games/{id}/commands.
type CommandResponse struct {
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	Game   string `json:"game"`
	Seat   int    `json:"seat"`
	// Replies are the Message-IDs of the mails queued in answer.
	Replies []string `json:"replies"`
	// StateToken is the game's state token after the commands (absent
	// before the game starts).
	StateToken *int `json:"state_token,omitempty"`
}

var commandsProvider = provider{"commands", SourceCommands, 401, 400, 413, 422}

// commands serves POST /games/{id}/commands.
func (s *Server) commands(w http.ResponseWriter, r *http.Request) {
	p := commandsProvider
	game := r.PathValue("id")
	secret, ok := bearer(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="referee"`)
		s.fail(w, r, p, http.StatusUnauthorized, "missing bearer token (the seat's secret)")
		return
	}
	// The token is checked before the body is read (issue 23).
	seat, addr, code, reason := s.seatOf(game, secret)
	if code != 0 {
		if code == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="referee", error="invalid_token"`)
		}
		s.fail(w, r, p, code, reason)
		return
	}
	body, ok := s.readBody(w, r, p, s.o.MaxCommandBytes)
	if !ok {
		return
	}
	var req CommandRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		s.fail(w, r, p, http.StatusBadRequest, "bad JSON: "+err.Error())
		return
	}
	if dec.More() {
		s.fail(w, r, p, http.StatusBadRequest, "bad JSON: more than one object")
		return
	}
	if strings.TrimSpace(req.Text) == "" {
		s.fail(w, r, p, http.StatusBadRequest, "no commands in text")
		return
	}
	if len(req.MessageID) > 200 {
		s.fail(w, r, p, http.StatusBadRequest, "message_id longer than 200 characters")
		return
	}
	if req.Seat != nil && *req.Seat != seat {
		s.fail(w, r, p, http.StatusForbidden, fmt.Sprintf("the token is seat %d's, not seat %d's", seat, *req.Seat))
		return
	}
	token := -1
	if req.StateToken != nil {
		token = *req.StateToken
	}
	id := req.MessageID
	if id == "" {
		id = reading.CommandKey(seat, token, req.Text)
	}
	msgid := ""
	if strings.HasPrefix(req.MessageID, "<") && strings.HasSuffix(req.MessageID, ">") && strings.Contains(req.MessageID, "@") {
		msgid = req.MessageID // a real Message-ID threads the reply mail
	}
	release, ok := s.slot(w, r, p)
	if !ok {
		return
	}
	defer release()
	out, err := s.o.Processor.Process(r.Context(), referee.Request{
		Kind: referee.KindSeat, Game: game, Seat: seat, Secret: secret, Token: token, Text: req.Text, From: addr,
		MessageID: msgid, Keys: []string{"cmd:" + game + "/" + strings.ToLower(addr) + "/" + id},
		Source: SourceCommands, Received: s.o.Now(), SenderVerified: true,
	})
	if err != nil {
		s.log.Error("webhook: processing commands failed", slog.String("game", game), slog.Int("seat", seat), slog.Any("err", err))
		s.fail(w, r, p, http.StatusServiceUnavailable, "temporary failure; retry with the same message_id")
		return
	}
	resp := CommandResponse{Status: string(out.Status), Detail: out.Detail, Game: out.Game, Seat: out.Seat, Replies: out.Replies}
	if resp.Replies == nil {
		resp.Replies = []string{}
	}
	if resp.Game == "" {
		resp.Game, resp.Seat = game, seat
	}
	if out.Started {
		t := out.StateToken
		resp.StateToken = &t
	}
	code = http.StatusOK
	switch out.Status {
	case referee.OutcomeRejected:
		code = http.StatusUnprocessableEntity
	case referee.OutcomeIgnored:
		code = http.StatusForbidden
		if out.Reason == referee.ReasonRateLimited {
			code = http.StatusTooManyRequests
			w.Header().Set("Retry-After", "600")
		}
	}
	s.log.Info("webhook commands", slog.String("game", game), slog.Int("seat", seat), slog.String("status", string(out.Status)),
		slog.Int("replies", len(out.Replies)))
	writeJSON(w, code, resp)
}

// bearer returns the token of an "Authorization: Bearer <token>" header.
func bearer(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != "" && len(tok) <= 200
}

// seatOf asks the referee which seat a secret authenticates in a game.
// code is 0 when found, else the status to answer.
func (s *Server) seatOf(game, secret string) (seat int, addr string, code int, reason string) {
	a, err := s.o.Processor.SeatForSecret(game, secret)
	switch {
	case err == nil:
		return a.Seat, a.Address, 0, ""
	case errors.Is(err, referee.ErrNoGame), errors.Is(err, referee.ErrNotSeatToken), errors.Is(err, referee.ErrTokenRevoked):
		// One answer for an unknown game, a wrong token and a revoked
		// one (issue 23): the endpoint tells a stranger nothing about
		// which games exist.
		return 0, "", http.StatusUnauthorized, "not a valid seat token for this game"
	}
	s.log.Error("webhook: looking up a seat token failed", slog.String("game", game), slog.Any("err", err))
	return 0, "", http.StatusServiceUnavailable, "temporary failure"
}
