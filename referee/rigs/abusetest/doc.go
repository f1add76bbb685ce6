// Package abusetest is the abuse suite of issue 11 ("Trust under abuse"):
// the running daemon, a real process over a real Dovecot and Postfix
// (referee/rigs/mailstack) and its HTTP front door, gets the hostile inputs of
// the probe that found the issue: mail bombs, forged senders, resent and
// stale numbered replies, auto-responders, out-of-office subjects over real
// commands, forged bounces, hidden characters, a message that kills the
// process, and floods of unsigned or replayed webhook posts. It asserts
// that nothing unauthorised changes the game, that every genuine seat mail
// is answered, that nothing loops, that memory stays bounded (the
// daemon's peak RSS is read from /proc), and that nothing is lost.
//
// Issue 23 ("nothing one sender can do stops the referee") added, in
// trust_test.go and the probes above, each with the count before the fix
// (from the probe or a test run on main) and after:
//
//   - 14 REGISTERs with hostile display names (unbalanced quote, trailing
//     backslash, bidi override, zero-width, encoded-word look-alike, 240
//     characters), over IMAP and the signed webhook, authenticated by our
//     authserv-id: before, every mail to such a name failed to compose and
//     was retried for ever (IMAP stalled, webhook 503); after, one
//     confirmation (once a day per address), the raw-quote From that does
//     not parse quarantined, the intake moves on;
//   - 60 fuzzed whole mails (hostile names, mutated head bytes), half over
//     IMAP, half over the webhook: no 5xx, the intake moves on;
//   - 20 forged REGISTERs (half with another server's
//     Authentication-Results): before one confirmation per address (1,000
//     mails for 1,000 forged REGISTERs), after none;
//   - 500 slow connections (slow headers, trickled 1 MiB bodies) while 5
//     signed posts, /healthz and /t/ are made: before four slow posts took
//     every slot (503), after 5/5 posts 200 at once;
//   - <U+202E>PASS, PASS<U+2069>, a Cyrillic A, fullwidth PASS: refused
//     (before, <U+202E>PASS was played);
//   - page headers on /t/, an unknown page, a game page; the commands
//     endpoint for an unknown game and a bad token (before 404 vs 401, after
//     the same 401); List-Id, Precedence: bulk and X-Loop mail from alice
//     (before dropped silently, after not applied and told once a day);
//   - Mailgun (its signature covers no message): a captured signature
//     posted first with a forged PASS, then the genuine unsigned STATUS,
//     its retry, and a post with our own Authentication-Results written
//     in: before, the first body posted under a token was applied; after,
//     a posted body acts only with its own aligned DKIM signature, so
//     none of the four acts and alice is told at most once; with the
//     API key (a fake Mailgun storage API over TLS), a store(notify=...)
//     post with the captured signature, a forged body and the genuine
//     storage URL makes the genuine STATUS act, answered once;
//   - the mail that kills the daemon: the operator (operator.address, a
//     mailbox of its own) gets a mail saying it was set aside.
//
// Sessions 14 and 15 added person-shaped replies (replies_test.go
// keywordCompany, people_test.go personShapedAnswers): alice answers in
// Gmail, Outlook, Apple Mail and Thunderbird layouts and encodings with
// each reading rule of mailfmt doc.go "# Answers" in two languages or
// more (number words past ten, an elided article, "No. 2", an emoji
// glued before the option word, a street or a postal code and town in
// her text or signature); the very option named is played and nothing
// refused (before session 15, "1017 GC Amsterdam" under a name not the
// sender's was refused and the move not played).
//
// The suite is TestAbuseSuite (abuse_test.go: the daemon, the helpers and
// the final check), its probes one file per attack family: forgery_test.go
// (forged senders and bounces), floods_test.go (oversized mail, bombs, the
// mail that kills the daemon), replies_test.go (stale numbers,
// auto-responders, out-of-office subjects, hidden characters),
// frontdoor_test.go (the webhook front door), trust_test.go and
// mail_test.go (issue 23's probes), people_test.go (person-shaped
// answers). Like referee/rigs/crashtest it needs the
// project's mail stack (Dovecot and Postfix installed, run as root) and
// skips without it unless REFEREE_MAILSTACK=require.
//
// It owns the abuse scenarios and their checks. It must not be linked into
// the binary (a test rig).
package abusetest
