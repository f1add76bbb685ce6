// Package mailfmt reads a parsed mail for what the referee needs: what kind
// of mail it is (Classify) and what the player wrote (the commands, the
// answers to a menu), apart from quotes, signatures and chat. Its
// sub-package mailfmt/mailmsg parses and composes the bytes (MIME, charsets,
// HTML, addresses, tags, DKIM). It is pure: functions over bytes and
// strings, no network, no clock, no global mutable state, no logging.
//
// # Inbound
//
// Parse (mailfmt/mailmsg) turns the bytes into a Message: header fields,
// addresses and the decoded text, and FindTag finds its tag; this package
// reads what the player wrote in it.
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
// A caller holds its command keywords as Keywords (NewKeywords):
// Keywords.MailCommands and Keywords.ExtractCommands read with them, so
// that a command line is never taken for part of a quote header, and
// Keywords.IsProse and Keywords.SplitProse tell the prose lines of what
// is left ("here is my move") from the commands. Their typo guard
// compares a word with the keywords one rune longer, shorter or as long
// (issue 25) and answers as trying every spelling one edit away would
// (TestNearAnyAnswersAsNearKeyword, the plain search kept as the test's
// reference; session 15 took the function-only forms IsProse(line,
// isKeyword), SplitProse, ExtractCommandsFor and CommandsFor away, their
// callers were tests). The result is clean text for engine.ParseScript:
// one command per line, '#' comments, "|" alternatives and the rest are the
// engine's business.
//
// # Where a reply's own text ends
//
// ExtractCommands reads a reply from the top and keeps the player's own
// lines. The rules below decide where that text ends; their words (closing
// and greeting words, footers, separator phrases, header field names,
// signature labels, notice words and company forms, per language: en, it,
// fr, nl, de, es, pt and a few more) are data, in words/reply.txt; the
// attribution shapes are in quote.go, the signature marks in signature.go.
// In order of strength:
//
//  1. Quoted lines ('>' always; '|' or ':' when used consistently) are
//     never the player's. Lines around and between them are (bottom-posting,
//     interleaved answers).
//  2. A quote header is what introduces quoted text: an attribution ("On
//     <date> X wrote:", "Il giorno ... ha scritto:", "Le ... a écrit :",
//     "Op ... schreef X:", "Am ... schrieb X:", "X schrieb am ...:", "Am ...
//     hat X Folgendes geschrieben:", "El ... escribió:", "Em ... escreveu:",
//     mutt's "* X [date]:"), with or without its colon, wrapped over two or
//     three lines; whatever the language, a line ending in ':' that holds a
//     date, a time or an address is one too. A header followed by '>'
//     lines is dropped with them and the reading goes on below the quote.
//     Without a colon, an attribution counts only over '>' lines or with an
//     address.
//  3. A cut ends the player's text for good, everything below being a
//     quoted or forwarded mail the client did not mark with '>':
//     - a rule line (five or more of one of - = _ * ~, or a shorter run on
//     both sides of words) framing a separator phrase ("-----Original
//     Message-----", "------- Messaggio originale -------", "=====
//     Ursprüngliche Nachricht =====", "---------- Forwarded message
//     ---------"), or any rule line right above a header block or an
//     attribution ("________________________________", "==========");
//     - a header block: three or more "Name: value" lines within a few
//     lines, a from field and a subject or date field among them, in any of
//     the languages, with any spacing around the colon and with or without
//     the stars of bold ("*From:*", "**De :**", "** De : x **"), starting
//     at the from or the date field (GMX: "Gesendet:" first); in a language
//     without words in the data file, three consecutive "Label: value"
//     lines, none a command, one holding an address and one a date or time;
//     - a dated attribution followed by unquoted text (Outlook for Mac,
//     Yahoo), and any attribution over a header block;
//     - the referee's own "##- ... -##" line under any quote prefix,
//     whole or wrapped by a client over two or three lines (Outlook wraps
//     plain text at a width its user sets, 30 to 132 columns, Exchange at
//     72): a line opening the frame and the next lines under the same
//     prefix up to one closing it; a quoted opening whose rest the client
//     left unquoted makes the rest quoted (TestWrappedReplyLineCutsTheQuote).
//     A separator or header block followed by '>'-quoted lines (Proton:
//     "------- Original Message -------", "On ... wrote:", "> ...") is a
//     quote header instead (rule 2): the lines below the quote are kept.
//  4. A line that reads as a command (it starts with a keyword, an option
//     number or an upper-case word, or holds a board coordinate) is never
//     part of a quote header, except inside a wrapped attribution whose
//     last line ends with an address and a colon ("Op di 12 mei 2026 om
//     10:14 schreef" / "Pas Referee <x@y>:").
//  5. Signatures: nothing that answers the referee is hidden by a mark
//     above it. An answer line starts with a keyword, an option number
//     ("2", "2)", "#2", "(2)", "“2”") or an option word and number ("option
//     2", "opzione 2", "choix 2", "optie 2"). "-- ", "--" (when a name,
//     address or closing word follows) and a bare rule line start a
//     signature that runs to the quote, to the next answer line, or to a
//     later paragraph that is no signature (a line that is neither a mark,
//     a name, a title, a footer nor a long notice line): a player who types
//     below their own signature is read. A mobile or webmail footer ("Sent
//     from my iPhone", "Inviato da iPhone", "Envoyé de mon iPhone",
//     "Verzonden vanaf mijn iPhone", "Von meinem iPhone gesendet", "Enviado
//     desde mi iPhone", "Get Outlook for Android") is one line of signature
//     by itself, wherever it stands: above the answer (the player typed
//     below it) or below it, the reading goes on.
//  6. Business signatures without "-- ": in the run of lines at the end of
//     the player's text that holds no answer line and no short line (four
//     words at most) other than marks and names, the lines from the first
//     signature mark on are a signature, with the name, title and company
//     lines right above the mark. A mark is a contact or register label at
//     the start of a line (Tel., Fax, Mobil, Sitz:, HRB, Amtsgericht,
//     Geschäftsführer, USt-IdNr, IBAN, BIC, P.IVA, REA, SIRET, RCS, TVA,
//     KvK, BTW, CIF, NIF, ...), a certification (ISO 9001), a legal or
//     confidentiality notice word (confidential, riservato, confidentiel,
//     vertrouwelijk, vertraulich, confidencial), a company legal form as
//     written (GmbH, AG, S.r.l., SARL, B.V., S.L., Lda, Ltd), or by
//     structure an e-mail address, a URL, a phone number or a postal code
//     and town; addresses and postal codes alone make no signature (an
//     organiser's "player ann@x Ann" lines). A line whose first word is an
//     upper-case word is a command there unless it opens with a label or
//     names a company ("IBAN ...", "ACME GmbH"). Chat above the answer that
//     holds such marks ("my new address is ...") is the player's and stays.
//     Signatures under a sign-off, without "-- " (issue 25): below a
//     closing line ("Best regards,", "Ciao!", "Grüße,", "Cheers", "Bien à
//     vous", "Groetjes"), or below the sender's name opening the last
//     paragraph, with the player's text above it, the lines to the end
//     (at most eight, ten words each) are a signature when none of them
//     may be a command: a name, a title ("CEO": a word in capitals of
//     three letters at most), a company ("ACME GmbH"; one whose first word
//     is a keyword of some game, not in capitals, named by a legal form
//     later and no digit: "Birrificio Rossi S.r.l.", "Brew Co Ltd", since
//     no command's arguments are a legal form), a street that
//     starts with a keyword or a number ("Piazza Duomo 1", "Piazza del
//     Duomo, 1", "221 Baker St", "Hauptstr. 12": capitalised words and a
//     house number, no board coordinate, no keyword in capitals), a
//     building ("Bâtiment B, 3e étage"), a '|' line none of whose parts
//     may be a command. A line
//     that may be a command keeps every line there for the reader, so it
//     is played or refused with a hint, never hidden: the engine's
//     comment or syntax with a part that may be a command, a keyword
//     first (not a street), a typo of one in capitals or with a digit, a
//     number or option form (not a street), a word in capitals that is
//     no company, label or short title ("WITHDRAW cup ann@x": a keyword
//     the caller may not know), a keyword in capitals later, or a board
//     coordinate with a keyword (signoff.go;
//     TestSignatureUnderSignOffIsNoCommand, 5 languages x 4 layouts x
//     answer forms, and commands typed below the sign-off still read).
//     The closing line and a name right below it are listed (rule 7).
//     Signatures by their place, with no sign-off, "-- " or sender's name
//     above them (session 13): when the caller's keywords are known, the
//     lines at the end of the player's text below an answer line (at most
//     eight, ten words each) are a signature from one that may head a
//     signature (a name, a company, a title, a street, a '|' line of
//     those), opening a paragraph or naming a company ("2" / "ACME GmbH"
//     / "CEO" / "Piazza Duomo 1"), when none of them may be a command of
//     the caller (the test above, with the caller's keywords) and one is
//     shaped as a signature line: a company, label or notice, a contact
//     mark, a street, a title in capitals of three letters at most, or a
//     '|' line with such a part (signoff.go, markPlacedTail). A street
//     that starts with a keyword or a number ends a "-- " signature (an
//     answer line), and then is such a tail by itself ("-- ", "Anna",
//     "Piazza Duomo 1, 20121 Milano"). The caller's keywords are every
//     game's: a company named by a keyword of a game ("Birrificio" is one)
//     may be a command and stays.
//     TestReplyShapesPlayTheMove (46,200 whole messages: 5 languages x 12
//     signatures x 11 answer forms x 7 client layouts x 5 encodings) reads
//     the move in every one and nothing the engine would refuse.
//  7. Closing lines at the very end (at most three: closing words, the
//     sender's name, a name below a closing word or glued to "--") and
//     greeting lines at the very start (at most two) are removed and
//     listed; a line that reads as a command never is one, so "Hi! PASS",
//     "Hallo,PASS", "PASS - cheers" and "Ciao, 2" stay whole.
//
// TestGeneratedReplies crosses every layout of these rules (attributions
// plain, wrapped, without colon; separators; header blocks plain, spaced,
// bold, starred; signatures, footers, business blocks and notices in each
// language) with every answer form of issue 20, top-posted, bottom-posted
// and interleaved; testdata/corpus holds the real-client layouts.
//
// AnswerReader (see "Answers" below) reads each line of that text as the
// player meant it: an option number, a command, chat, or a question.
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
// # Conventions
//
// Command block markers: a player who wants certainty writes a line
// "#begin" before the commands and a line "#end" after them (any case, alone
// on a line; the engine reads them as comments). Only the text between the
// first "#begin" of the player's own text and the next "#end" counts;
// markers in quoted text never count. Without "#end" the block runs to the
// quoted part or the end of the message.
//
// The referee's mails start with a line "##- ... -##", the reply line
// (Out.ReplyLine). Its words are the caller's, in the reader's language
// ("##- Please write your reply above this line -##", "##- Scrivi la tua
// risposta sopra questa riga -##", ...: templates/referee/<lang>/replyline.tmpl);
// this package holds only the English default (DefaultReplyLine), for a
// caller without a reader's language. The frame is the reader's rule:
// Commands treats a line "##-" ... "-##" (at most 200 characters between),
// under any quote prefix ("> ", ">> ", "> > ", "| ") or none, in any words
// and any language, as the start of a quoted referee mail, so a reply whose
// quote header is unknown never yields the referee's own text, and a reply
// to an old mail (the English line) or to a mail of another language than
// the player's current one is read the same. A line keeps to one line of
// at most 60 characters (templates checks it at load), so that no client
// wraps it, even under three levels of quoting at 72 columns, and
// quoted-printable needs no soft break in it; it may hold non-ASCII letters
// (French "réponse"): the frame is ASCII, and a reply re-encoded
// (quoted-printable with soft breaks, ISO-8859-1) or sent as HTML only is
// decoded before it is read. TestReplyLineGeneratedReplies crosses every
// language's line and the old English one with the client layouts of
// every player language and every answer form;
// TestReplyLineParsedInEveryEncoding sends the replies where the line is
// the only mark of the quote through Parse in those encodings.
//
// # Answers
//
// What a line that answers a menu looks like, and what counts as chat
// (issue 20; AnswerReader, with the words of every language from the
// caller, templates/referee/<lang>/answers.txt). A line is read as
//
//	[chat] answer [chat]
//
// and these rules decide each part:
//
//   - An option number form is an optional option word ("option",
//     "opzione", "choix", "optie", "nr", "n°" or "nº", any case, glued
//     to the chat before it or not: "Hi!option 2"), then the number 1-999
//     with any opening and closing marks around it: 2, 2., 2), 2:, #2,
//     (2), [2], "2", “2”, 2!. A number glued to letters ("2nd", "10K") is
//     none. It means option n of the prompt answered; the engine refuses a
//     number that prompt did not offer, naming the menu's range. An option
//     word that is a common word alone counts with its dot ("No. 2", "n.
//     2", "Nr. 2"; words/reply.txt [option-dotted]); an option word glued
//     to an emoji is one ("👍option 2": a command or a number may start
//     after an emoji as after punctuation).
//   - An option in words (five languages; words/reply.txt [cardinal-n],
//     [ordinal-n] for 1 to 10, [number-parts] for 11 to 99, past the
//     longest menu of the four games, 50): a cardinal or an ordinal
//     after an option word ("option two", "opzione due", "choix deux",
//     "optie twee", "Option zwei"), or an ordinal after an article or
//     before "one" or an option word ("the second one", "la seconda", "la
//     deuxième", "de tweede", "die zweite", "second option"), with chat
//     words only after it. Past ten the words are built from their parts
//     by each language's rule (numberwords.go numberWordsOf: "twenty-one",
//     "ventuno", "vingt et un", "eenentwintig", "einundzwanzig", their
//     ordinals "twenty first", "ventunesima", "vingt et unième"), read in
//     any case, without accents, with hyphens, spaces or neither between
//     the parts; the longest number word is read ("option twenty first"
//     is 21, never 20 then chat). Anything else is no answer ("the first
//     time I played"; "second" alone; "option twenty hundred"), at most
//     a hint (TestNumberWordsReadAsTheirOption,
//     TestNumberWordsPastTenReadAsTheirOption).
//   - An article elided onto the next word by an apostrophe, straight or
//     typographic (words/reply.txt [elided-article]: Italian and French
//     "l'"; the other languages elide none before a number or an option
//     word), is an article of its own: "l'ottava", "l’undicesima",
//     "l'option deux", "L’opzione 2" (TestElidedArticleBeforeAnOption).
//   - A street address is no option and gives no hint (session 14): a
//     house number before or after a street word or suffix, in the shape
//     of streets (capitalised words, no keyword in capitals, no board
//     coordinate): "221 Baker St", "12 rue de la Paix", "Via Roma 3",
//     "Kerkstraat 12", "Hauptstr. 5" (words/reply.txt [street-word],
//     [street-suffix]). The line is chat (IsProse and the reader alike),
//     unless its first word is a keyword ("Piazza Duomo 1": left for the
//     engine; TestStreetIsNoOption). So is a postal code and its town
//     alone on a line ("20121 Milano", "1017 GC Amsterdam", "D-10115
//     Berlin", "75002 PARIS": no option is over 999 and no command starts
//     with a number), unless a word of it is a keyword in capitals
//     (TestPostalLineIsNoCommand; before, under a name that is not the
//     sender's, it was refused and the whole mail with it).
//   - A copied menu line is a number form without option word followed by
//     a command ("2) PLACE HP1 SEED", "  2) HOME RES YE   # that marker
//     +2"); a '#' description is dropped. It is option n with the command
//     as AnswerLine.Copied, and the number and the text must agree: when
//     option n is another command, neither is played and the player is
//     told both (engine.CodeCopiedOption). A '#' followed by a digit is a
//     number, never a comment.
//   - A command starts with a keyword of the game or the referee in any
//     language and any case ("pass", "Pass"), or with a word of four
//     letters or more one edit (Damerau: an insertion, a deletion, a
//     substitution or a transposition of neighbours) from exactly one
//     canonical keyword ("paas", "plcae", "STROE"), which is read as it and
//     reported (AnswerLine.Typo). A word one edit from several keywords is
//     not read: the player is asked (AnswerAsk, AnswerLine.Candidates). A
//     chat word is never a typo, nor is a common word of the languages
//     one edit from a keyword ("past", "mine", "donc": the "words" lists).
//   - Chat before the answer is at most six words, either chat words only
//     ("ciao", "Hi all") or a sentence ending in punctuation ("Hi!",
//     "Hallo," glued or not, "Ok:"). Before an option number the sentence
//     must start with a chat, greeting or closing word ("Dear referee,
//     2") or be two words or more that are not a name ("I choose: 2"): a
//     word alone before a number is a label or a street and the number
//     its value ("PS: 2 more days", "Hauptstr. 12", "Via Roma, 12": prose,
//     no option and no hint). IsProse and the reader share this rule
//     (numberLead): a line in which the reader reads an option is never
//     prose (FuzzIsProse). After chat, or mistyped, a keyword not
//     in capitals followed by a sentence is no command ("Hi, done for
//     today", "Past turns were fun").
//   - Chat after the answer is its last eight words at most: no letter or
//     digit (emoji, "!!"; punctuation alone is simply dropped); a sentence
//     set off by a dash, "!", "?", "." or ":" ("PASS - cheers"); or chat
//     words only after any of these or a comma ("PASS, thanks"), or after
//     a number ("2 please"), or not in capitals after arguments all in
//     capitals ("PLACE HP1 SEED thanks", "BUY HO2 S1 grazie mille";
//     TestReplyShapesPlayTheMove); "NOTE hello" keeps its argument. After
//     a bare number any sentence is chat ("2 because I like it"); after a
//     comma only chat words are, since commas also separate arguments
//     ("PRENDI struttura, bestiame"). A free-text command (SAY) has no chat
//     after it. The text read is read as itself: chat is split off the
//     arguments again until none is left ("BREW!A!A": BREW).
//   - The engine's own syntax is left as written: lines with '|' or ';'
//     one of whose parts may be a command (a line none of whose parts can
//     be one is prose: "Brewers' Circle | Milano"), comments and
//     #begin/#end, lines with a hidden character (U+FFFD), lines over 300
//     bytes.
//   - A line that can be nothing the game or the referee would run is
//     prose: every command of every game starts with a keyword (the
//     engines' parsers dispatch on the first word), so a line whose first
//     word is no keyword, no typo of one, no number or option form and
//     none of the engine's syntax is prose even with digits or capitals in
//     it, unless it holds a keyword in capitals later ("I PLAY SHIELD":
//     refused with a hint), a keyword and a digit ("Hi, place it at
//     MH3"), an option word and number later ("I choose option 2"), or
//     starts with a word in capitals not followed by ':' ("PLACE MH3 K5" of
//     another game). So signature lines without "-- " ("Brauerei Straße
//     5, Zürich", "Tel. +49 30 123456", "PS: 2 more days", "Sent from my iPhone
//     15", "www.acme24.example") never make a player's commands fail
//     (TestSignatureLinesNeverCommands, TestProseKeepsWhatMayBeACommand).
//     A signature line that starts with a keyword ("Piazza Duomo 1") is
//     ambiguous on its own: left for the engine to refuse, never dropped;
//     under a sign-off it is decided by its place (rule 6).
//   - Any other line is chat when it is prose (IsProse) or made of chat
//     words only, in any case ("THANKS!"), else it is left
//     as written for the engine to refuse with its reason. Either way
//     AnswerLine.Hint names what it may have meant: its first number form
//     followed by nothing or chat words, or its first keyword written in
//     capitals or alone ("I choose option 2 please": 2), a keyword of one
//     letter only at the start of the line ("Bâtiment B", "Scala B": a
//     building or an initial, no hint "B").
//
// So every line is a command, an option, chat, or a question, and the
// caller can say which for every line (the referee does: never silent).
//
// # For callers
//
//   - Answer only Classify(...).Class == Normal. Pass every address the
//     referee sends from as self (base addresses; plus addresses match).
//   - Echo CommandInfo to the player (markers used, quote or signature
//     removed, lines outside the markers) so a heuristic mistake is visible.
//
// It owns the reading of a mail's text: its kind, the player's own lines,
// their commands and answers. It must not touch the network, the store, the
// clock or the core's records, nor parse or write bytes (mailmsg does):
// every function takes what it needs and returns a value.
package mailfmt
