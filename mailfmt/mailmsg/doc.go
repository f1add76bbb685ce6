// Package mailmsg reads and writes a mail message as bytes: Parse turns
// real-world inbound mail into a Message (header fields, addresses, the
// decoded text), FindTag finds who wrote for which game, seat and state,
// VerifyDKIM and AuthResults say who vouches for the sender, and Compose
// writes the referee's mail. It is pure: functions over bytes and strings,
// no network, no clock, no global mutable state, no logging. The reading
// of the player's own text (quotes, signatures, commands, answers) and the
// classification of a message are the parent package mailfmt's.
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
// A line a person wrote that an answer quotes back to them (issue 25: the
// lines no command acted on) goes through QuoteLine: controls and
// invisible or reordering characters removed, white space folded, cut
// with "..." to the width left by its prefix (FuzzQuoteLine).
//
// Rule (issue 25): the JSON part (Out.JSON: a view for FORMAT json players,
// or a game's log at its end) is the same JSON value in the fewest bytes a
// reader of any kind decodes: 7bit lines (Content-Transfer-Encoding: 7bit),
// the given JSON with every non-ASCII character or DEL inside a string
// written as its \uXXXX escape (RFC 8259 7) and CRLF line breaks between
// tokens at JSONWidth columns (after a comma or an opening bracket, before
// a closing one; never inside a string; RFC 8259 2 makes them whitespace),
// no line over MaxLineOctets (RFC 5322 2.1.1). A value with a string too
// long for a line, or bytes that are not JSON, go as they are in base64.
// JSON the caller says is valid (Out.JSONValid: encoding/json's output, as
// the core's views) is not checked again; the same mail comes out, and
// bytes said so wrongly still go as 7bit lines or in base64
// (FuzzJSONLinesSaidValid).
// Measured on the mails of the four games with 2 to 4 players (6,597
// mails, every language): these lines are the compact JSON and 2-3% more
// (line breaks, escapes), quoted-printable of it 4% more (soft breaks,
// '=' and each non-ASCII byte three), base64 37% more; no decoder is
// needed beyond the 7bit every reader has, and the lines compress in the
// outbox as JSON does (base64 barely). go-mail writes a file part's bytes
// as they are only under the label 8bit: Compose relabels it 7bit (a
// relay without 8BITMIME must pass it unchanged, RFC 6152).
// TestJSONPartIsTheSameValueIn7bit reads generated values back with
// go-message, jordan-wright/email, net/mail with mime/multipart and
// Python's email package; TestPlayersAndOrganiserByMail (the mail stack)
// has Dovecot decode a played game's part (IMAP BINARY).
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
//   - bounce tag "bounce.<id>" (the VERP envelope sender of an outbox
//     mail, so that delivery reports name it; BounceID: an ordered part
//     then a MAC of the Message-ID under the referee's secret key, so
//     that an id cannot be guessed).
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
// # For callers
//
//   - Parse the exact bytes received and keep them (Message.Raw): VerifyDKIM
//     needs them unchanged. On ErrTooLarge the returned Message still has
//     the header fields, so the sender can be told.
//   - A command is authenticated by a secret in FindTag's result
//     (Tag.Authenticates) together with the registered From address, never
//     by a Message-ID (those carry no secret). Treat TagResult.Conflict as a
//     rejection, and compare the secret in constant time.
//   - The envelope sender of an outbox row is PlusAddress(referee,
//     BounceTag(rowID)); Classify returns it as Classification.Bounce.VERP.
//   - Compose never reads a clock or a random source: give it the
//     Message-ID (NewMessageID, stored with the outbox row) and the Date. Its
//     output is the outbox payload, sent unchanged on every retry.
//   - Compose runs for every mail the referee writes (issue 25): it does
//     no work whose result the bytes do not carry. The multipart boundary
//     is derived only for a mail with the JSON part; a single-part mail's
//     bytes are the same either way (TestComposeSinglePartNeedsNoBoundary).
//     The JSON part is laid out a run of plain bytes at a time, the same
//     lines as a byte at a time (TestJSONLinesRunsAsByBytes_Issue25), read
//     by go-mail where it is written (no copy first), into a buffer of
//     about the mail's size.
//   - X-Auto-Response-Suppress: All (the default) also stops Exchange's
//     out-of-office replies; set Out.AllowOOF on mails whose answers should
//     feed the absence logic.
//
// It owns a mail's bytes: parsing, decoding, addresses, tags and
// Message-IDs, DKIM, composing. It must not touch the network, the store,
// the clock or the core's records, nor read a player's text for commands
// (mailfmt does): every function takes what it needs and returns a value.
package mailmsg
