// Package guard holds the abuse guards of the referee (issues 11 and 23):
// the rules that keep one mail from costing more than a mail's worth and a
// robot from talking to the referee forever.
//
// It owns the limits and their defaults (orders and informational commands
// per mail, the size of a reply, of a logged input, of an organiser's mail,
// a SAY, an option), the per-mail caps (Caps.Apply: an informational
// command repeated in a mail is answered once, beyond MaxInfo the rest are
// not answered, beyond MaxOrders no order is read), the recognition of a
// stale resend (StaleResend, Remember) and of a loop or auto-responder
// (CountBody: the third identical body of a day is not answered), the
// clipping of what is logged and sent (ClipInput, ClipBody), the
// addresses a bounce makes fail (BounceFailed: only the address the mail
// of its VERP id went to) and the quoting of a remote server's text for a
// reader (BounceReason, Quote: no control or format character, a few
// short lines), and the tells of a
// disguised or mistyped command (Disguised, Shouted), and the throttle of
// an answer a forged From could ask for at will (Throttle: an organiser
// who writes to the plain address gets their address back at most once
// per OrgHelloEvery).
//
// It must not read or write records, the store, the clock or a template:
// it decides on what the core gives it (the seat's remembered inputs and
// bodies, the time, the keywords it knows) and the core (referee/abuse.go,
// request.go, organiser.go) applies the decision and words the note. Silence is its only
// output to a sender; a refusal is always worded by the core.
package guard
