package referee

import "github.com/pbem-referee/referee/referee/tournament/bymail"

// orgTourFamily are an organiser's tournament commands (the table's
// "org-tournaments" family, see commands.go): the desk's rows
// (bymail.OrgCommands, one handler a keyword there), each run by orgTour.
// A row that finds no tournament named (EXTEND, REPLACE or PUBLISH of a
// game, a NEW without TOURNAMENT) passes the line to the game command of
// the same keyword. Their help is their row of org.help
// (org.help.tournament.<KEYWORD>); the order here is the order of the list
// an unknown command is answered with.
var orgTourFamily = deskRows(bymail.OrgCommands, func(c *command) { c.Who, c.org = byOrganiser, orgTour })

// deskRows makes rows of the command table from the desk's commands.
func deskRows(cmds []bymail.Command, set func(*command)) []command {
	rows := make([]command, len(cmds))
	for i, d := range cmds {
		rows[i] = command{Keyword: d.Keyword, Usage: d.Usage, Row: d.Row, Aliased: d.Aliased, Errors: d.Errors}
		set(&rows[i])
	}
	return rows
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
	c.err = err
	return "", true, nil
}
