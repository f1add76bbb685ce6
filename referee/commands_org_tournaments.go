package referee

import "github.com/pbem-referee/referee/referee/tournament/bymail"

// orgTourFamily are an organiser's tournament commands (the table's
// "org-tournaments" family, see commands.go). Their handling is the
// desk's (bymail.Org, package referee/tournament/bymail); a row that finds no tournament
// named (EXTEND, REPLACE or PUBLISH of a game, a NEW without TOURNAMENT)
// passes the line to the game command of the same keyword. Their help is
// their row of org.help (org.help.tournament.<KEYWORD>); the order here is
// the order of the list an unknown command is answered with.
var orgTourFamily = []command{
	{Keyword: "NEW", Who: byOrganiser, Usage: "NEW TOURNAMENT <id> game=<game> [option=value]...", Row: 1, org: orgTour},
	{Keyword: "ENTER", Who: byOrganiser, Usage: "ENTER <tournament> <address> <name> [lang]", Row: 2, Aliased: true, org: orgTour},
	{Keyword: "START", Who: byOrganiser, Usage: "START <tournament>", Row: 3, Aliased: true, org: orgTour},
	{Keyword: "STANDINGS", Who: byOrganiser, Usage: "STANDINGS <tournament>", Row: 4, Aliased: true, org: orgTour},
	{Keyword: "WITHDRAW", Who: byOrganiser, Usage: "WITHDRAW <tournament> <address>", Row: 5, Aliased: true, org: orgTour},
	{Keyword: "LATE", Who: byOrganiser, Usage: "LATE <tournament>", Row: 6, Aliased: true, org: orgTour},
	{Keyword: "EXTEND", Who: byOrganiser, Usage: "EXTEND <tournament> <hours>", Row: 7, org: orgTour},
	{Keyword: "REPLACE", Who: byOrganiser, Usage: "REPLACE <tournament> <old address> <new address> <name> [lang]", Row: 8, org: orgTour},
	{Keyword: "PUBLISH", Who: byOrganiser, Usage: "PUBLISH <tournament> [listed|off]", Row: 11, Aliased: true, org: orgTour},
	{Keyword: "FORFEIT", Who: byOrganiser, Usage: "FORFEIT <game> <player>", Row: 10, Aliased: true, org: orgTour},
	{Keyword: "ADJUDICATE", Who: byOrganiser, Usage: "ADJUDICATE <game>", Row: 9, Aliased: true, org: orgTour},
	{Keyword: "SCHEDULE", Who: byOrganiser, Usage: "SCHEDULE <tournament> [start=<date> every=7d | dates=<date>,...]", Row: 12, Aliased: true, org: orgTour},
	// HELP TOURNAMENT [lang] (the word in any language, tourHelpWords);
	// any other HELP is the organiser's general help.
	{Keyword: "HELP", Who: byOrganiser, Usage: "HELP TOURNAMENT [en|it|fr|nl]", Row: 13, org: orgTour},
}

// orgTour runs a tournament command; ok is false when the line names no
// tournament (it is then a game command). Its answer is a result line even
// when empty.
func orgTour(c *orgCall) (string, bool, error) {
	res, ok, err := bymail.Org(c.w.desk(), c.org, c.f)
	if !ok {
		return "", false, nil
	}
	if err != nil {
		res = c.kw + ": " + err.Error()
	}
	c.results = append(c.results, res)
	return "", true, nil
}
