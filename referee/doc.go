// Package referee is the heart of the product: it turns players' commands
// (from mail or a webhook) into moves at the right time and in the right
// order, and tells every player exactly what they need to know.
//
// It is transport-agnostic: it takes authenticated inbound commands and
// produces outbound messages for the outbox, with an injected clock, so it is
// tested without any mail server.
package referee
