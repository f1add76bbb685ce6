// Package mailfmt turns real-world inbound mail into what the referee needs
// (who wrote, for which game, seat and state, and which commands) and
// composes the referee's outgoing mail. It is pure: functions over bytes and
// strings, no network, no clock, no global mutable state, no logging.
//
// # Inbound
//
// Parse reads a raw RFC 5322 message (size-limited, see Options). Header
// fields are read with go-message (addresses with quoted commas and encoded
// words in any charset, Message-IDs, dates), never from
// jordan-wright/email's mangled strings. The body is walked with
// go-message's MIME framing; each text part is transfer-decoded (any case
// of the encoding label) and converted to UTF-8 from its declared charset
// (ISO-8859-1 read as Windows-1252; undeclared 8-bit text guessed),
// text/plain is preferred over HTML (HTML-only mail is converted by
// HTMLToText), format=flowed is undone, attachments are ignored, and the
// text is normalised (line endings, quoted-printable debris, smart quotes,
// exotic spaces, invisible characters, NFC). jordan-wright/email lists the
// attachments (names and types only); its text, address and subject fields
// are never used, because it converts no charset, keeps only the last text
// part, misses upper-case "BASE64" and splits addresses on quoted commas.
//
// Classify sorts a message into Normal, AutoReply (with an absence return
// date when one is written), Bounce (DSN or classic, with failed recipients,
// status codes, the original Message-ID and the VERP tag), List and Self.
// The referee answers Normal mail only (RFC 3834).
//
// Commands (and ExtractCommands for bodies given as text) returns the
// player's own new text: quoted replies, forwarded messages, signatures and
// closing lines removed, for Gmail, Outlook (desktop, web, iOS, Android),
// Apple Mail and iPhone, Thunderbird, mutt and K-9, with reply headers in
// English, Italian, French, Dutch and German (and Spanish, Portuguese,
// Polish, Lotus Notes, Zoho, French and Italian webmails, and a
// language-neutral rule for the others), top-posted, bottom-posted or
// interleaved. Quoted lines ('>', or a consistent '|' or ':') are never
// returned; greetings and closing lines are removed and listed.
// CommandsFor takes the caller's command keywords so that a command line
// is never taken for part of a quote header; IsProse and SplitProse tell
// the prose lines of what is left ("here is my move") from the commands. The result is clean text for engine.ParseScript: one command
// per line, '#' comments, "|" alternatives and the rest are the engine's
// business.
//
// FindTag identifies the tag of a message from, in order of trust, the plus
// part of the recipient fields, the subject tag and the referee Message-IDs
// in In-Reply-To and References (which never carry a secret).
//
// AuthResults, VerifyDKIM and Aligned help authenticate the sender beyond
// the secret: the trusted Authentication-Results field of the receiving
// server, DKIM verification of the exact received bytes (with an injected
// DNS TXT lookup), and DMARC-style alignment by organizational domain.
//
// # Outbound
//
// Compose renders a referee mail with go-mail, byte-for-byte
// deterministically, marked Auto-Submitted, with a Reply-To plus address
// carrying the recipient's tag and a subject tag.
//
// Rule (issue 23): every string that reaches a header is made safe where it
// enters, and no input can make Compose fail. Display names, whatever their
// origin (a From field, REGISTER, an organiser's PLAYER or ENTER), go
// through CleanName (controls and invisible or reordering characters
// removed, white space folded, at most MaxNameRunes characters) and are
// written by net/mail's address formatting through go-mail's *MailAddress
// setters, never as a hand-built "name" <addr>. What Compose still refuses
// (a bad Message-ID or address) is a permanent error (Transient() false),
// so that no transport retries it for ever.
//
// # Conventions
//
// Identifiers:
//
//   - game ids: [a-z][a-z0-9]{1,23};
//   - seat numbers: 0-based decimal (0 to 99);
//   - secrets (seat, player, organiser): 12 to 32 characters; generate them
//     in lower-case base32 [a-z2-7]; the parser accepts [a-z0-9];
//   - state tokens: decimal move numbers (at most 18 digits);
//   - bounce ids: outbox row ids, [a-z0-9]{1,64}.
//
// Tags, case-insensitive on input and lower-case on output:
//
//   - seat tag "<game>.<seat>.<secret>", followed by ".<token>" in addresses:
//     "g42.1.k7x9q2abcd3e.57";
//   - player tag "p.<secret>" (a registered player acting outside a game:
//     LIST, JOIN <game>, OBSERVE);
//   - organiser tag "org.<secret>";
//   - bounce tag "bounce.<id>" (the VERP envelope sender of outbox row id,
//     so that delivery reports name the row).
//
// The Reply-To the referee sets is "<local>+<tag>@<domain>", for example
// "referee+g42.1.k7x9q2abcd3e.57@example.test" (PlusAddress). The subject
// tag is "[<tag> #<token>]": "Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing:
// your turn", or "[g42 #57]" without the secret (SubjectTag). A bracket
// holding only a game id counts only with a token. Any reply or forward
// prefix (Re:, AW:, R:, RE:, Fwd:, TR:, Antw:, Doorst:, ...), other bracket
// tags and extra spaces are tolerated (ParseSubjectTag, CleanSubject).
//
// Message-IDs the referee assigns are "<rf.<game>.<seat>.<token>.<nonce>@<domain>>",
// the seat being "x" for mails not tied to a seat (NewMessageID,
// ParseMessageID). All Message-IDs in this package's API carry their angle
// brackets. A message without Message-ID gets
// "<digest.<hex>@mailfmt.invalid>", a digest of its non-trace header fields
// and body (Message.MessageIDDigest is then true), stable across
// redeliveries.
//
// Command block markers: a player who wants certainty writes a line
// "#begin" before the commands and a line "#end" after them (any case, alone
// on a line; the engine reads them as comments). Only the text between the
// first "#begin" of the player's own text and the next "#end" counts;
// markers in quoted text never count. Without "#end" the block runs to the
// quoted part or the end of the message.
//
// The referee's mails start with a line "##- ... -##" (DefaultReplyLine).
// Commands treats such a line, when not quoted, as the start of a quoted
// referee mail: a reply whose quote header is unknown still never yields
// the referee's own text.
//
// # For callers
//
//   - Parse the exact bytes received and keep them (Message.Raw): VerifyDKIM
//     needs them unchanged. On ErrTooLarge the returned Message still has
//     the header fields, so the sender can be told.
//   - Answer only Classify(...).Class == Normal. Pass every address the
//     referee sends from as self (base addresses; plus addresses match).
//   - A command is authenticated by a secret in FindTag's result
//     (Tag.Authenticates) together with the registered From address, never
//     by a Message-ID (those carry no secret). Treat TagResult.Conflict as a
//     rejection, and compare the secret in constant time.
//   - The envelope sender of an outbox row is PlusAddress(referee,
//     BounceTag(rowID)); Classify returns it as Classification.Bounce.VERP.
//   - Compose never reads a clock or a random source: give it the
//     Message-ID (NewMessageID, stored with the outbox row) and the Date. Its
//     output is the outbox payload, sent unchanged on every retry.
//   - X-Auto-Response-Suppress: All (the default) also stops Exchange's
//     out-of-office replies; set Out.AllowOOF on mails whose answers should
//     feed the absence logic.
//   - Echo CommandInfo to the player (markers used, quote or signature
//     removed, lines outside the markers) so a heuristic mistake is visible.
package mailfmt
