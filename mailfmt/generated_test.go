package mailfmt

import (
	"fmt"
	"html"
	"mime/quotedprintable"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// The generated suite of issue 20: every client layout of the corpus,
// parametrised (attributions, separators, header blocks, signatures,
// mobile footers, sign-offs and greetings in each language) crossed with
// every answer form of the issue, top-posted, bottom-posted and
// interleaved. The player's lines must come out intact, and nothing of the
// quote or the signature with them (the rules of doc.go, "Where the
// reply's own text ends").

// genAnswers are the answer forms of issue 20, each the player's lines.
var genAnswers = [][]string{
	{"2"}, {"2."}, {"2)"}, {"#2"}, {"(2)"}, {"“2”"}, {`"2"`},
	{"option 2"}, {"opzione 2"}, {"choix 2"}, {"optie 2"}, {"Option 2"},
	{"2 please"}, {"2 - thanks"}, {"2 grazie"},
	{"2) PLACE HP1 SEED"}, {"  2) HOME RES YE   # that marker +2"},
	{"Hi! PASS"}, {"Hallo,PASS"}, {"PASS - cheers"}, {"Ciao, 2"}, {"Bonjour ! PASS"},
	{"PASS."}, {"PASS!"}, {"paas"}, {"plcae MH1 SEED"}, {"STROE Y5 G4"}, {"pass"}, {"Pass"},
	{"PASS 👍"}, {"PASS 🙂🍺"}, {"2 👍"},
	{"PLACE MH1 SEED", "STORE Y5 G4", "DONE"},
	{"PLACE MH1 SEED", "", "STORE Y5 G4"},
	{"#begin", "PASS", "#end"},
	{"LEG MH1 ZAAD", "PAS"},
	{"SAY all: good game"},
	{"SAY call me on +39 333 1234567 or www.rossi.example"},
	{"NEW claim id=c1", "PLAYER ann@example.test Ann it", "PLAYER bob@example.test Bob"},
}

// genLangs are the languages of the layouts: the four of the players and
// the reply headers of German, Spanish and Portuguese.
var genLangs = []string{"en", "it", "fr", "nl", "de", "es", "pt"}

// genWords are the words of the layouts per language.
type genWords struct {
	gmail, apple, tbird, wrap2, wrap3, nocolon []string // attributions
	from, sent, to, subject                    string   // header field names
	original, forward                          string   // separator words
	sentFrom, outlookApp                       string   // mobile footers
	thanks, greeting                           string   // sign-off, greeting
	business                                   []string // company signature without "-- "
	legal                                      string   // confidentiality notice
}

var genWordsOf = map[string]genWords{
	"en": {
		gmail:   []string{"On Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test> wrote:"},
		apple:   []string{"On 12 May 2026, at 10:14, Referee <referee@example.test> wrote:"},
		tbird:   []string{"On 12/05/2026 10:14, Referee wrote:"},
		wrap2:   []string{"On Tue, May 12, 2026 at 10:14 AM Referee <", "referee@example.test> wrote:"},
		wrap3:   []string{"On Tue, May 12, 2026 at 10:14 AM Dice Brewing", "Referee of game g42 <referee@example.test>", "wrote:"},
		nocolon: []string{"On Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test> wrote"},
		from:    "From", sent: "Sent", to: "To", subject: "Subject",
		original: "Original Message", forward: "Forwarded message",
		sentFrom: "Sent from my iPhone", outlookApp: "Get Outlook for Android",
		thanks: "Thanks,", greeting: "Hi Referee,",
		business: []string{"Anna Rossi", "Head Brewer", "ACME Brewing Ltd", "Tel. +44 20 7946 0958", "Fax +44 20 7946 0959",
			"Registered in England and Wales, Company No. 01234567", "VAT GB 123 4567 89", "ISO 9001 certified"},
		legal: "This e-mail and any attachments are confidential and intended solely for the addressee.",
	},
	"it": {
		gmail:   []string{"Il giorno mar 12 mag 2026 alle ore 10:14 Referee <referee@example.test> ha scritto:"},
		apple:   []string{"Il giorno 12 mag 2026, alle ore 10:14, Referee <referee@example.test> ha scritto:"},
		tbird:   []string{"Il 12/05/2026 10:14, Referee ha scritto:"},
		wrap2:   []string{"Il giorno mar 12 mag 2026 alle ore 10:14 Referee <", "referee@example.test> ha scritto:"},
		wrap3:   []string{"Il giorno mar 12 mag 2026 alle ore 10:14", "Referee della partita g42 <referee@example.test>", "ha scritto:"},
		nocolon: []string{"In data 12 maggio 2026 10:14:00 Referee <referee@example.test> ha scritto"},
		from:    "Da", sent: "Inviato", to: "A", subject: "Oggetto",
		original: "Messaggio originale", forward: "Messaggio inoltrato",
		sentFrom: "Inviato da iPhone", outlookApp: "Scarica Outlook per Android",
		thanks: "Grazie,", greeting: "Ciao,",
		business: []string{"Anna Rossi", "ACME Birrificio S.r.l.", "Via Roma 1, 20121 Milano", "Tel. +39 02 1234567", "Fax +39 02 7654321",
			"P.IVA 01234567890 - REA MI-123456", "Azienda certificata ISO 9001"},
		legal: "Questo messaggio è riservato e destinato esclusivamente al destinatario indicato.",
	},
	"fr": {
		gmail:   []string{"Le mar. 12 mai 2026 à 10:14, Referee <referee@example.test> a écrit :"},
		apple:   []string{"Le 12 mai 2026 à 10:14, Referee <referee@example.test> a écrit :"},
		tbird:   []string{"Le 12/05/2026 à 10:14, Referee a écrit :"},
		wrap2:   []string{"Le mar. 12 mai 2026 à 10:14, Referee <", "referee@example.test> a écrit :"},
		wrap3:   []string{"Le mar. 12 mai 2026 à 10:14, Arbitre de la", "partie g42 <referee@example.test>", "a écrit :"},
		nocolon: []string{"Le 12 mai 2026 à 10:14, Referee <referee@example.test> a écrit"},
		from:    "De", sent: "Envoyé", to: "À", subject: "Objet",
		original: "Message d'origine", forward: "Message transféré",
		sentFrom: "Envoyé de mon iPhone", outlookApp: "Télécharger Outlook pour Android",
		thanks: "Merci,", greeting: "Bonjour,",
		business: []string{"Anna Rossi", "ACME Brasserie SARL", "12 rue de la Paix, 75002 Paris", "Tél. : +33 1 23 45 67 89", "Fax : +33 1 23 45 67 80",
			"SIRET 123 456 789 00012 - RCS Paris B 123 456 789", "TVA FR12345678901", "Certifiée ISO 9001"},
		legal: "Ce message et ses pièces jointes sont confidentiels et destinés exclusivement à leur destinataire.",
	},
	"nl": {
		gmail:   []string{"Op di 12 mei 2026 om 10:14 schreef Referee <referee@example.test>:"},
		apple:   []string{"Op 12 mei 2026 om 10:14 heeft Referee <referee@example.test> het volgende geschreven:"},
		tbird:   []string{"Op 12-05-2026 om 10:14 schreef Referee:"},
		wrap2:   []string{"Op di 12 mei 2026 om 10:14 schreef", "Pas Referee <referee@example.test>:"},
		wrap3:   []string{"Op di 12 mei 2026 om 10:14 schreef", "Stand Referee van spel g42", "<referee@example.test>:"},
		nocolon: []string{"Op di 12 mei 2026 om 10:14 schreef Referee <referee@example.test>"},
		from:    "Van", sent: "Verzonden", to: "Aan", subject: "Onderwerp",
		original: "Oorspronkelijk bericht", forward: "Doorgestuurd bericht",
		sentFrom: "Verzonden vanaf mijn iPhone", outlookApp: "Download Outlook voor Android",
		thanks: "Groetjes,", greeting: "Hoi,",
		business: []string{"Anna Rossi", "ACME Brouwerij B.V.", "Kerkstraat 1, 1017 GA Amsterdam", "T +31 20 123 4567", "KvK 12345678 | BTW NL123456789B01",
			"IBAN NL91 ABNA 0417 1643 00", "ISO 9001 gecertificeerd"},
		legal: "Dit bericht is vertrouwelijk en uitsluitend bestemd voor de geadresseerde.",
	},
	"de": {
		gmail:   []string{"Am Di., 12. Mai 2026 um 10:14 Uhr schrieb Referee <referee@example.test>:"},
		apple:   []string{"Am 12.05.2026 um 10:14 schrieb Referee <referee@example.test>:"},
		tbird:   []string{"Am 12.05.26 um 10:14 schrieb Referee:"},
		wrap2:   []string{"Am Di., 12. Mai 2026 um 10:14 Uhr schrieb Referee <", "referee@example.test>:"},
		wrap3:   []string{"Am Di., 12. Mai 2026 um 10:14 Uhr schrieb", "Schiedsrichter der Partie g42", "<referee@example.test>:"},
		nocolon: []string{"Am 12.05.2026 um 10:14 schrieb Referee <referee@example.test>"},
		from:    "Von", sent: "Gesendet", to: "An", subject: "Betreff",
		original: "Ursprüngliche Nachricht", forward: "Weitergeleitete Nachricht",
		sentFrom: "Von meinem iPhone gesendet", outlookApp: "Outlook für Android herunterladen",
		thanks: "Viele Grüße", greeting: "Hallo,",
		business: []string{"Anna Rossi", "ACME Brauerei GmbH", "Hauptstraße 1, 10115 Berlin", "Tel.: +49 30 1234567", "Fax: +49 30 1234568",
			"Sitz: Berlin, Amtsgericht Charlottenburg HRB 123456", "Geschäftsführer: Max Muster", "USt-IdNr.: DE123456789",
			"IBAN: DE89 3704 0044 0532 0130 00", "Zertifiziert nach ISO 9001"},
		legal: "Diese E-Mail enthält vertrauliche Informationen und ist nur für den Empfänger bestimmt.",
	},
	"es": {
		gmail:   []string{"El mar, 12 may 2026 a las 10:14, Referee (<referee@example.test>) escribió:"},
		apple:   []string{"El 12 may 2026, a las 10:14, Referee <referee@example.test> escribió:"},
		tbird:   []string{"El 12/05/2026 a las 10:14, Referee escribió:"},
		wrap2:   []string{"El mar, 12 may 2026 a las 10:14, Referee (<", "referee@example.test>) escribió:"},
		wrap3:   []string{"El mar, 12 may 2026 a las 10:14, Árbitro de la", "partida g42 (<referee@example.test>)", "escribió:"},
		nocolon: []string{"El 12 may 2026, a las 10:14, Referee <referee@example.test> escribió"},
		from:    "De", sent: "Enviado", to: "Para", subject: "Asunto",
		original: "Mensaje original", forward: "Mensaje reenviado",
		sentFrom: "Enviado desde mi iPhone", outlookApp: "Descargar Outlook para Android",
		thanks: "Saludos,", greeting: "Hola,",
		business: []string{"Anna Rossi", "ACME Cervecería S.L.", "Calle Mayor 1, 28013 Madrid", "Tel.: +34 91 123 45 67", "CIF B12345678",
			"Empresa certificada ISO 9001"},
		legal: "Este mensaje es confidencial y va dirigido exclusivamente a su destinatario.",
	},
	"pt": {
		gmail:   []string{"Em ter., 12 de mai. de 2026 às 10:14, Referee <referee@example.test> escreveu:"},
		apple:   []string{"Em 12 de mai. de 2026, à(s) 10:14, Referee <referee@example.test> escreveu:"},
		tbird:   []string{"Em 12/05/2026 10:14, Referee escreveu:"},
		wrap2:   []string{"Em ter., 12 de mai. de 2026 às 10:14, Referee <", "referee@example.test> escreveu:"},
		wrap3:   []string{"Em ter., 12 de mai. de 2026 às 10:14, Árbitro da", "partida g42 <referee@example.test>", "escreveu:"},
		nocolon: []string{"Em 12 de mai. de 2026, à(s) 10:14, Referee <referee@example.test> escreveu"},
		from:    "De", sent: "Enviado", to: "Para", subject: "Assunto",
		original: "Mensagem original", forward: "Mensagem encaminhada",
		sentFrom: "Enviado do meu iPhone", outlookApp: "Baixe o Outlook para Android",
		thanks: "Obrigado,", greeting: "Olá,",
		business: []string{"Anna Rossi", "ACME Cervejaria Lda.", "Rua Augusta 1, 1100-048 Lisboa", "Tel.: +351 21 123 4567", "NIF 123456789",
			"Certificada ISO 9001"},
		legal: "Esta mensagem é confidencial e destina-se exclusivamente ao destinatário.",
	},
}

// genPrompt is the referee's mail being answered: its command lines would
// show if any of it leaked.
var genPrompt = []string{
	"##- Please type your reply above this line -##",
	"Dice Brewing - game g42, move 57",
	"It is your turn, Anna (seat 1).",
	"",
	"Your options:",
	"  1) PLACE MH1 SEED",
	"  2) STORE Y5 G4",
	"  3) PASS",
	"",
	"-- ",
	"Referee of game g42 - reply STATUS for the full board",
}

// genPromptNoGuard is the prompt without the referee's top line (a client
// that dropped it, or a prompt from before it existed).
var genPromptNoGuard = genPrompt[1:]

func genQuote(lines []string, p string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = strings.TrimRight(p, " ")
		} else {
			out[i] = p + l
		}
	}
	return out
}

// genLayout is a client layout: the lines from the start of the quote to
// the end of the message; quoted is true when the prompt is '>'-quoted
// (so that bottom-posting and interleaving are possible).
type genLayout struct {
	name   string
	quote  []string
	quoted bool
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func headerBlock(w genWords, star string, date string) []string {
	f := func(name, value string) string {
		switch star {
		case "*":
			return "*" + name + ":* " + value
		case "**":
			return "**" + name + ":** " + value
		case "** ":
			return "** " + name + " : " + value + " **"
		case " :":
			return name + " : " + value
		}
		return name + ": " + value
	}
	return []string{
		f(w.from, "Referee <referee@example.test>"),
		f(w.sent, date),
		f(w.to, "Anna Rossi <anna.rossi@example.org>"),
		f(w.subject, "Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing: your turn"),
	}
}

func genLayouts(lang string) []genLayout {
	w := genWordsOf[lang]
	q := genQuote(genPromptNoGuard, "> ")
	qGuard := genQuote(genPrompt, "> ")
	date := "Tuesday, May 12, 2026 10:14 AM"
	var ls []genLayout
	add := func(name string, quoted bool, lines ...[]string) {
		ls = append(ls, genLayout{name: lang + "/" + name, quote: cat(lines...), quoted: quoted})
	}
	// '>'-quoting clients: Gmail, Apple Mail (macOS, iOS), Thunderbird,
	// K-9/FairEmail, mutt, wrapped attributions, attributions without colon.
	add("gmail", true, w.gmail, q)
	add("gmail-guard", true, w.gmail, qGuard)
	add("apple", true, w.apple, []string{""}, q)
	add("thunderbird", true, w.tbird, q)
	add("wrap2", true, w.wrap2, q)
	add("wrap3", true, w.wrap3, q)
	add("nocolon", true, w.nocolon, []string{""}, q)
	add("k9-blank", true, w.gmail, []string{""}, q, []string{""})
	add("mutt-star", true, []string{"* Referee <referee@example.test> [2026-05-12 10:14]:"}, q)
	add("proton", true, []string{"------- " + w.original + " -------", strings.TrimSuffix(w.apple[0], ":") + ":", ""}, q)
	add("quoted-header-block", true, genQuote(cat(headerBlock(w, "", date), []string{""}, genPromptNoGuard), "> "))
	// Clients that do not quote the prompt: a separator or a header
	// block starts it.
	add("outlook-original", false, []string{"-----" + w.original + "-----"}, headerBlock(w, "", date), []string{""}, genPrompt)
	add("outlook-original-spaced", false, []string{"------- " + w.original + " -------"}, headerBlock(w, " :", date), []string{""}, genPromptNoGuard)
	add("outlook-underscores", false, []string{"________________________________"}, headerBlock(w, "", date), []string{""}, genPromptNoGuard)
	add("outlook-bold", false, []string{"________________________________"}, headerBlock(w, "*", date), []string{""}, genPromptNoGuard)
	add("html-bold", false, headerBlock(w, "**", date), []string{""}, genPromptNoGuard)
	add("starred-frame", false, headerBlock(w, "** ", date), []string{""}, genPromptNoGuard)
	add("outlook-ios", false, headerBlock(w, "", date), []string{""}, genPromptNoGuard)
	add("equals-words", false, []string{"===== " + w.original + " ====="}, headerBlock(w, "", date), []string{""}, genPromptNoGuard)
	add("equals-bare", false, []string{"=============================="}, headerBlock(w, "", date), []string{""}, genPromptNoGuard)
	add("dashes-bare", false, []string{"------------------------------"}, headerBlock(w, "", date), []string{""}, genPromptNoGuard)
	add("forward", false, []string{"---------- " + w.forward + " ---------"}, headerBlock(w, "", date), []string{""}, genPromptNoGuard)
	add("gmx-date-first", false, []string{w.sent + ": " + date, w.from + ": \"Referee\" <referee@example.test>", w.to + ": anna.rossi@example.org", w.subject + ": Dice Brewing"}, []string{""}, genPromptNoGuard)
	add("unquoted-attribution", false, w.gmail, []string{""}, genPromptNoGuard)
	// A header block in a language without words in the data file
	// (Finnish, Czech): the structural rule.
	add("any-language-header", false, []string{"Lähettäjä: Referee <referee@example.test>", "Lähetetty: tiistai 12. toukokuuta 2026 10.14",
		"Vastaanottaja: Anna Rossi <anna.rossi@example.org>", "Aihe: Dice Brewing"}, []string{""}, genPromptNoGuard)
	add("any-language-header-cs", false, []string{"Od: Referee <referee@example.test>", "Odesláno: úterý 12. května 2026 10:14",
		"Komu: Anna Rossi <anna.rossi@example.org>", "Předmět: Dice Brewing"}, []string{""}, genPromptNoGuard)
	return ls
}

// genSignatures are the ways a reply ends below the player's lines.
func genSignatures(lang string) [][]string {
	w := genWordsOf[lang]
	return [][]string{
		nil,
		{"-- ", "Anna Rossi", "anna.rossi@example.org"},
		{"--", "Anna Rossi"},
		{w.sentFrom},
		{w.outlookApp},
		{w.thanks, "Anna"},
		{w.thanks, "Anna", "", w.sentFrom},
		w.business,
		append([]string{w.thanks, ""}, w.business...),
		{"Anna Rossi", "________________________________", w.legal},
		{"===========================", w.legal},
	}
}

// genAbove are the lines a reply may carry above the player's lines;
// genKept says which of them the player's text keeps (chat).
func genAbove(lang string) [][]string {
	w := genWordsOf[lang]
	return [][]string{nil, {w.greeting}, {w.sentFrom, ""}, {w.greeting, "", w.sentFrom, ""},
		// A signature placed above the quote, the player typing below it.
		{"-- ", "Anna Rossi", "anna.rossi@example.org", ""},
		{"--", "Anna Rossi", ""},
		// Chat that holds signature marks right above the answer.
		{w.greeting, genChat, ""},
	}
}

// genChat is a line of chat above the answer that holds signature marks
// (an address, a URL): it is the player's, kept (and listed as chat by the
// referee), and it hides nothing below it.
const genChat = "my new address is anna@rossi.example, see https://rossi.example"

func genKept(above []string) []string {
	if len(above) > 1 && above[1] == genChat {
		return []string{genChat, ""}
	}
	return nil
}

type genCase struct {
	name string
	body string
	want string
}

func genWant(answer []string) string {
	lines := answer
	for i, l := range lines {
		if l == "#begin" {
			lines = lines[i+1 : len(lines)-1]
			break
		}
	}
	return tidy(append([]string(nil), lines...))
}

// genCases crosses every layout, answer form, signature, lines above and
// posting; visit is called with each case.
func genCases(visit func(genCase)) {
	for _, lang := range genLangs {
		sigs := genSignatures(lang)
		above := genAbove(lang)
		for li, l := range genLayouts(lang) {
			for ai, a := range genAnswers {
				for si, sig := range sigs {
					if (si+ai+li)%3 != 0 {
						continue // every signature with every answer, over the layouts
					}
					ab := above[(ai+si+li)%len(above)]
					// Top-posted: the player's lines, the signature, the quote.
					own := cat(ab, a, []string{""}, sig)
					visit(genCase{
						name: fmt.Sprintf("%s/top/a%d/s%d", l.name, ai, si),
						body: strings.Join(cat(own, []string{""}, l.quote), "\n"),
						want: genWant(cat(genKept(ab), a)),
					})
					if !l.quoted {
						continue
					}
					// Bottom-posted: the quote, then the player's lines.
					visit(genCase{
						name: fmt.Sprintf("%s/bottom/a%d/s%d", l.name, ai, si),
						body: strings.Join(cat(l.quote, []string{""}, a, []string{""}, sig), "\n"),
						want: genWant(a),
					})
					// Interleaved: the answer between the quoted lines of
					// the menu, the rest of the quote below.
					if (si+ai)%2 == 0 {
						cut := len(l.quote) - 4
						visit(genCase{
							name: fmt.Sprintf("%s/inline/a%d/s%d", l.name, ai, si),
							body: strings.Join(cat(l.quote[:cut], []string{""}, a, []string{""}, l.quote[cut:], []string{""}, sig), "\n"),
							want: genWant(a),
						})
					}
				}
			}
		}
	}
}

var genSender = mailmsg.Address{Name: "Anna Rossi", Addr: "anna.rossi@example.org"}

// TestGeneratedReplies is the generated suite of issue 20 (at least 20,000
// combinations): the answer comes out intact, without a line of the quote
// or of the signature.
func TestGeneratedReplies(t *testing.T) {
	n, failed := 0, 0
	perLayout := map[string]int{}
	genCases(func(c genCase) {
		n++
		got, _ := corpusKeywords.ExtractCommands(c.body, genSender)
		if got != c.want {
			failed++
			layout := c.name[:strings.Index(c.name, "/a")]
			perLayout[layout]++
			parts := strings.Split(c.name, "/")
			perLayout[parts[3]]++
			perLayout[parts[4]]++
			if perLayout[layout] <= 2 && failed <= 400 {
				t.Errorf("%s:\n%s\n--- got\n%s\n--- want\n%s", c.name, c.body, got, c.want)
			}
		}
	})
	if n < 20000 {
		t.Errorf("the generated suite has %d combinations; issue 20 asks for at least 20,000", n)
	}
	t.Logf("%d generated replies, %d failed", n, failed)
	if failed > 0 {
		for k, v := range perLayout {
			t.Logf("  %s: %d", k, v)
		}
	}
}

// TestGeneratedRepliesParsed sends a share of the generated replies
// through Parse as whole messages (8-bit and quoted-printable text/plain,
// CRLF line ends), so that normalisation and reading are checked together.
func TestGeneratedRepliesParsed(t *testing.T) {
	n, failed := 0, 0
	i := 0
	perType := map[string]int{}
	genCases(func(c genCase) {
		i++
		if i%37 != 0 {
			return
		}
		n++
		body := strings.ReplaceAll(c.body, "\n", "\r\n")
		cte, ctype := "8bit", "text/plain"
		want := strings.NewReplacer("“", `"`, "”", `"`).Replace(c.want)
		if i%3 == 0 {
			// The same reply as an HTML-only mail (Outlook on the web,
			// Gmail's HTML part): '>' lines in a blockquote, one div a
			// line; HTML collapses runs of spaces.
			cte, ctype, body = "8bit", "text/html", genHTML(c.body)
			fields := strings.Split(want, "\n")
			for k, f := range fields {
				fields[k] = strings.Join(strings.Fields(f), " ")
			}
			want = strings.Join(fields, "\n")
		} else if i%2 == 0 {
			cte = "quoted-printable"
			var b strings.Builder
			w := quotedprintable.NewWriter(&b)
			_, _ = w.Write([]byte(body))
			_ = w.Close()
			body = b.String()
		}
		raw := "From: Anna Rossi <anna.rossi@example.org>\r\nTo: referee+g42.1.k7x9q2abcd3e.57@example.test\r\n" +
			"Subject: Re: [g42.1.k7x9q2abcd3e #57] Dice Brewing\r\nDate: Tue, 12 May 2026 11:49:07 +0200\r\nMessage-ID: <gen" + fmt.Sprint(i) + "@example.org>\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: " + ctype + "; charset=utf-8\r\nContent-Transfer-Encoding: " + cte + "\r\n\r\n" + body
		m, err := mailmsg.Parse([]byte(raw), corpusOptions)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		perType[ctype+" "+cte]++
		if ctype == "text/html" && !m.FromHTML {
			t.Fatalf("%s: not read as HTML", c.name)
		}
		got, _ := corpusKeywords.MailCommands(m)
		if got != want {
			failed++
			if failed <= 10 {
				t.Errorf("%s (%s):\n%s\n--- got\n%s\n--- want\n%s", c.name, cte, m.Text, got, want)
			}
		}
	})
	if n < 1000 {
		t.Errorf("only %d parsed replies", n)
	}
	t.Logf("%d parsed generated replies (%v), %d failed", n, perType, failed)
}

// genHTML renders a generated plain-text reply as a client's HTML: one
// div per line, the '>' lines in a blockquote, a rule line of underscores
// as <hr>.
func genHTML(body string) string {
	var b strings.Builder
	b.WriteString("<html><body>")
	inQuote := false
	for _, l := range strings.Split(body, "\n") {
		q := strings.HasPrefix(l, ">")
		if q != inQuote {
			if q {
				b.WriteString("<blockquote>")
			} else {
				b.WriteString("</blockquote>")
			}
			inQuote = q
		}
		if q {
			l = strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")
		}
		switch {
		case l == "":
			b.WriteString("<div><br></div>\n")
		case strings.Trim(l, "_") == "":
			b.WriteString("<hr>\n")
		default:
			b.WriteString("<div>" + html.EscapeString(l) + "</div>\n")
		}
	}
	if inQuote {
		b.WriteString("</blockquote>")
	}
	b.WriteString("</body></html>")
	return b.String()
}

// genSeeds returns one generated reply in every, for seeding the fuzzers
// with every layout of the generated suite.
func genSeeds(every int) []string {
	var out []string
	i := 0
	genCases(func(c genCase) {
		if i++; i%every == 0 {
			out = append(out, c.body)
		}
	})
	return out
}
