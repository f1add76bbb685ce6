package outcome

import (
	"encoding/json"
	"testing"
)

// TestOutcomeWords: the words of the statuses, reasons, kinds and aside
// reasons are the ones stored and sent before they had a package of their
// own, and an Outcome's JSON answer keeps its field names (the webhook's answers).
func TestOutcomeWords(t *testing.T) {
	for _, w := range [][2]string{
		{string(Applied), "applied"}, {string(Queued), "queued"}, {string(Rejected), "rejected"},
		{string(Duplicate), "duplicate"}, {string(Ignored), "ignored"}, {string(Answered), "answered"},
		{string(RateLimited), "rate_limited"}, {string(UnknownSeat), "unknown_seat"},
		{string(Revoked), "revoked"}, {string(Sender), "sender"},
		{string(KindSeat), "seat"}, {string(KindPlayer), "player"}, {string(KindOrg), "org"},
		{AsideIgnored, "ignored"}, {AsideTooLarge, "too_large"}, {AsideUnparseable, "unparseable"}, {AsideList, "list"},
	} {
		if got, want := w[0], w[1]; got != want {
			t.Errorf("word %q, want %q", got, want)
		}
	}
	if KindNone != "" {
		t.Errorf("KindNone is %q, want empty", KindNone)
	}
	for _, c := range []struct {
		o    Outcome
		want string
	}{
		{Outcome{Status: Ignored, Seat: -1}, `{"status":"ignored","seat":-1}`},
		{Outcome{Status: Applied, Game: "g1", Seat: 2, Detail: "d", Replies: []string{"m@x"}, Reason: RateLimited, StateToken: 7, Started: true},
			`{"status":"applied","game":"g1","seat":2,"detail":"d","replies":["m@x"],"reason":"rate_limited","state_token":7,"started":true}`},
	} {
		b, err := json.Marshal(c.o)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("json %s, want %s", b, c.want)
		}
	}
}
