// Package deadline holds the rules of a game's clock: the organiser's
// deadline policy (time per decision kind, a fixed hour, allowed weekdays,
// reminders, missed moves before a bot plays, vacation days), when a
// decision is due in the player's time zone, when its reminders go, and how
// far a seat's vacation pushes it.
//
// It owns Policy (its syntax, ParsePolicy and String, and PolicyView, the
// policy as the "policy" template shows it), Due, Remind and VacationPush.
// It must not keep or read a clock, a record or the store (the core,
// package referee/settle, starts, stops and fires the clocks), nor
// hold a player-facing word: the day words an organiser writes (days=mon-fri,
// days=lun-ven, days=ma-vr) and the words mails show are in templates/
// (common/<lang>/dates.txt, read by templates.ParseDay and FormatTime).
//
// Rule (issue 25): a policy reads the day words of every language and writes
// them back in the one syntax ParsePolicy reads (templates.DayCode); a
// deadline shown to a reader names its days in the reader's language only
// (TestDeadlineWordsInEveryLanguage).
//
// Rule (issue 22): a policy that does not read is an *Error, a code and
// its parameters, never prose; its words are templates (org.error.policy_*
// of templates/referee/<lang>/orgerrors.tmpl) in the reader's language
// (TestPolicyErrorsTyped).
package deadline
