package mailfmt_test

import (
	"fmt"
	"time"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// The intake path: parse, classify, identify, extract.
func Example() {
	raw := []byte("Delivered-To: referee+g42.1.k7x9q2abcd3e.57@example.test\r\n" +
		"From: Anna Rossi <anna@rossi.example>\r\n" +
		"To: Referee <referee+g42.1.k7x9q2abcd3e.57@example.test>\r\n" +
		"Subject: Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn\r\n" +
		"Message-ID: <reply-1@rossi.example>\r\n" +
		"In-Reply-To: <rf.g42.1.57.a1b2@example.test>\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\n" +
		"PLACE MH1 SEED, MH1+ B3\r\n\r\nSent from my iPhone\r\n\r\n" +
		"> On 12 May 2026, at 10:14, Referee <referee@example.test> wrote:\r\n> 3  PASS\r\n")
	referee := mailmsg.Address{Name: "Referee", Addr: "referee@example.test"}

	m, err := mailmsg.Parse(raw, mailmsg.Options{})
	if err != nil {
		fmt.Println("reject:", err)
		return
	}
	if c := mailfmt.Classify(m, []string{referee.Addr}); c.Class != mailfmt.Normal {
		fmt.Println("never answered:", c.Class, c.Reason)
		return
	}
	tr := mailmsg.FindTag(m, referee)
	text, info := mailfmt.Commands(m)
	fmt.Println(m.MessageID, m.From.Addr)
	fmt.Println(tr.Tag.Kind, tr.Tag.Game, tr.Tag.Seat, tr.Tag.Token, "secret from", tr.SecretFrom, "conflict", tr.Conflict)
	fmt.Printf("%q quote=%v signature=%q\n", text, info.Quote, info.SignatureLine)
	// Output:
	// <reply-1@rossi.example> anna@rossi.example
	// seat g42 1 57 secret from delivered-to conflict false
	// "PLACE MH1 SEED, MH1+ B3" quote=true signature="Sent from my iPhone"
}

// The outbox path: a referee mail with its threading, tag and bounce address.
func ExampleCompose() {
	tag, _ := mailmsg.SeatTag("g42", 1, "k7x9q2abcd3e", 58)
	id, _ := mailmsg.NewMessageID("g42", 1, 58, "q7", "example.test")
	bounceTag, _ := mailmsg.BounceTag("row1234")
	envelopeFrom, _ := mailmsg.PlusAddress("referee@example.test", bounceTag)
	raw, err := mailmsg.Compose(mailmsg.Out{
		From:       mailmsg.Address{Name: "Referee", Addr: "referee@example.test"},
		To:         mailmsg.Address{Name: "Anna Rossi", Addr: "anna@rossi.example"},
		Tag:        tag,
		Subject:    "Dice Brewing: your turn",
		Reply:      true,
		MessageID:  id,
		InReplyTo:  []string{"<reply-1@rossi.example>"},
		References: []string{"<rf.g42.1.57.a1b2@example.test>", "<reply-1@rossi.example>"},
		Date:       time.Date(2026, 5, 12, 10, 30, 0, 0, time.UTC),
		Text:       "Applied: PLACE MH1 SEED, MH1+ B3\n\nYour options:\n  1  STORE Y5 G4\n  2  PASS",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := mailmsg.Parse(raw, mailmsg.Options{})
	fmt.Println("outbox key:", id, "envelope from:", envelopeFrom)
	fmt.Println(m.Subject)
	fmt.Println(m.ReplyTo[0].Addr, m.AutoSubmitted, m.References)
	// Output:
	// outbox key: <rf.g42.1.58.q7@example.test> envelope from: referee+bounce.row1234@example.test
	// [g42.1.k7x9q2abcd3e #58] Dice Brewing: your turn
	// referee+g42.1.k7x9q2abcd3e.58@example.test auto-replied [<rf.g42.1.57.a1b2@example.test> <reply-1@rossi.example>]
}
