package referee

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pbem-referee/referee/referee/cmdtable"
	"github.com/pbem-referee/referee/templates"
)

// TestTournamentAliases: players write the tournament commands in their
// own language (templates/referee/*/aliases.txt), the organiser may use the
// aliases of any language, and the mails name the local words.
func TestTournamentAliases(t *testing.T) {
	h := newHarness(t)
	h.org("NEW TOURNAMENT cup game=toy rounds=2")
	h.mails()
	players := map[string]string{"bea@p.test": "it", "luc@p.test": "fr", "wim@p.test": "nl"}
	for p, lang := range players {
		h.sendAs(Request{From: p, Text: "REGISTER " + strings.Split(p, "@")[0] + " " + lang})
	}
	h.mails()
	h.asPlayer("bea@p.test", "ENTRA cup")
	h.asPlayer("luc@p.test", "REJOINDRE cup")
	h.asPlayer("wim@p.test", "MEEDOEN cup")
	ms := h.mails()
	checkWidth(t, ms)
	contains(t, h.mailTo(ms, "bea@p.test").Body, "CLASSIFICA cup, VALUTAZIONE oppure RITIRATI cup")
	contains(t, h.mailTo(ms, "luc@p.test").Body, "CLASSEMENT cup, COTE ou RETIRER cup")
	contains(t, h.mailTo(ms, "wim@p.test").Body, "KLASSEMENT cup, WAARDERING of TERUGTREKKEN cup")
	if n := len(h.tour("cup").Entrants); n != 3 {
		t.Fatalf("%d entrants, want 3", n)
	}
	for _, c := range []struct{ addr, text, want string }{
		{"bea@p.test", "classifica cup", "Valutazione"},
		{"luc@p.test", "Classement cup", "cup"},
		{"wim@p.test", "KLASSEMENT cup", "Naam"},
		{"bea@p.test", "VALUTAZIONE", "Non hai ancora una valutazione"},
		{"luc@p.test", "COTE", "pas encore de cote"},
		{"wim@p.test", "WAARDERING", "nog geen waardering"},
		{"bea@p.test", "CLASSIFICA nosuch", "Scrivi CLASSIFICA <torneo>"},
		{"luc@p.test", "RETIRER nosuch", "Écrivez RETIRER <tournoi>"},
		{"wim@p.test", "TERUGTREKKEN cup", "teruggetrokken uit toernooi cup"},
	} {
		h.asPlayer(c.addr, c.text)
		contains(t, h.mailTo(h.mails(), c.addr).Body, c.want)
	}
	if e := h.tour("cup").Entrant("wim@p.test"); e != nil && e.Withdrawn == 0 {
		t.Fatalf("TERUGTREKKEN did not withdraw: %+v", e)
	}
	// The organiser: Italian, French and Dutch words for the tournament
	// commands; the English ones still work.
	h.org("ISCRIVI cup eve@p.test Eve en")
	contains(t, orgResults(t, h), "eve@p.test entered in cup")
	h.org("INSCRIRE cup fil@p.test Fil fr")
	contains(t, orgResults(t, h), "fil@p.test entered in cup")
	h.org("RITARDI cup\nPUBLICEREN cup")
	contains(t, orgResults(t, h), "Pages: /t/cup-", "unlisted")
	h.org("AVVIA cup")
	contains(t, orgResults(t, h), "cup started: round 1 of 2")
}

// TestOrganiserHelpListsTournaments: the organiser's help, in every
// language, lists the tournament commands at 80 columns, and so does the
// answer to an unknown command.
func TestOrganiserHelpListsTournaments(t *testing.T) {
	h := newHarness(t)
	for _, lang := range templates.Languages {
		text, err := cmdtable.OrgHelp(h.r.render.Renderer, lang, "org.help", "o+x@r.test", []string{"toy"})
		if err != nil {
			t.Fatal(err)
		}
		contains(t, text, "NEW TOURNAMENT", "ENTER", "START", "STANDINGS", "WITHDRAW", "LATE", "PUBLISH", "FORFEIT", "ADJUDICATE", "RATING")
		for _, l := range strings.Split(text, "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Errorf("%s: org.help line of %d columns: %s", lang, utf8.RuneCountInString(l), l)
			}
		}
	}
	h.org("HELP")
	contains(t, orgResults(t, h), "TOURNAMENTS", "ADJUDICATE <game>")
	h.newToyGame("g1", "ann@p.test", "bob@p.test")
	h.mails()
	h.org("FROBNICATE g1\nSTATSU g1") // issue 25: a line of no keyword is quoted, a mistyped one refused
	res := orgResults(t, h)
	contains(t, res, "  > FROBNICATE g1", "unknown organiser command STATSU", "NEW TOURNAMENT", "PUBLISH FORFEIT ADJUDICATE")
	for _, l := range strings.Split(res, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("unknown-command answer line of %d columns: %s", utf8.RuneCountInString(l), l)
		}
	}
}
