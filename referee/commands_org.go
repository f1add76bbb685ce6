package referee

import (
	"github.com/pbem-referee/referee/referee/organise"
)

// The organiser's commands are the table of referee/organise (the games'
// family, and the tournaments' from the desk, bymail.OrgCommands): each
// row with its handler there. Their help is their row of org.help
// (org.help.<KEYWORD>, org.help.tournament.<KEYWORD>); the order is the
// order of the list an unknown command is answered with.
var orgTourFamily, orgGameFamily = orgRows(organise.FamilyTournaments), orgRows(organise.FamilyGames)

// orgRows makes rows of the command table from a family of the
// organiser's table.
func orgRows(family string) []command {
	var rows []command
	for _, r := range organise.Rows() {
		if r.Family == family {
			rows = append(rows, command{Keyword: r.Keyword, Who: byOrganiser, Usage: r.Usage, Help: r.Help, Row: r.Row,
				Unlogged: r.Unlogged, Aliased: r.Aliased, Errors: r.Errors, org: r.Run})
		}
	}
	return rows
}
