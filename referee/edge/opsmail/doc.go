// Package opsmail tells the operator by mail when a message is set aside
// (issue 23, rule 2: "a message that has failed N times for any reason,
// crash or error, is set aside with a note to its sender and to the
// operator"). The referee records the message (its quarantine) and tells
// its sender; the intake (mailin.Options.Operator) then calls Notifier.
// SetAside, which queues one mail to the configured operator address
// (operator.address) in the store's outbox, delivered by the SMTP sender
// like every other mail.
//
// The rules:
//
//   - one mail per message set aside, within a daily budget (UTC days,
//     operator.mails_per_day): the count is kept in the store, in the
//     transaction that queues the mail, so it holds across restarts and
//     concurrent intakes; the first set-aside over the budget sends one
//     last mail saying so, the rest of the day's are recorded and logged
//     only;
//   - the mail says what the operator needs and nothing a sender could use
//     against them: the reason and its detail, the transport, the (unverified)
//     From, Message-ID and Subject, the size, and where the message is kept.
//     Every value from the message is cleaned (controls, bidi and invisible
//     characters removed, length bounded) and goes in the body only, never
//     in a header; lines are folded to 80 columns;
//   - the mail is for the operator, not a player: it is written in English,
//     like the log, and carries no tag (replies to it reach the referee's
//     plain address, which answers them like any untagged mail).
//
// It owns the operator's notice of a message set aside: its text, the
// cleaning of every value taken from the message, and the daily budget of
// notices, counted in the store in the transaction that queues the notice
// on the outbox. It must not tell the sender (the core does), deliver the
// mail itself (edge/smtpout does), put a value from the message in a
// header, or touch any store record but the outbox row and its own count.
package opsmail
