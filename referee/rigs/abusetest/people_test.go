package abusetest

import (
	"fmt"
	"strings"
	"time"

	"github.com/pbem-referee/referee/referee/rigs/testkit"
)

// personAnswer is one person-shaped reply of personShapedAnswers: a kind
// of answer (mailfmt doc.go "# Answers") in a language, the client that
// shapes it, the answer per option number (written by hand; the largest
// the menu offers is sent), the signature below it.
type personAnswer struct {
	kind, lang string
	client     testkit.Client
	words      map[int]string
	sig        string
}

// personAnswers are the reading rules of session 14 and 15, each kind in
// two languages or more, each through a real client's layout and
// encoding: Gmail (multipart with HTML, "-- "), Outlook (quoted-printable,
// no signature delimiter, the prompt unquoted below), Apple Mail (8bit,
// format=flowed, a German attribution), Thunderbird (bottom-posted).
var personAnswers = []personAnswer{
	{"number words", "en", testkit.Clients[0], map[int]string{2: "Hi! the second one, thanks", 3: "Hi! the third one, thanks"}, "Alice"},
	{"number words", "it", testkit.Clients[1], map[int]string{2: "opzione due", 11: "opzione undici", 12: "opzione dodici", 13: "opzione tredici",
		14: "opzione quattordici", 15: "opzione quindici", 16: "opzione sedici", 17: "opzione diciassette"}, "Alice Rossi\nBirrificio Rossi S.r.l."},
	{"number words", "de", testkit.Clients[2], map[int]string{2: "Option zwei, danke", 11: "die elfte, danke", 12: "die zwölfte, danke",
		13: "die dreizehnte, danke", 14: "die vierzehnte, danke", 15: "die fünfzehnte, danke", 16: "die sechzehnte, danke"}, "Alice"},
	{"number words", "nl", testkit.Clients[3], map[int]string{2: "de tweede", 3: "de derde", 11: "de elfde", 12: "de twaalfde"}, "Alice"},
	{"elided article", "it", testkit.Clients[1], map[int]string{2: "l’opzione 2", 8: "l’ottava", 11: "l’undicesima, grazie"}, "Alice Rossi"},
	{"elided article", "fr", testkit.Clients[0], map[int]string{2: "Bonjour, l'option deux", 3: "Bonjour, l'option trois"}, "Alice"},
	{"No. 2", "en", testkit.Clients[2], map[int]string{2: "No. 2"}, "Alice"},
	{"No. 2", "de", testkit.Clients[3], map[int]string{2: "Nr. 2, danke"}, "Alice"},
	{"No. 2", "it", testkit.Clients[1], map[int]string{2: "n. 2"}, "Alice Rossi\nVia Roma 3\n20121 Milano"},
	{"emoji glued", "en", testkit.Clients[0], map[int]string{2: "👍option 2"}, "Alice"},
	{"emoji glued", "it", testkit.Clients[1], map[int]string{2: "✅opzione 2"}, "Alice Rossi"},
	{"street", "it", testkit.Clients[1], map[int]string{1: "1"}, "Alice Rossi\nVia Roma 3"},
	{"street", "nl", testkit.Clients[1], map[int]string{1: "1"}, "Alice de Vries\nKerkstraat 12\n1017 GC Amsterdam"},
	{"street", "en", testkit.Clients[0], map[int]string{1: "1\n\n221 Baker St"}, "Alice"},
	{"street", "fr", testkit.Clients[3], map[int]string{1: "1\n12 rue de la Paix"}, "Alice"},
}

// personShapedAnswers (session 15): alice answers her prompt in each of
// personAnswers through Dovecot and Postfix. The option the words name is
// played, the very option of that number (the answer's "YOUR MESSAGE"
// shows it after "=>"), and nothing is refused: no line of the
// signature (a street, a postal code and town, a company), whose name
// need not be the sender's ("Alice de Vries" from "Alice"); a street
// beside its house number in the player's own text is never an option
// (option 1 is the answer, so a street read as option 3 or 12 would be a
// second move or a refusal). Before session 15: "1017 GC Amsterdam"
// under a name that is not the sender's was refused and the move not
// played.
func (s *suite) personShapedAnswers(note func(string, string, ...any)) {
	t := s.t
	played := map[string][]string{}
	for i, c := range personAnswers {
		p := s.untilAlice()
		for tries := 0; !p.js.Prompt.Numbered && tries < 5; tries++ {
			s.play("alice")
			p = s.untilAlice()
		}
		n := 0
		for k := range c.words {
			if k <= len(p.js.Prompt.Options) && k > n {
				n = k
			}
		}
		if n == 0 {
			t.Fatalf("%s (%s): no answer fits a menu of %d", c.kind, c.lang, len(p.js.Prompt.Options))
		}
		want := p.js.Prompt.Options[n-1].Cmd
		id := fmt.Sprintf("alice.person%d.%d", i, time.Now().UnixNano())
		to, raw := c.client.Reply(t, p.raw, s.addr("alice"), "Alice", id, c.words[n], c.sig)
		s.send(s.addr("alice"), []string{to}, raw)
		r := s.box["alice"].next("answering "+id, 60*time.Second, func(m *mail) bool {
			for _, ref := range m.m.InReplyTo {
				if strings.HasPrefix(ref, "<"+id+"@") {
					return true
				}
			}
			return false
		})
		text := r.text()
		if r.js == nil || r.js.Token <= p.js.Token || !strings.Contains(text, "=> "+want) || strings.Contains(text, "REFUSED") {
			t.Errorf("%s (%s, %s): %q did not play option %d (%s):\n%s", c.kind, c.lang, c.client.Name, c.words[n], n, want, r.m.Text)
		}
		played[c.kind] = append(played[c.kind], fmt.Sprintf("%s %s %q", c.lang, c.client.Name, c.words[n]))
		s.genuine += r.moves()
	}
	for _, kind := range []string{"number words", "elided article", "No. 2", "emoji glued", "street"} {
		note(kind+" (person-shaped)", "played: %s", strings.Join(played[kind], ", "))
	}
}
