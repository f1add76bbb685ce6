// Package templates holds every word a player or organiser reads, in
// English (en), Italian (it), French (fr) and Dutch (nl), as text/template
// files embedded in the binary.
//
// # Layout
//
//	templates/<scope>/<lang>/*.tmpl     the templates of one scope and language
//	templates/<scope>/<lang>/aliases.txt  command keyword aliases ("PASSA = PASS")
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
//	event.<type>      one log line for an event type (data: Ctx with the event)
//	error.<code>      one line explaining a rule error code (data: Ctx with the error)
//	help              the game's command overview; help.<COMMAND> per command
//	rule.<id>         the text of a rule, for the RULE command
//
// Render looks a name up in the scope and language asked, then in the
// scope's English, then in "common" (language, then English), so a missing
// translation never breaks a mail; the package tests insist that every name
// defined in English exists in the other three languages too.
//
// Templates run with missingkey=error: a misspelt field fails the tests.
package templates
