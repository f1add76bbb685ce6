package mailfmt_test

import (
	"bytes"
	"fmt"
	"html"
	"mime/quotedprintable"
	"sort"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// The corpus of reply shapes a person really sends (task "reading" of
// session 13: "a quarter of fresh real replies do nothing"): five
// languages (en, it, fr, nl and German greetings and signatures) x the
// clients' layouts (Outlook, Gmail, Apple Mail, Thunderbird, iOS and
// Android mobile; top- and bottom-posted, inline under the quoted prompt)
// x the encodings (plain, quoted-printable, format=flowed, HTML only,
// HTML and text) x the answer forms x the signatures (none, "-- ", a
// sign-off, a business block with or without a sign-off above it). Each
// whole message goes through Parse, CommandsFor and the AnswerReader;
// the move the person meant must be read, and nothing else that the
// engine would refuse.

// shapeLang are the words a person of one language writes around a move.
type shapeLang struct {
	lang                                      string
	greeting, signOff, option, please, thanks string
	// company, title, street: a business signature's lines.
	company, title, street, town string
	sentFrom                     string // the phone's footer
	gmail                        string // the attribution of the language
}

var shapeLangs = map[string]shapeLang{
	"en": {"en", "Hi,", "Best regards,", "option", "please", "thanks", "ACME Ltd", "CEO", "221 Baker St", "London NW1 6XE",
		"Sent from my iPhone", "On Mon, 7 Dec 2026 at 10:00, Referee <ref@referee.example> wrote:"},
	"it": {"it", "Ciao,", "Cordiali saluti", "opzione", "per favore", "grazie", "Birrificio Rossi S.r.l.", "Amministratore delegato",
		"Piazza Duomo 1", "20121 Milano", "Inviato da iPhone",
		"Il giorno lun 7 dic 2026 alle ore 10:00 Referee <ref@referee.example> ha scritto:"},
	"fr": {"fr", "Bonjour,", "Cordialement,", "choix", "svp", "merci", "ACME SARL", "PDG", "12 rue de la Paix", "75002 Paris",
		"Envoyé de mon iPhone", "Le lun. 7 déc. 2026 à 10:00, Referee <ref@referee.example> a écrit :"},
	"nl": {"nl", "Hoi,", "Met vriendelijke groet,", "optie", "graag", "bedankt", "ACME B.V.", "Directeur", "Kerkstraat 12", "1017 GM Amsterdam",
		"Verzonden vanaf mijn iPhone", "Op ma 7 dec 2026 om 10:00 schreef Referee <ref@referee.example>:"},
	"de": {"de", "Hallo,", "Viele Grüße", "Option", "bitte", "danke", "ACME GmbH", "Geschäftsführer", "Hauptstr. 12", "10115 Berlin",
		"Von meinem iPhone gesendet", "Am Mo., 7. Dez. 2026 um 10:00 Uhr schrieb Referee <ref@referee.example>:"},
}

// shapeMore are the answer forms and lines of session 14's reading
// leftovers, per language: the number sign abbreviated ("No. 2"), the
// option as a number word ("the second one", "option two"), a street
// alone mid-mail ("Via Roma 3": an address, never option 3).
var shapeMore = map[string]struct{ abbrev, ordinal, optionTwo, street string }{
	"en": {"No. 2", "the second one", "option two", "221 Baker St"},
	"it": {"n. 2", "la seconda", "opzione due", "Via Roma 3"},
	"fr": {"n° 2", "la deuxième", "choix deux", "12 rue de la Paix"},
	"nl": {"nr. 2", "de tweede", "optie twee", "Kerkstraat 12"},
	"de": {"Nr. 2", "die zweite", "Option zwei", "Hauptstr. 5"},
}

// shapePastTen are session 15's answer forms, per language: options past
// ten in words (a long menu: Dice Brewing's has 50 options), a cardinal
// after the option word and an ordinal after its article, and an
// article elided onto the word after it (Italian and French; the other
// languages write the ordinal with a capital or a hyphen instead).
var shapePastTen = map[string]struct{ cardinal, ordinal, elided shapeAnswer }{
	"en": {shapeAnswer{"option twenty-one", "option 21"}, shapeAnswer{"the twenty first one", "option 21"}, shapeAnswer{"Option Thirty-Eight", "option 38"}},
	"it": {shapeAnswer{"opzione ventuno", "option 21"}, shapeAnswer{"la ventunesima", "option 21"}, shapeAnswer{"l’ottava", "option 8"}},
	"fr": {shapeAnswer{"choix vingt et un", "option 21"}, shapeAnswer{"la vingt-et-unième", "option 21"}, shapeAnswer{"l'option deux", "option 2"}},
	"nl": {shapeAnswer{"optie eenentwintig", "option 21"}, shapeAnswer{"de eenentwintigste", "option 21"}, shapeAnswer{"De Achtendertigste", "option 38"}},
	"de": {shapeAnswer{"Option einundzwanzig", "option 21"}, shapeAnswer{"die einundzwanzigste", "option 21"}, shapeAnswer{"die achtunddreißigste", "option 38"}},
}

// shapeMenu is the prompt the person answers; option 2 is PLACE HP1 SEED.
var shapeMenu = []string{"##- Please type your reply above this line -##", "Your move, Anna.", "  1) PASS", "  2) PLACE HP1 SEED", "  3) STORE Y5 G4"}

// shapeAnswer is an answer form and what must be read of it.
type shapeAnswer struct{ line, want string }

func shapeAnswers(l shapeLang) []shapeAnswer {
	return []shapeAnswer{
		{"2", "option 2"}, {"2.", "option 2"}, {l.option + " 2", "option 2"},
		{strings.ToUpper(l.option[:1]) + l.option[1:] + " 2 " + l.please, "option 2"},
		{"2) PLACE HP1 SEED", "option 2 PLACE HP1 SEED"}, {"  2) PLACE HP1 SEED", "option 2 PLACE HP1 SEED"},
		{"PLACE HP1 SEED", "PLACE HP1 SEED"}, {"place hp1 seed", "place hp1 seed"},
		{"2 - " + l.thanks, "option 2"}, {"#2", "option 2"}, {"2 " + l.thanks, "option 2"},
		{l.option + " 2, " + l.please, "option 2"}, {"2!", "option 2"}, {"(2)", "option 2"},
		{"PLACE HP1 SEED " + l.thanks, "PLACE HP1 SEED"},
		{shapeMore[l.lang].abbrev, "option 2"}, {"👍" + l.option + " 2", "option 2"},
		{shapeMore[l.lang].ordinal, "option 2"}, {shapeMore[l.lang].optionTwo, "option 2"},
		shapePastTen[l.lang].cardinal, shapePastTen[l.lang].ordinal, shapePastTen[l.lang].elided,
	}
}

// shapeSignatures are what a person writes below the move, each a list
// of lines (nil: nothing).
func shapeSignatures(l shapeLang) map[string][]string {
	return map[string][]string{
		"none":          nil,
		"name":          {"Anna"},
		"signoff":       {l.signOff, "Anna"},
		"dashes":        {"-- ", "Anna Keller", l.company},
		"signoff+biz":   {l.signOff, "Anna Keller", l.title, l.company, l.street, l.town},
		"dashes+biz":    {"-- ", "Anna Keller", l.title, l.company, l.street + ", " + l.town},
		"biz-only":      {l.company, l.title, l.street},
		"name+biz":      {"Anna Keller", l.title, l.company, l.street, l.town},
		"pipe":          {"Anna Keller | " + l.company + " | " + l.town},
		"signoff+pipe":  {l.signOff, "Anna Keller | " + l.company + " | " + l.town},
		"biz-phone":     {"Anna Keller", l.company, "Tel. +49 30 1234567"},
		"greeting-only": nil, // a greeting above, nothing below
		"signoff-gap":   {l.signOff, "", "Anna Keller", l.title, l.company, l.street, l.town, "Tel. +49 30 1234567"},
		"mobile":        {l.sentFrom},
		"signoff+url":   {l.signOff, "Anna", "www.acme.example"},
		"name+title":    {"Anna Keller", l.title},
		"comma-street":  {"Anna Keller", "Piazza del Duomo, 1", "Bâtiment B"},
		"street-mid":    {shapeMore[l.lang].street, "", l.signOff, "Anna"},
		"keyword-biz":   {"Anna Keller", "Brew Co Ltd"},
		// Session 15: a name not the sender's, then an address.
		"other-name": {"Alice de Vries", shapeMore[l.lang].street, l.town},
	}
}

// shapeLayout writes the person's own lines around the quoted prompt and
// says how the HTML part quotes it.
type shapeLayout struct {
	text func(l shapeLang, own []string) []string
}

func quoted(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight("> "+l, " ")
	}
	return out
}

var shapeLayouts = map[string]shapeLayout{
	"outlook": {func(l shapeLang, own []string) []string {
		return cat2(own, []string{"", "________________________________", "From: Referee <ref@referee.example>",
			"Sent: Monday, December 7, 2026 10:00", "To: Anna Keller <anna@brauerei.example>", "Subject: Re: [g42] your move", ""}, shapeMenu)
	}},
	"gmail": {func(l shapeLang, own []string) []string {
		return cat2(own, []string{"", l.gmail}, quoted(shapeMenu))
	}},
	"apple": {func(l shapeLang, own []string) []string {
		return cat2(own, []string{"", "> On 7 Dec 2026, at 10:00, Referee <ref@referee.example> wrote:", ">"}, quoted(shapeMenu))
	}},
	"thunderbird-bottom": {func(l shapeLang, own []string) []string {
		return cat2([]string{"On 07/12/2026 10:00, Referee wrote:"}, quoted(shapeMenu), []string{""}, own)
	}},
	"inline": {func(l shapeLang, own []string) []string {
		return cat2([]string{l.gmail}, quoted(shapeMenu[:2]), []string{""}, own, []string{""}, quoted(shapeMenu[2:]))
	}},
	"ios": {func(l shapeLang, own []string) []string {
		return cat2(own, []string{"", l.sentFrom, "", "> On 7 Dec 2026, at 10:00, Referee <ref@referee.example> wrote:", ">"}, quoted(shapeMenu))
	}},
	"android": {func(l shapeLang, own []string) []string {
		return cat2(own, []string{"", "Get Outlook for Android", "", "________________________________", "From: Referee <ref@referee.example>",
			"Sent: Monday, December 7, 2026 10:00:00 AM", "To: Anna Keller <anna@brauerei.example>", "Subject: Re: [g42] your move", ""}, shapeMenu)
	}},
}

func cat2(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// shapeHTML writes lines as a client's HTML: '>' lines in a blockquote,
// the others a div each.
func shapeHTML(lines []string) string {
	var b strings.Builder
	b.WriteString("<html><body>")
	in := false
	for _, l := range lines {
		q := strings.HasPrefix(l, ">")
		if q != in {
			if q {
				b.WriteString(`<blockquote type="cite">`)
			} else {
				b.WriteString("</blockquote>")
			}
			in = q
		}
		if q {
			l = strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")
		}
		if strings.TrimSpace(l) == "" {
			b.WriteString("<div><br></div>\n")
			continue
		}
		b.WriteString("<div>" + html.EscapeString(l) + "</div>\n")
	}
	if in {
		b.WriteString("</blockquote>")
	}
	b.WriteString("</body></html>")
	return b.String()
}

// shapeEncodings write a body as a whole message.
var shapeEncodings = map[string]func(lines []string) string{
	"plain": func(lines []string) string {
		return "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + strings.Join(lines, "\r\n") + "\r\n"
	},
	"qp": func(lines []string) string {
		var b bytes.Buffer
		w := quotedprintable.NewWriter(&b)
		_, _ = w.Write([]byte(strings.Join(lines, "\r\n") + "\r\n"))
		_ = w.Close()
		return "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + b.String()
	},
	"flowed": func(lines []string) string {
		var out []string
		for _, l := range lines {
			// Soft-break long lines at a space, as format=flowed does.
			for len(l) > 40 && strings.LastIndex(l[:40], " ") > 0 && !strings.HasPrefix(l, ">") {
				i := strings.LastIndex(l[:40], " ")
				out = append(out, l[:i+1])
				l = l[i+1:]
			}
			if strings.HasPrefix(l, "From ") || strings.HasPrefix(l, " ") {
				l = " " + l // space-stuffing
			}
			out = append(out, strings.TrimRight(l, " "))
		}
		return "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=no\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + strings.Join(out, "\r\n") + "\r\n"
	},
	"html": func(lines []string) string {
		return "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + shapeHTML(lines) + "\r\n"
	},
	"html+text": func(lines []string) string {
		return "Content-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
			strings.Join(lines, "\r\n") + "\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + shapeHTML(lines) + "\r\n--b1--\r\n"
	},
}

// shapeCase is one generated reply.
type shapeCase struct {
	name, raw, want string
}

func shapeCases(visit func(shapeCase)) {
	head := "From: Anna Keller <anna@brauerei.example>\r\nTo: referee+g42.1.k7x9q2abcd3e.57@referee.example\r\n" +
		"Subject: Re: [g42] your move\r\nMessage-ID: <m1@brauerei.example>\r\nDate: Mon, 7 Dec 2026 10:05:00 +0100\r\nMIME-Version: 1.0\r\n"
	n := 0
	for _, lang := range sortedKeys(shapeLangs) {
		l := shapeLangs[lang]
		sigs := shapeSignatures(l)
		for _, sname := range sortedKeys(sigs) {
			for _, a := range shapeAnswers(l) {
				for _, gap := range []bool{false, true} {
					var own []string
					if sname == "greeting-only" || gap {
						own = append(own, l.greeting, "")
					}
					own = append(own, a.line)
					if gap && sigs[sname] != nil {
						own = append(own, "")
					}
					own = append(own, sigs[sname]...)
					for _, lay := range sortedKeys(shapeLayouts) {
						lines := shapeLayouts[lay].text(l, own)
						for _, enc := range sortedKeys(shapeEncodings) {
							// Every reply in plain text, a quarter of
							// them in each other encoding, in turn.
							if n++; enc != "plain" && n%4 != 0 {
								continue
							}
							visit(shapeCase{
								name: fmt.Sprintf("%s/%s/%q/gap=%v/%s/%s", lang, sname, a.line, gap, lay, enc),
								raw:  head + shapeEncodings[enc](lines), want: a.want,
							})
						}
					}
				}
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestReplyShapesPlayTheMove: every generated reply's move is read, and
// nothing else the engine would refuse; the failures are counted by
// class (the signature, the answer form, the layout, the encoding).
func TestReplyShapesPlayTheMove(t *testing.T) {
	r, _ := testReader(t)
	n, nothing, refused := 0, 0, 0
	classes := map[string]int{}
	shapeCases(func(c shapeCase) {
		n++
		m, err := mailmsg.Parse([]byte(c.raw), mailmsg.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		text, _ := testKW.MailCommands(m)
		got := readAnswers(r, text)
		ok := false
		for _, g := range got {
			ok = ok || g == c.want
		}
		switch {
		case !ok:
			nothing++
		case len(got) != 1:
			refused++
		default:
			return
		}
		parts := strings.Split(c.name, "/")
		classes["signature "+parts[1]]++
		classes["answer "+parts[2]]++
		if nothing+refused <= 20 {
			t.Errorf("%s: read %q, want only %q\ntext %q", c.name, got, c.want, text)
		}
	})
	t.Logf("%d replies: %d play nothing (%.1f%%), %d play the move and have a line refused (%.1f%%)",
		n, nothing, 100*float64(nothing)/float64(n), refused, 100*float64(refused)/float64(n))
	for _, k := range sortedKeys(classes) {
		t.Logf("  %-40s %d", k, classes[k])
	}
	if n < 30000 {
		t.Fatalf("only %d replies", n)
	}
}

// BenchmarkExtractSignedTail: a reply under a sign-off with a signature
// whose lines the typo guard reads ("ACME", "CEO", a street), extracted
// with Keywords (the words compared with the keywords).
func BenchmarkExtractSignedTail(b *testing.B) {
	body := signLayouts["outlook"]("PLACE HP1 SEED thanks\n\nBest regards,\nAnna Keller\nACME BREWING\nCEO\nPiazza Duomo 1\n20121 Milano")
	sender := mailmsg.Address{Name: "Anna Keller", Addr: "anna@brauerei.example"}
	b.ReportAllocs()
	for b.Loop() {
		testKW.ExtractCommands(body, sender)
	}
}
