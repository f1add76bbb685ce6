// Package tell is the tell stage of the referee's unit of work: it turns
// one game after the apply stage into the mails its seats get, each in
// the reader's language, within 80 columns.
//
// # What it owns, what it must not touch
//
// It owns what a player's mail of a game says and who gets one: the
// choice of the seats that get a mail (NOTIFY every, turn, digest; the
// short news mail; the state left out when only the reader's own moves
// changed it), the rendering of views, prompts, events and rule errors
// through templates/ (Renderer), the echo of a player's message (Reply,
// LineStatus), the receipts that wait for the next mail (receipts.go),
// the Message-IDs and threading of a game's mails, the composing of an
// Outgoing into mail bytes (Composer, through mailmsg.Compose, with the
// reply line of the mail's language first: templates.ReplyLine,
// TestComposerWritesTheReadersReplyLine), and the
// words of a change a game's webhooks carry (Renderer.Hooks: what a
// spectator sees; package referee/hooks builds the calls). A note follows
// its seats when a game's seat order is drawn (Note.Renumber).
//
// It must not read or write the store, read the clock (Input.Now is
// given), use global randomness, log, or import the core (package
// referee): the core hands it plain values and persists what it returns.
// It must not hold a player-facing word in Go (templates/ does), decide
// anything about a game's rules (engine/ does), or complete a mail for
// the outbox (sender, date, bounce address, size cap: the core's
// enqueue). layout_test.go checks the imports, the clock and the sizes.
//
// # The boundary
//
// Teller.Mails takes an Input: the game's names, status and seats
// (Game, Seat: what each has seen, its thread, its held receipt), its
// engine table, its log from the oldest seat's last mail on (Entry),
// what the apply stage changed for each seat (SeatChange) and the notes,
// and returns a Told: the mails in seat order and the seats as told. It
// is pure: the same Input gives the same Told, and the Input is not
// changed. The core gives the entries its unit of work wrote as they are
// in memory (never read back from the store and decoded: issue 25, "one
// reading"); older entries a seat has not seen come through Input.Older,
// which the tell stage calls only when such a seat gets a mail (or its
// NOTIFY mode must look at them).
//
// # Rules
//
//   - A mail that only acknowledges a player's message and asks nothing is
//     a receipt: it waits in the seat's record and rides in the player's
//     next mail when that comes within Teller.ReceiptWindow, else goes
//     alone at the end of the window (the core's tick). While the seat is
//     asked nothing and another player's message moves the game on, its
//     next mail is coming: the window runs again from that message, so a
//     receipt goes alone only when the game stood still for a whole
//     window. Nothing that refuses, answers or announces ever waits;
//     every order is echoed exactly once (receipts.go, issue 22).
//   - A seat reads an event as the log keeps it: in full if it may see it,
//     else its redacted copy, else not at all (engine.Event.For).
//   - A tag is a value (SeatTag, PlayerTag): nothing on the way out writes
//     a tag as text to parse it back; the secret goes in the Reply-To plus
//     address only, never in the subject (issue 11.7).
//   - A seat that changed hands (REPLACE, records.Seat.Before) is named
//     in every mail of its game from then on by every holder who played
//     it and their moves, substitutes marked (the common words
//     seat.holders; the end's result under the seat's line): Stints,
//     Renderer.SeatsHeld (issue 24).
//   - Which holder a name is (issue 24): a seat is named by the player who
//     holds it now wherever the game says who must act or whose position
//     it is (Reader.Seats, Holding: the Waiting line and subject, the
//     summary's rows and turn line, the prompt, rule errors such as
//     not_your_turn's waiting_for, the notes of what the seat's player
//     does, the webhooks' players and waiting); an event line names the
//     player who held the seat at the move of its step (Reader.Before:
//     Old's move 3 stays Old's in a mail, a LOG, the page's log after the
//     hand-over); who played the whole game is every holder (Stints).
//     The seat's name in the game (records.Seat.Name, the engine's) stays
//     the first holder's: the engine and the log replay know it so.
//   - A command a mail shows names each seat as its holder now is known
//     to the reader, in a form the game reads back as that seat (issue
//     24): a menu line and the command an echo says it read
//     (Reader.Command, through the game's engine.SeatNamer: Dice
//     Brewing's "PLAY SHIELD ann:G6@S") keep the game's name of a seat
//     only when its holder now is the one the game knows by that name
//     and no other seat's holder now has the same name in any case; any
//     other seat (handed on, or sharing a name) is written by its number
//     ("P1:G6@S"). A game without a hand-over and with names apart shows
//     its commands as it writes them, byte for byte. Every menu line,
//     copied back, plays the option on the seat it targets
//     (TestMenuLinesNameTheSeatsHolder_Issue24: generated names with
//     cases, quotes, spaces and seat numbers, hand-overs at generated
//     moves to newcomers named like other seats;
//     TestEchoedCommandsNameTheSeatsHolder_Issue24 for the echo).
//   - Every subject fits SubjectWidth runes; every body line the
//     templates lay out fits 80 columns (templates.Fold).
//   - A menu costs a template per option, not two (issue 25): its
//     option.group is rendered once per group and params (groupHeads),
//     and a line whose template reads only the option, the decision's
//     kind, the language, the game and the view's fields indexed by the
//     option's command (templates.Tmpl.OptionKeyed: Dice Brewing's "helps
//     brew", "costs a die"; Fromage's turn lines, View.TurnLines) is kept
//     from one mail to the next, keyed by
//     all of these, the view's values by value (menuLines, the Renderer's
//     one shared state, behind a lock). A group's heading whose template
//     reads the view only by the option's group, never the command
//     (templates.Tmpl.Keyed: Dice Brewing's View.Heads), is kept so too,
//     keyed by the group, not the command; one that reads neither the
//     params nor the command (templates.Reads.Params) is shared by its
//     group alone in a menu and keyed without the params: the menus of a
//     kind find option.group.<kind> before option.group (Heaven & Ale's
//     move menu, issue 25: its headings were rendered once per option;
//     TestMenuRenderedAgainFindsEveryLineKept_Issue25). A line or a
//     heading whose template reads its params by name
//     (templates.Reads.ParamKeys) is keyed, and a heading shared in its
//     menu, by those params only (Heaven & Ale's purchase headings read
//     the tile's prices, not the spot's: once a tile, not once a spot,
//     issue 25; TestParamsReadByNameAreAllTheLineReads_Issue25,
//     TestHeavenAlePurchaseHeadsOncePerGroup_Issue25). An option's params that are
//     lists or maps are keyed by value too (templates.AppendValueKey:
//     Heaven & Ale's move options), and one holding a pointer or a value
//     with methods is rendered every time
//     (TestLineKeyTellsOptionsApart_Issue25). The mail is the one every line
//     rendered afresh gives (TestMenuHeadsSharedAsRenderedEach_Issue25).
//   - What is the same for every mail of a round is made once (issue 24:
//     a round of 5,000 games): a template context's Word and Arg functions
//     once a game and language (wordFuncs, the Renderer's, behind a lock);
//     a menu's option names and two-column rows without copies of their
//     lines (oneSpaced, TestOneSpacedIsFieldsJoined_Issue24).
//   - Nothing kept from one mail to the next changes a mail (issue 25):
//     the menu lines and headings (menuLines) and the texts of tmpl and
//     of every {{template}} call with a value for data (templates'
//     kept.go) are keyed by every input they read, and every
//     mail of a shared Renderer is the mail of one that keeps nothing
//     (TestMailsAsRenderedAfresh_Issue25: random games of the four games,
//     every language, NOTIFY mode and format).
//   - The JSON part (Outgoing.JSON, FORMAT json) is compact JSON: the
//     value json.MarshalIndent wrote before issue 25 (the same fields and
//     values), with nothing between its tokens and <, > and & as
//     themselves (marshalPart; TestJSONPartIsCompactAndTheSameValue_Issue25).
//     Its object is a struct whose keys come in the order a map's did
//     (sorted), so its bytes are those of the map it was, without a map
//     made and its keys sorted at every mail (jsonMail;
//     TestJSONPartKeysAsAMapWroteThem_Issue25).
//     The indentation was a third of the part and its base64 a quarter of
//     the mail, on every byte the referee composes, compresses, stores,
//     sends and the player downloads (on a phone too): mailmsg.Compose
//     writes it as 7bit lines of at most 76 columns between tokens (see
//     mailfmt's doc), which every mail reader decodes to the same value.
//     A game's log at its end (Input.FinalLog) is attached as the core
//     gives it (indented); mailfmt sends it in 7bit lines too. Its fields
//     are the engine's, for programs (a prompt's decision kind, an
//     option's canonical command, group and params: codes a program
//     reads, kept stable); what a person reads of them is beside them in
//     words: option_names are the words of each numbered option in the
//     reader's language, as its menu line in the body shows them (the
//     command as the reader writes it and what the game says of it,
//     without the number, one space between words), option n at n-1, so
//     that a program shows the choices without reading the body. The
//     body's prompt is not repeated (the question is the body's; a copy
//     of the whole prompt was a tenth of a FORMAT json mail), and one
//     short string an option keeps the part in 7bit lines (a JSON string
//     is never broken: a whole prompt in one string was a line too long
//     for 7bit, and the part went in base64)
//     (TestJSONPartWordsTheOptions_Issue25).
//   - The views of one run of Mails share the public standing: the state
//     is adjudicated once for every seat (engine.Views, mailView.view;
//     TestViewsAdjudicateOnce_Issue25).
package tell
