// Package referee is the heart of the product: it turns players' commands
// (from mail or a webhook) into moves at the right time and in the right
// order, and tells every player exactly what they need to know.
//
// It is transport-agnostic: it takes authenticated inbound commands and
// produces outbound messages for the outbox, with an injected clock, so it is
// tested without any mail server.
//
// Tournaments by mail are not the core's: they are the desk's, package
// referee/tournament/bymail, behind a narrow interface (desk.go). The core
// hands the desk the tournament rows of its command table, the clock of a
// tournament's wake entry and every game that ends with a result; the desk
// opens, closes and reads games, registers players and queues mail only
// through bymail.Host, which deskHost implements for one unit of work.
//
// A unit of work is all or none (undo.go): an organiser's command, or a
// step of the desk's such as opening a round, that fails after it changed
// something rolls the transaction back, and the unit of work runs again
// without it, answering with the failure.
package referee
