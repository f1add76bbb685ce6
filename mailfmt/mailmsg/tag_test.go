package mailmsg

import (
	"errors"
	"testing"
)

func TestParseTag(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical String(), "" for an error
		kind TagKind
	}{
		{"g42.1.k7x9q2abcd3e.57", "g42.1.k7x9q2abcd3e.57", TagSeat},
		{"G42.1.K7X9Q2ABCD3E.57", "g42.1.k7x9q2abcd3e.57", TagSeat},
		{"g42.0.abcdefghijkl", "g42.0.abcdefghijkl", TagSeat},
		{"g42.01.abcdefghijkl.007", "g42.1.abcdefghijkl.7", TagSeat},
		{"p.abcdefghijkl", "p.abcdefghijkl", TagPlayer},
		{"org.abcdefghijklmnop", "org.abcdefghijklmnop", TagOrg},
		{"bounce.17", "bounce.17", TagBounce},
		{"Bounce.A1b", "bounce.a1b", TagBounce},
		{"g42.1.short", "", TagNone},                                                                    // secret too short
		{"g42.1.abcdefghijklmnopqrstuvwxyz234567a", "", TagNone},                                        // secret too long
		{"4g.1.abcdefghijkl", "", TagNone},                                                              // game id starts with a digit
		{"g.1.abcdefghijkl", "", TagNone},                                                               // game id too short
		{"g42.x.abcdefghijkl", "", TagNone},                                                             // seat not a number
		{"g42.100.abcdefghijkl", "", TagNone},                                                           // seat too large
		{"g42.1.abcdefghijkl.5x", "", TagNone},                                                          // bad token
		{"g42.1.abcdefghijkl.1234567890123456789", "", TagNone},                                         // token too long
		{"g42.1.abcdefghijkl.57.9", "", TagNone},                                                        // too many parts
		{"p.abc", "", TagNone},                                                                          // short secret
		{"bounce.", "", TagNone},                                                                        // empty id
		{"bounce.a-b", "", TagNone},                                                                     // bad id
		{"g42", "", TagNone},                                                                            // bare game ids are not address tags
		{"", "", TagNone},                                                                               // empty
		{"g42.1.abcdefghij-l", "", TagNone},                                                             // bad secret char
		{"g42.1.abcdefghijkl.", "", TagNone},                                                            // empty token
		{"org.abcdefghijkl.57", "", TagNone},                                                            // org tags carry no token
		{"p.abcdefghijkl.abcdefghijkl", "", TagNone},                                                    // player tags have two parts
		{" g42.1.abcdefghijkl ", "g42.1.abcdefghijkl", TagSeat},                                         // spaces trimmed
		{"g42.1.abcdefghijkl\x00", "", TagNone},                                                         // NUL
		{"g42.1.\u0430bcdefghijkl", "", TagNone},                                                        // Cyrillic a
		{"abcdefghijklmnopqrstuvwx.1.abcdefghijkl", "abcdefghijklmnopqrstuvwx.1.abcdefghijkl", TagSeat}, // 24-char game id
		{"abcdefghijklmnopqrstuvwxy.1.abcdefghijkl", "", TagNone},                                       // 25-char game id
	}
	for _, tt := range tests {
		got, err := ParseTag(tt.in)
		if tt.want == "" {
			if err == nil || !errors.Is(err, ErrInvalidTag) {
				t.Errorf("ParseTag(%q) = %v, %v; want ErrInvalidTag", tt.in, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTag(%q): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want || got.Kind != tt.kind {
			t.Errorf("ParseTag(%q) = %s (%v); want %s (%v)", tt.in, got, got.Kind, tt.want, tt.kind)
		}
		again, err := ParseTag(got.String())
		if err != nil || again != got {
			t.Errorf("ParseTag(String()) of %q = %v, %v; want %v", tt.in, again, err, got)
		}
	}
}

func TestTagFields(t *testing.T) {
	tag, err := ParseTag("g42.3.k7x9q2abcd3e.57")
	if err != nil {
		t.Fatal(err)
	}
	want := Tag{Kind: TagSeat, Game: "g42", Seat: 3, Secret: "k7x9q2abcd3e", Token: 57}
	if tag != want {
		t.Fatalf("got %+v, want %+v", tag, want)
	}
	tag, _ = ParseTag("g42.3.k7x9q2abcd3e")
	if tag.Token != NoToken {
		t.Errorf("token = %d, want NoToken", tag.Token)
	}
	p, _ := ParseTag("p.abcdefghijkl")
	if p.Seat != NoSeat || p.Token != NoToken || !p.Authenticates() {
		t.Errorf("player tag = %+v", p)
	}
	b, _ := ParseTag("bounce.42")
	if b.Authenticates() || b.ID != "42" {
		t.Errorf("bounce tag = %+v", b)
	}
	if (Tag{}).String() != "" || (Tag{}).Validate() == nil {
		t.Error("the zero Tag must be invalid")
	}
}

func TestPlusAddress(t *testing.T) {
	tag, _ := SeatTag("g42", 1, "k7x9q2abcd3e", 57)
	got, err := PlusAddress("referee@Example.TEST", tag)
	if err != nil || got != "referee+g42.1.k7x9q2abcd3e.57@example.test" {
		t.Fatalf("PlusAddress = %q, %v", got, err)
	}
	back, ok := TagFromAddress("Referee+G42.1.K7X9Q2ABCD3E.57@example.test", "referee@example.test")
	if !ok || back != tag {
		t.Errorf("TagFromAddress = %+v, %v; want %+v", back, ok, tag)
	}
	for _, a := range []string{
		"referee+g42.1.k7x9q2abcd3e.57@other.test",    // other domain
		"referees+g42.1.k7x9q2abcd3e.57@example.test", // other local part
		"referee@example.test",                        // no tag
		"referee+hello@example.test",                  // not a tag
		"referee+g42.1.k7x9q2abcd3e.57",               // no domain
	} {
		if tg, ok := TagFromAddress(a, "referee@example.test"); ok {
			t.Errorf("TagFromAddress(%q) = %v; want no tag", a, tg)
		}
	}
	if _, err := PlusAddress("nodomain", tag); err == nil {
		t.Error("PlusAddress without domain must fail")
	}
	g, _ := GameTag("g42", NoSeat, 57)
	if _, err := PlusAddress("referee@example.test", g); err == nil {
		t.Error("a game tag has no address form")
	}
}

func TestSubjectTag(t *testing.T) {
	seat, _ := SeatTag("g42", 1, "k7x9q2abcd3e", 57)
	if got := SubjectTag(seat, true); got != "[g42.1.k7x9q2abcd3e #57]" {
		t.Errorf("SubjectTag with secret = %q", got)
	}
	if got := SubjectTag(seat, false); got != "[g42 #57]" {
		t.Errorf("SubjectTag without secret = %q", got)
	}
	p, _ := PlayerTag("abcdefghijkl")
	if got := SubjectTag(p, true); got != "[p.abcdefghijkl]" {
		t.Errorf("player SubjectTag = %q", got)
	}
	if got := SubjectTag(p, false); got != "" {
		t.Errorf("player SubjectTag without secret = %q, want empty", got)
	}

	tests := []struct {
		subject string
		want    string // Tag.String() plus " #token" when the tag is a game tag
		token   int64
		ok      bool
	}{
		{"Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn", "g42.1.k7x9q2abcd3e.57", 57, true},
		{"AW: AW: [g42.1.k7x9q2abcd3e #57] Dice Brewing", "g42.1.k7x9q2abcd3e.57", 57, true},
		{"R: [ G42.1.K7X9Q2ABCD3E   #  57 ] x", "g42.1.k7x9q2abcd3e.57", 57, true},
		{"RE: [g42 #57] Dice Brewing", "g42", 57, true},
		{"Antw: [EXTERNAL] [g42 #57] Fromage", "g42", 57, true},
		{"[SPAM] [dice] hello", "", 0, false},
		{"[g42] no token", "", 0, false},
		{"Fwd: [p.abcdefghijkl] LIST", "p.abcdefghijkl", NoToken, true},
		{"TR: [org.abcdefghijkl] status", "org.abcdefghijkl", NoToken, true},
		{"[g42.1.k7x9q2abcd3e] no token", "g42.1.k7x9q2abcd3e", NoToken, true},
		{"[bounce.12 #4] not in subjects", "", 0, false},
		{"no tag at all", "", 0, false},
		{"Doorst: [g42.1.k7x9q2abcd3e.56 #57] conflicting tokens", "", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseSubjectTag(tt.subject)
		if ok != tt.ok {
			t.Errorf("ParseSubjectTag(%q) ok = %v, want %v (%+v)", tt.subject, ok, tt.ok, got)
			continue
		}
		if !ok {
			continue
		}
		s := got.String()
		if got.Kind == TagGame || got.Kind == TagPlayer || got.Kind == TagOrg {
			if got.Token != tt.token {
				t.Errorf("ParseSubjectTag(%q) token = %d, want %d", tt.subject, got.Token, tt.token)
			}
		}
		if s != tt.want {
			t.Errorf("ParseSubjectTag(%q) = %q, want %q", tt.subject, s, tt.want)
		}
	}
	// Round trip through SubjectTag.
	for _, withSecret := range []bool{true, false} {
		st := SubjectTag(seat, withSecret)
		got, ok := ParseSubjectTag("Re: " + st + " Dice Brewing")
		if !ok || got.Game != "g42" || got.Token != 57 || (withSecret && got != seat) {
			t.Errorf("round trip of %q = %+v, %v", st, got, ok)
		}
	}
}

func TestCleanSubject(t *testing.T) {
	tests := map[string]string{
		"Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn": "Dice Brewing: your turn",
		"AW:  RE: Fwd:  [g42 #57]   Fromage":                   "Fromage",
		"R: I: [g42 #57] mossa":                                "mossa",
		"Antw: Doorst: TR: hello":                              "hello",
		"Re: [dice] not ours":                                  "[dice] not ours",
		"Reply hazy":                                           "Reply hazy",
	}
	for in, want := range tests {
		if got := CleanSubject(in); got != want {
			t.Errorf("CleanSubject(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMessageID(t *testing.T) {
	id, err := NewMessageID("g42", 1, 57, "a1b2", "Example.TEST")
	if err != nil || id != "<rf.g42.1.57.a1b2@example.test>" {
		t.Fatalf("NewMessageID = %q, %v", id, err)
	}
	ref, err := ParseMessageID(id)
	want := MessageRef{Game: "g42", Seat: 1, Token: 57, Nonce: "a1b2", Domain: "example.test"}
	if err != nil || ref != want {
		t.Fatalf("ParseMessageID = %+v, %v; want %+v", ref, err, want)
	}
	x, _ := NewMessageID("g42", NoSeat, 0, "z", "example.test")
	if x != "<rf.g42.x.0.z@example.test>" {
		t.Errorf("no-seat id = %q", x)
	}
	if r, err := ParseMessageID("RF.G42.X.0.Z@EXAMPLE.TEST"); err != nil || r.Seat != NoSeat || r.Game != "g42" {
		t.Errorf("ParseMessageID without brackets, upper case = %+v, %v", r, err)
	}
	if r := ref.Tag(); r.Kind != TagGame || r.Secret != "" || r.Seat != 1 || r.Token != 57 {
		t.Errorf("MessageRef.Tag = %+v", r)
	}
	for _, bad := range []string{
		"<abc@example.test>", "<rf.g42.1.57@example.test>", "<rf.g42.1.57.a1b2>",
		"<rf.g42.1.57.a-b@example.test>", "<rf.1g.1.57.ab@example.test>", "<rf.g42.100.57.ab@example.test>",
		"<rf.g42.1.57.ab@exa mple.test>", "<rf.g42.1.57.ab@-bad.test>", "",
	} {
		if _, err := ParseMessageID(bad); !errors.Is(err, ErrInvalidMessageID) {
			t.Errorf("ParseMessageID(%q) err = %v; want ErrInvalidMessageID", bad, err)
		}
	}
	for _, args := range []struct {
		game  string
		seat  int
		token int64
		nonce string
		dom   string
	}{
		{"G42", 1, 1, "a", "example.test"}, {"g42", -2, 1, "a", "example.test"}, {"g42", 1, -1, "a", "example.test"},
		{"g42", 1, 1, "", "example.test"}, {"g42", 1, 1, "a.b", "example.test"}, {"g42", 1, 1, "a", "exa_mple.test"},
		{"g42", 1, 1, "a", ""},
	} {
		if id, err := NewMessageID(args.game, args.seat, args.token, args.nonce, args.dom); err == nil {
			t.Errorf("NewMessageID(%+v) = %q; want an error", args, id)
		}
	}
}
