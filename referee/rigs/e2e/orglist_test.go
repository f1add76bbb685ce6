package e2e_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// TestOrganiserListPagedThroughDovecotAndPostfix_Issue25: the organiser's
// LIST, through Postfix and Dovecot, of more games than a page (55, made
// by one mail of NEW blocks): in each of the four languages (the answer in
// the LIST word's language) the first answer lists 50 games in id order
// and a last line names the LIST <game> that shows the rest; that LIST
// lists the rest, and nothing more. A game a NEW of the LIST's own mail
// created (not stored yet when LIST reads the index) is listed in its
// place by id, not after the others. Each answer within 80 columns in the
// organiser's words (testkit.CheckPersonMail).
func TestOrganiserListPagedThroughDovecotAndPostfix_Issue25(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const page, stored = 50, 55
	ms, _, orgTo := startReferee(t)
	olga := &person{user: "olga", name: "Olga"}
	send := func(text string) *mailmsg.Message {
		t.Helper()
		id := olga.id()
		organise(t, ms, orgTo, id, text)
		m, _ := olga.await(t, ms, "the answer to "+id, func(m *mailmsg.Message) bool {
			return slices.Contains(m.InReplyTo, "<"+id+"@example.test>")
		})
		return m
	}
	var script strings.Builder
	var all []string
	for i := range stored {
		id := fmt.Sprintf("p%02d", i)
		all = append(all, id)
		fmt.Fprintf(&script, "NEW dicebrewing id=%s deadline=none\r\n", id)
	}
	send(script.String())
	kw := map[string]string{"en": "LIST", "it": "ELENCO", "fr": "LISTE", "nl": "LIJST"}
	listed := func(lang, what string, m *mailmsg.Message) (ids []string, next string) {
		t.Helper()
		for _, l := range strings.Split(m.Text, "\n") {
			if f := strings.Fields(l); strings.HasPrefix(l, "  ") && len(f) > 1 && regexp.MustCompile(`^p\d\d[a-z]?$`).MatchString(f[0]) {
				ids = append(ids, f[0])
			}
		}
		if r := regexp.MustCompile(`(?m)^  .*\b` + kw[lang] + ` (p\d\d[a-z]?)\b`).FindStringSubmatch(m.Text); r != nil {
			next = r[1]
		}
		testkit.CheckPersonMail(t, lang, what, m.Subject, m.Text, "olga", "p20a")
		return ids, next
	}
	for _, lang := range []string{"en", "it", "fr", "nl"} {
		text := kw[lang]
		if lang == "en" {
			// A NEW of the same mail: listed in its place by id.
			text = "NEW dicebrewing id=p20a deadline=none\r\n" + text
			all = append(all, "p20a")
			slices.Sort(all)
		}
		first, next := listed(lang, lang+" LIST", send(text+"\r\n"))
		if !slices.Equal(first, all[:page]) || next != all[page] {
			t.Errorf("%s: the first page lists %v and names %q next; want %v and %q", lang, first, next, all[:page], all[page])
			continue
		}
		rest, after := listed(lang, lang+" LIST "+next, send(kw[lang]+" "+next+"\r\n"))
		if !slices.Equal(rest, all[page:]) || after != "" {
			t.Errorf("%s: %s %s lists %v and names %q next; want %v and nothing", lang, kw[lang], next, rest, after, all[page:])
		}
	}
}
