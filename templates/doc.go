// Package templates holds every word a player or organiser reads, in
// English (en), Italian (it), French (fr) and Dutch (nl), as text/template
// files embedded in the binary.
//
// # Layout
//
//	templates/languages.txt               the languages, English first
//	templates/<scope>/<lang>/*.tmpl     the templates of one scope and language
//	templates/<scope>/<lang>/aliases.txt  command keyword aliases ("PASSA = PASS")
//	templates/<scope>/<lang>/args.txt     argument word aliases ("COMPLETO = FULL")
//	templates/<scope>/<lang>/answers.txt  words around an answer (chat, words)
//	templates/common/<lang>/dates.txt     day and month names
//	templates/common/<lang>/grammar.txt   counts that take the singular, vowels
//	templates/referee/<lang>/replyline.tmpl  the first line of every mail, "##- ... -##"
//
// README.md says what each file is and how a language is added.
//
// # Rules
//
// Every word a player or an organiser reads, and every word of theirs the
// referee reads in their language, is in this tree: no Go map or slice
// outside it holds one, and no Go code names a language (issue 25). A mail
// to a reader of a language carries no word of another (issue 22): codes
// and commands in capitals, names and titles excepted
// (referee.TestEveryWordInTheReadersLanguage plays whole games of the four
// games in every language and checks every mail). A count agrees with its
// noun and an article elides by the language's grammar.txt, through the
// template functions plural, count and elide; the words are the
// template's.
//
// No error's own text reaches a reader (issue 25): where a template fails
// to render (a template's bug), the caller logs the error and the reader
// reads Set.Internal, the referee's "internal.error" in their language,
// rendered once at load so that it cannot fail when it is needed
// (referee.TestTemplateFailureShowsFixedWords_Issue25 breaks templates in
// a loaded set and checks the mails).
//
// A scope is "common" (words shared by every game: generic error codes,
// numbers, seat lists), "referee" (the mails the referee sends: invitations,
// summaries, rejections, reminders, organiser announcements) or a game name
// ("dicebrewing", "fromage", ...). All the .tmpl files of one scope and
// language are parsed together, so their {{define}}s can call each other,
// and the "common" templates of the same language are available to them.
//
// # Names
//
// Game scopes define, per language:
//
//	summary           the personalised view (data: Ctx with the engine's view)
//	prompt.<kind>     the question of a decision kind (data: Ctx with a Prompt)
//	option.<kind>     one menu line (data: Ctx with an OptionData)
//	option.group      a menu group's rank and heading (option.group.<kind>
//	                  first, when defined: OptionData's doc)
//	event.<type>      one log line for an event type (data: Ctx with the event)
//	error.<code>      one line explaining a rule error code (data: Ctx with the error)
//	help              the game's command overview; help.<COMMAND> per command
//	rule.<id>         the text of a rule, for the RULE command
//
// The referee scope defines "replyline" per language (replyline.tmpl): the
// first line of every mail the referee writes to a person, "##- Please
// write your reply above this line -##" in the reader's words (ReplyLine;
// referee/tell's Composer passes it to mailmsg.Compose). The line is a
// template; its frame, ReplyLineOpen "##- " and ReplyLineClose " -##", is
// the reply reader's rule (mailfmt reads any "##- ... -##" line as the
// start of the referee's quoted mail, in any words), so a reply quoting
// the line of another language, or an old English one, is read the same.
// Load renders every language's line and refuses one that is not one
// framed line of at most MaxReplyLineRunes (60) characters, short enough
// that no client wraps it under a quote (TestReplyLineOfEveryLanguage).
//
// Render looks a name up in the scope and language asked, then in the
// scope's English, then in "common" (language, then English), so a missing
// translation never breaks a mail; the package tests insist that every name
// defined in English exists in the other three languages too.
//
// Templates run with missingkey=error: a misspelt field fails the tests.
//
// A seat is named by who holds it now wherever a template says who must
// act or whose position it is (issue 24, the rule in referee/tell/doc.go):
// by its number through the Ctx, {{$.Name .Seat}}, never by the name an
// engine's view carries (the seat's first holder, as the engine knows it).
// A view row without a seat number gets one (fromage's StandView, Warn,
// ReportLine: Seat, left out of the JSON); wherever a view or an event
// names a player in a string or a list ("faces ann", "C01 ann", "ann,bob",
// "MH:ann", a turn report's rows) it carries the seat too (fromage's
// FacesSeat, OwnerSeat, BySeat, LeaderSeats, EndBySeats, PickingSeats, the
// report's "seat"; dicebrewing's Blocks), and the template names it by
// Ctx.Who / WhoAll: the holder now, or the view's own word for what is no
// seat (the Corporation). A name is never matched back to a seat: two
// seats may have the same name. With no seat handed on the text is the
// view's (TestEveryLineNamesTheSeatsHolder_Issue24 in referee). A command
// a menu line shows ({{$.KwLine $o.Cmd}}) is the game's text; the tell
// stage writes its seats as their holders now are known, by number after
// a hand-over (tell.Reader.Command, TestMenuLinesNameTheSeatsHolder_Issue24
// in referee/tell), so a template never rewrites a command's names.
// KwLine gives back the line itself, not a copy, when no word of it
// changes (an English reader's menu: issue 24,
// TestKwLineAsByParts_Issue24).
//
// # Cost
//
// Rendering is most of the referee's CPU per player mail outside the store
// (issue 25: a seat's mail is its frame, its summary, its prompt and a line
// per event). So the templates are parsed once per process (Load), and the
// render path does no work per call that could be done at load: a look-up
// builds no key string (the maps are keyed by scope and language), Render
// and tmpl execute into pooled buffers and tidy in one pass, and the
// template functions write strings and ints without fmt. Render allocates
// what text/template's Execute does plus the string it returns, and Has
// nothing (TestRenderAllocations). A table written in a template as a dict
// of string literals is built once at load (fold.go). Find returns a
// template to render many times, and says whether its text reads nothing
// but the option, the decision's kind, the language and the game
// (Tmpl.OptionOnly, checked on the parse tree at load, reads.go), or
// that and the view only as {{index $.Data.View.F <the option's
// command>}} (Tmpl.OptionKeyed: the fields F; AppendViewKey writes their
// values for a key, by value, and refuses a value holding a pointer): a
// prompt's menu keeps such lines from one mail to the next
// (referee/tell), keyed by every input the check allowed, so a kept line
// is the line rendered afresh (TestKeyedReadsOfTemplates_Issue25,
// TestAppendViewKeyTellsValuesApart_Issue25). option.group is a function
// of the option's group and params, the decision and the view
// (OptionData); a heading that reads the view only as {{index
// $.Data.View.F <the option's group>}} and never the option's command is
// Keyed by those fields (Tmpl.Keyed, Reads: the command left out of its
// key, the values of View.F[group] in it by AppendReadsKey, a struct by
// its exported fields and refused with a method), so it is kept from one
// mail to the next too, and its key holds the option's params only when
// it reads them (Reads.Params; TestReadsParamsOfTemplates_Issue25),
// and only those it names when it reads each by its name, {{index P
// "name"}} or P.name of the option's Params P, and never the params whole
// (Reads.ParamKeys, checked on the parse tree like the rest: written,
// ranged over, tested, given to a function or a template, or the whole
// option so used, they are read whole; a variable or a template's dot
// holding the option is followed; TestReadsParamKeysOfTemplates_Issue25)
// (Dice Brewing's Heads, issue 25;
// TestKeyedReadsOfTemplates_Issue25,
// TestAppendReadsKeyTellsGroupValuesApart_Issue25,
// TestDiceBrewingHeadsKeyed_Issue25). A template rendered by the function
// tmpl, or by a {{template}} call (rewritten at load into a kept call
// that finds the template {{template}} finds: kept.go, keepTemplateCalls;
// TestTemplateCallsKeptAsWritten_Issue25), reads nothing but its data
// and the Set's functions (its dot and $ are the data), so its text is
// kept (kept.go) when the data is a value: strings, booleans, integers,
// floats, lists, maps with string keys and structs of those, of types
// without methods, keyed by the template and the data by value (every
// part with its type: AppendViewKey's encoding); data holding a pointer,
// a function or a value of a type with methods (a Ctx, a view with a
// pointer) is rendered every time. So a name, a fact or a row a summary
// writes many times is kept when its data is such a value (Brewcrafters'
// card names and facts were most of its mails' rendering, issue 25). So a
// sub-template is given the values it reads, not the view or the Ctx: a
// seat's name as a string (the caller's .Name), a looked-up name as a
// string (Brew Crafters' bc.named and bc.space; Heaven & Ale's ha.optline
// gets its keyword line, not the Ctx, so option.move is OptionOnly), a
// list of looked-up names as a list of strings (the function pick: a
// map's value of each key, so Brew Crafters' bc.names, bc.line and
// bc.research get their codes and names, never the view:
// TestBrewCraftersNamesGetValues_Issue25,
// TestHeavenAleMoveLinesKeyed_Issue25). What names a seat by who holds it
// now is written by the caller, which has the Ctx, or given as the name
// (a string) or the names by seat (Ctx.Seats, a list): Dice Brewing's
// db.board gets its board's spaces and flags, its blocked-buildings line
// written by the callers; Heaven & Ale's ha.board and ha.nboard get the
// seat's name, the leader line and the board's values
// (heavenale.PlayerView.Board: only the fields a board shows, so that a
// board is keyed by what it shows, not by the raw garden or the standing
// orders: TestHeavenAleBoardsKeptByWhatTheyShow_Issue25), ha.holder the
// holder's name; Brew
// Crafters' bc.portions the names by seat, bc.score the score and its
// parts. Fromage's summary hands on its large parts so (issue 25: its
// summary was the dearest of the four): fr.you the reader's own data (the
// function val: the value View.You points to), fr.player a player's row
// with the name of its holder now, fr.public the board, the City and the
// last turn with the names by seat (the functions who and whoall are
// Ctx.Who and WhoAll over a list of names); Heaven & Ale's ha.public its
// track, start area, piles and barrels taken with the names by seat; so
// each is kept from one seat and one move to the next while its data is
// the same
// (TestKeptSectionsFollowOneSeatsData_Issue25 in referee/tell changes one
// seat's data and sees that seat's part rendered again, no other). Only a line rendered once a summary may take the Ctx
// (bc.leader, ha.leader). TestSummariesGiveValues_Issue25 plays a game of
// each to its end and fails when a call of these templates is given data that
// is not a value. A text found kept costs no allocation for its key: the
// data is encoded into a pooled buffer, a value's type written only where
// its container's type does not tell it (in an interface), a dict read
// without reflection, and the map is looked up with the bytes as they
// are (TestKeptTextFoundWithoutAllocating_Issue25). A
// template function must stay a function of its arguments and the Set,
// or nothing could be kept: every function is classified, and the code
// of those of funcs.go is read for package variables and impure packages
// (TestFuncsReadOnlyTheirArguments); TestKeptCallsKeyEveryInput_Issue25
// fails with a key part left out; LoadUnkept keeps nothing and rewrites
// no call, the reference of referee/tell's
// TestMailsAsRenderedAfresh_Issue25.
//
// # Ownership
//
// It owns every player- and organiser-facing word, the command and
// argument aliases, dates, the grammar of each language (grammar.txt) and
// the template functions (funcs.go, grammar.go); the words' check lives in
// templates/langcheck (the English list generated from templates/*/en).
// It must not know a game's rules or state beyond the data a template is
// given, read files other than its embedded ones or a file system it is
// given (LoadFS), nor hold a word in Go (a word is a template's or a data
// file's).
package templates
