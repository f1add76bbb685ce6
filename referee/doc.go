// Package referee is the heart of the product: it turns players' commands
// (from mail or a webhook) into moves at the right time and in the right
// order, and tells every player exactly what they need to know.
//
// Rule (issue 22, receipts.go): a mail that only acknowledges a player's
// message and asks nothing is not worth a mail of its own. It waits in the
// seat's record, rides in the player's next mail when that comes within
// Options.ReceiptWindow, and goes alone at the end of the window otherwise;
// nothing that refuses, answers or announces ever waits, and every order
// is echoed exactly once.
//
// It is transport-agnostic: it takes authenticated inbound commands and
// produces outbound messages for the outbox, with an injected clock, so it is
// tested without any mail server.
package referee
