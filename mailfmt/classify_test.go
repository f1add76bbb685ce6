package mailfmt

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

func TestReturnDate(t *testing.T) {
	may10 := time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)
	dec20 := time.Date(2026, 12, 20, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		text string
		ref  time.Time
		want string
	}{
		{"I'm back on 12 May.", may10, "2026-05-12"},
		{"Out of the office until December 20th, 2026", may10, "2026-12-20"},
		{"out until May 14", may10, "2026-05-14"},
		{"Back on Monday, 18 May", may10, "2026-05-18"},
		{"away until 2026-12-28", may10, "2026-12-28"},
		{"Sono in ferie fino al 5 gennaio", dec20, "2027-01-05"}, // year rolls over
		{"assente dal 10 al 20 dicembre", may10, "2026-12-20"},
		{"rientro il 07/01/2027", dec20, "2027-01-07"},
		{"Rientrerò mar 12 mag", may10, "2026-05-12"}, // "mar" is Tuesday here, not March
		{"absente du 10 au 20 décembre 2026", may10, "2026-12-20"},
		{"de retour le lundi 4 janvier", dec20, "2027-01-04"},
		{"afwezig van 10 tot 20 december", may10, "2026-12-20"},
		{"ik ben terug op maandag 4 januari", dec20, "2027-01-04"},
		{"Ich bin vom 10. bis 20. Dezember im Urlaub", may10, "2026-12-20"},
		{"Ab dem 8. Januar bin ich wieder erreichbar", dec20, "2027-01-08"},
		{"bis 12.01. nicht erreichbar", dec20, "2027-01-12"},
		{"away 10-20 December", may10, "2026-12-20"},
		{"fuera hasta el 3 de enero", dec20, "2027-01-03"},
		{"I was born on 12 May 1980 and this is not an absence.", may10, ""},
		{"Thank you for your message.", may10, ""},
		{"until 31 February", may10, ""},
		{"until 12 May", time.Time{}, ""},           // no year and no reference date
		{"\xf0until 1 MAY", may10, "2027-05-01"},    // invalid UTF-8 before the phrase (found by fuzzing)
		{"İİİ BACK ON 12 MAY", may10, "2026-05-12"}, // a capital whose lower case is longer
	}
	for _, tt := range tests {
		got, phrase := ReturnDate(tt.text, tt.ref)
		if got.String() != tt.want {
			t.Errorf("ReturnDate(%q) = %q (%q), want %q", tt.text, got, phrase, tt.want)
		}
		if tt.want != "" && phrase == "" {
			t.Errorf("ReturnDate(%q): no phrase", tt.text)
		}
	}
}

func TestClassifyRules(t *testing.T) {
	self := []string{"referee@example.test"}
	base := "From: Anna <anna@example.org>\nTo: referee@example.test\nSubject: hello\n"
	tests := []struct {
		name    string
		headers string
		want    Class
		oof     bool
	}{
		{"normal", "", Normal, false},
		{"auto-submitted no", "Auto-Submitted: no\n", Normal, false},
		{"auto-submitted auto-generated", "Auto-Submitted: auto-generated\n", AutoReply, false},
		{"auto-submitted with parameters", "Auto-Submitted: auto-replied; owner-email=\"a@b\"\n", AutoReply, false}, // an acknowledgement, not an absence
		{"x-autorespond", "X-Autorespond: yes\n", AutoReply, false},
		{"precedence junk", "Precedence: junk\n", List, false},
		{"precedence list", "Precedence: LIST\n", List, false},
		{"list-id", "List-Id: <x.lists.example>\n", List, false},
		{"null return path", "Return-Path: <>\n", Bounce, false},
		{"x-loop self", "X-Loop: referee@example.test\n", Self, false},
		{"x-loop other", "X-Loop: someone@else.example\n", List, false}, // another robot's loop marker (issue 23)
	}
	for _, tt := range tests {
		m := mustParse(t, tt.headers+base+"\nPASS\n")
		c := Classify(m, self)
		if c.Class != tt.want || c.OutOfOffice != tt.oof {
			t.Errorf("%s: %v (oof %v, %q), want %v (oof %v)", tt.name, c.Class, c.OutOfOffice, c.Reason, tt.want, tt.oof)
		}
		if c.Class != Normal && c.Reason == "" {
			t.Errorf("%s: no reason", tt.name)
		}
	}
	// The referee's plus addresses are the referee too.
	m := mustParse(t, "From: Referee <Referee+g42.1.abcdefghijkl.57@EXAMPLE.test>\n\nx\n")
	if c := Classify(m, self); c.Class != Self {
		t.Errorf("plus address of the referee: %v", c.Class)
	}
	// Out-of-office subjects in each language, without headers.
	for _, s := range []string{"Out of Office: Re: x", "Abwesend: x", "Risposta automatica: x", "Absence: x", "Afwezig", "Réponse automatique : x", "Automatisch antwoord: x", "Automatic reply: x"} {
		m := mustParse(t, "From: a@example.org\nSubject: "+s+"\n\nI am away.\n")
		if c := Classify(m, self); c.Class != AutoReply || !c.OutOfOffice {
			t.Errorf("subject %q: %v oof=%v", s, c.Class, c.OutOfOffice)
		}
	}
}

func TestFindTag(t *testing.T) {
	referee := mailmsg.Address{Addr: "referee@example.test"}
	m := mustParse(t, `From: Anna <anna@example.org>
Delivered-To: referee+g42.1.abcdefghijkl@example.test
To: Referee <referee@example.test>, other+g42.1.abcdefghijkl.99@example.test
Subject: Re: [g42 #57] Dice Brewing
In-Reply-To: <rf.g42.1.57.n1@example.test>
References: <rf.g42.1.50.n0@example.test> <unrelated@x> <rf.g42.1.56.n2@example.test>

PASS
`)
	r := mailmsg.FindTag(m, referee)
	want := mailmsg.Tag{Kind: mailmsg.TagSeat, Game: "g42", Seat: 1, Secret: "abcdefghijkl", Token: 57}
	if r.Tag != want || r.Conflict {
		t.Fatalf("FindTag = %+v (conflict %v), want %+v", r.Tag, r.Conflict, want)
	}
	if r.KindFrom != mailmsg.SourceDeliveredTo || r.SecretFrom != mailmsg.SourceDeliveredTo || r.SeatFrom != mailmsg.SourceDeliveredTo || r.TokenFrom != mailmsg.SourceSubject {
		t.Errorf("sources = %v %v %v %v", r.KindFrom, r.SecretFrom, r.SeatFrom, r.TokenFrom)
	}
	// Candidates: delivered-to, subject, in-reply-to, references newest first.
	var srcs []mailmsg.TagSource
	for _, c := range r.Candidates {
		srcs = append(srcs, c.Source)
	}
	if len(srcs) != 5 || srcs[0] != mailmsg.SourceDeliveredTo || srcs[1] != mailmsg.SourceSubject || srcs[2] != mailmsg.SourceInReplyTo || srcs[3] != mailmsg.SourceReferences || r.Candidates[3].Tag.Token != 56 {
		t.Errorf("candidates = %+v", r.Candidates)
	}
	// Another seat in a less trusted source is a conflict.
	m = mustParse(t, "Delivered-To: referee+g42.1.abcdefghijkl.57@example.test\nIn-Reply-To: <rf.g42.2.57.n1@example.test>\n\nx\n")
	if r := mailmsg.FindTag(m, referee); !r.Conflict || r.Tag.Seat != 1 {
		t.Errorf("seat conflict not reported: %+v", r)
	}
	// Nothing at all.
	m = mustParse(t, "To: referee@example.test\nSubject: hello\n\nx\n")
	if r := mailmsg.FindTag(m, referee); r.Tag.Kind != mailmsg.TagNone || len(r.Candidates) != 0 {
		t.Errorf("no tag expected: %+v", r)
	}
}

// TestOutOfOfficeOwnWords checks that only the responder's own words make
// an absence: a quoted referee mail mentioning VACATION does not.
func TestOutOfOfficeOwnWords(t *testing.T) {
	self := []string{"referee@example.test"}
	ack := "From: helpdesk@example.org\nSubject: Re: orders\nAuto-Submitted: auto-replied\nDate: Tue, 12 May 2026 10:00:00 +0200\n\n" +
		"Your request has been received.\n\nOn Tue, May 12, 2026 at 9:00 AM Referee <referee@example.test> wrote:\n> Reply VACATION 2026-12-20 2026-12-28 if you are away until 28 December.\n"
	if c := Classify(mustParse(t, ack), self); c.Class != AutoReply || c.OutOfOffice || !c.Return.IsZero() {
		t.Errorf("acknowledgement: %+v", c)
	}
	away := strings.Replace(ack, "Your request has been received.", "I am on holiday until 20 May.", 1)
	if c := Classify(mustParse(t, away), self); !c.OutOfOffice || c.Return.String() != "2026-05-20" {
		t.Errorf("absence: %+v", c)
	}
}

func mustParse(t *testing.T, raw string) *mailmsg.Message {
	t.Helper()
	m, err := mailmsg.Parse([]byte(strings.ReplaceAll(raw, "\n", "\r\n")), mailmsg.Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return m
}
