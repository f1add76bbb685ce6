package mailfmt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt"
	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// Signatures without "-- " (Outlook, Gmail on phones): a signature or
// sign-off line that holds a digit or a word in capitals ("Brauerei Straße
// 5, Zürich", "Tel. +49 30 123456", "ACME GmbH", "Sent from my iPhone 15")
// can be no command, so it never makes the player's real command fail
// (IsProse, doc.go "# Answers"). Generated: languages (en, it, fr, nl, de)
// x signature shapes x with or without "-- " x after a blank line or not x
// answer forms x client layouts. The command read is exactly the player's
// and no signature line reaches the engine.
func TestSignatureLinesNeverCommands(t *testing.T) {
	r, _ := testReader(t)
	type lang struct {
		signOff, option, place string
		shapes                 []string
	}
	langs := map[string]lang{
		"en": {"Best regards,", "option", "PLACE", []string{"Tel. +44 20 7946 0958", "ACME Ltd", "www.acme24.example", "Sent from my iPhone 15", "Flat 4, 221B Baker Street"}},
		"it": {"Cordiali saluti", "opzione", "PIAZZA", []string{"Via Roma 3, 20121 Milano", "Cell. 333 1234567", "BIRRIFICIO ROSSI S.r.l.", "Inviato da iPhone 15", "P.IVA 01234567890"}},
		"fr": {"Cordialement,", "choix", "PLACER", []string{"Tél. 01 23 45 67 89", "Envoyé de mon Galaxy S24", "ACME SARL", "Siège: Lyon 69002"}},
		"nl": {"Met vriendelijke groet,", "optie", "PLAATS", []string{"Kerkstraat 12, 1017 GM Amsterdam", "Mob: 06-12345678", "ACME B.V.", "Verzonden vanaf mijn iPhone 15", "KvK 12345678"}},
		"de": {"Mit freundlichen Grüßen", "option", "PLACE", []string{"Brauerei Straße 5, Zürich", "Hauptstr. 12, 10115 Berlin", "Tel. +49 30 123456", "ACME GmbH", "Von meinem iPhone 15 gesendet", "Geschäftsführer: Dr. Hans Müller", "Sitz der Gesellschaft: Berlin, HRB 12345"}},
	}
	layouts := signLayouts
	sender := mailmsg.Address{Name: "Anna Keller", Addr: "anna@brauerei.example"}
	n := 0
	for lname, l := range langs {
		answers := []struct{ line, want string }{
			{"2", "option 2"},
			{"2.", "option 2"},
			{l.option + " 2", "option 2"},
			{"2) PLACE HP1 SEED", "option 2 PLACE HP1 SEED"},
			{l.place + " HP1 SEED", l.place + " HP1 SEED"},
			{strings.ToLower(l.place) + " HP1 seed", strings.ToLower(l.place) + " HP1 seed"},
		}
		for _, shape := range l.shapes {
			for _, dash := range []bool{false, true} {
				for _, gap := range []bool{true, false} {
					for _, a := range answers {
						for lay, write := range layouts {
							own := a.line + "\n"
							if gap {
								own += "\n"
							}
							if dash {
								own += "-- \n"
							}
							own += l.signOff + "\nAnna Keller\n" + shape
							body := write(own)
							name := fmt.Sprintf("%s/%s/%q/dash=%v/gap=%v/%q", lname, lay, shape, dash, gap, a.line)
							text, _ := testKW.ExtractCommands(body, sender)
							got := readAnswers(r, text)
							if len(got) != 1 || got[0] != a.want {
								t.Errorf("%s: read %q, want only %q\ntext %q", name, got, a.want, text)
							}
							// The referee's prose split leaves the answer alone.
							cmds, _ := testKW.SplitProse(text)
							if strings.TrimSpace(cmds) != a.line {
								t.Errorf("%s: SplitProse kept %q, want %q", name, cmds, a.line)
							}
							n++
						}
					}
				}
			}
		}
	}
	if n < 500 {
		t.Fatalf("only %d cases", n)
	}
}

// signMenu is the referee's mail a signature test answers, and
// signLayouts the client layouts that quote it around the player's own
// text: Outlook (a rule line and a header block), Gmail, Apple Mail
// (German attribution), Thunderbird bottom-posted.
const signMenu = "##- Please type your reply above this line -##\nYour move, Anna.\n  1) PASS\n  2) PLACE HP1 SEED\n  3) STORE Y5 G4\n"

var signLayouts = map[string]func(own string) string{
	"outlook": func(own string) string {
		return own + "\n\n________________________________\nFrom: Referee <ref@referee.example>\nSent: Monday, December 7, 2026 10:00\nTo: Anna Keller <anna@brauerei.example>\nSubject: Re: [g42] your move\n\n" + signMenu
	},
	"gmail": func(own string) string {
		return own + "\n\nOn Mon, 7 Dec 2026 at 10:00, Referee <ref@referee.example> wrote:\n" + quote(signMenu)
	},
	"apple": func(own string) string {
		return own + "\n\n> Am 07.12.2026 um 10:00 schrieb Referee <ref@referee.example>:\n> \n" + quote(signMenu)
	},
	"apple-en": func(own string) string {
		return own + "\n\n> On 7 Dec 2026, at 10:00, Referee <ref@referee.example> wrote:\n> \n" + quote(signMenu)
	},
	"thunderbird-bottom": func(own string) string {
		return "On 07/12/2026 10:00, Referee wrote:\n" + quote(signMenu) + "\n" + own + "\n"
	},
}

// readAnswers is what the reader reads in text for the engine, a line
// each: "option n [copied]", a command's text, "ask <line>".
func readAnswers(r *mailfmt.AnswerReader, text string) []string {
	var got []string
	for _, al := range r.Read(text) {
		switch al.Kind {
		case mailfmt.AnswerOption:
			got = append(got, strings.TrimSpace(fmt.Sprintf("option %d %s", al.Option, al.Copied)))
		case mailfmt.AnswerCommand:
			got = append(got, al.Text)
		case mailfmt.AnswerAsk:
			got = append(got, "ask "+al.Raw)
		}
	}
	return got
}

func quote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n> ") + "\n"
}

// What may still be a command is never taken for a signature line: a line
// that starts with a keyword or a typo of one, a number or option form, the
// engine's syntax, or holds a keyword in capitals later ("I PLAY SHIELD":
// refused with a hint), or a keyword and a digit ("Hi, place it at HP1").
func TestProseKeepsWhatMayBeACommand(t *testing.T) {
	r, _ := testReader(t)
	for _, line := range []string{
		"PLACE HP1 SEED", "place HP1 seed", "Plcae HP1 seed", "PLCAE HP1 SEED", "PIAZZA HP1", "2", "option 2", "opzione 2",
		"2) PLACE HP1 SEED", "PLACE HP1 SEED | PASS", "BUY HO2 S1; DONE", "#begin", "I PLACE HP1 SEED", "Hi, place it at HP1",
		"I choose option 2 please", "MH1 SEED", "Tel. PASS", "ACME 5", "Brauerei PLACE 5",
	} {
		if testKW.IsProse(line) {
			t.Errorf("IsProse(%q) = true, want false", line)
		}
		if al := r.Line(line); al.Kind == mailfmt.AnswerChat {
			t.Errorf("%q read as chat: %+v", line, al)
		}
	}
	for _, line := range []string{
		"Brauerei Straße 5, Zürich", "Hauptstr. 12", "Via Roma 3, 20121 Milano", "Tel. +49 30 123456", "Mob: 06-12345678",
		"Sent from my iPhone 15", "Envoyé de mon Galaxy S24", "PS: 2 more days", "Kerkstraat 12, 1017 GM Amsterdam",
		"Sitz der Gesellschaft: Berlin, HRB 12345", "www.acme24.example", "anna.keller@brauerei24.example", "https://brauerei5.example/shop",
		// A one-letter keyword after a word is a building or an initial:
		// no hint "B" (session 13).
		"Bâtiment B", "Anna K", "Scala B",
		// A number and a street word: an address, never option 221
		// (session 14).
		"221 Baker St, London", "221 Baker St", "12 rue de la Paix", "Via Roma 3",
	} {
		if !testKW.IsProse(line) {
			t.Errorf("IsProse(%q) = false, want true", line)
		}
		// One rule for both readers: prose is chat, never an option
		// ("Hauptstr. 12", "PS: 2 more days"), and gives no hint.
		if al := r.Line(line); al.Kind != mailfmt.AnswerChat || al.Hint != "" {
			t.Errorf("%q not read as chat without a hint: %+v", line, al)
		}
	}
	// Ambiguous, never dropped: a line that starts with a keyword
	// ("Piazza" is PLACE in Italian) or a number, or holds a keyword in
	// capitals ("B" of Brewcrafters) and a digit, stays for the engine to
	// refuse with its reason, even in a signature.
	for _, line := range []string{"ACME GmbH", "CEO", "WITHDRAW open ann@p.test", "Piazza Duomo 1, Milano", "Bâtiment B, 3e étage"} {
		if testKW.IsProse(line) {
			t.Errorf("IsProse(%q) = true, want false", line)
		}
		if al := r.Line(line); al.Kind == mailfmt.AnswerChat {
			t.Errorf("%q read as chat: %+v", line, al)
		}
	}
}

// signedTails are signatures under a sign-off without "-- ", per language
// (en, it, fr, nl, de): the sign-off, the name, then lines that once
// stayed ambiguous and voided the reply (doc.go rule 6): a company, a
// title in capitals, a street that starts with a keyword ("Piazza" is
// PLACE in Italian) or a number, a building letter, a '|' line.
var signedTails = map[string][]string{
	"en": {"Best regards,\nAnna Keller\nACME GmbH\nCEO\n221 Baker St\nLondon", "Cheers\nAnna\n221 Baker St, London NW1 6XE",
		"Thanks\nAnna Keller | ACME Ltd | London"},
	"it": {"Ciao!\nAnna\nPiazza Duomo 1, 20121 Milano", "Cordiali saluti\nAnna Keller\nBIRRIFICIO ROSSI S.r.l.\nPiazza Duomo 1",
		"Grazie\nAnna\nBrewers' Circle | Milano"},
	"fr": {"Bien à vous\nAnna\nBâtiment B, 3e étage\n12 rue de la Paix, 75002 Paris", "Cordialement,\nAnna Keller\nPDG\nACME SARL"},
	"nl": {"Groetjes\nAnna\nKerkstraat 12\n1017 GM Amsterdam", "Met vriendelijke groet,\nAnna Keller\nCEO\nACME B.V."},
	"de": {"Grüße,\nAnna\nHauptstr. 12\n10115 Berlin", "Viele Grüße\nAnna Keller\nACME GmbH\nCEO"},
}

// TestSignatureUnderSignOffIsNoCommand: a signature under a sign-off
// without "-- " (doc.go rule 6) in five languages, in Outlook, Gmail,
// Apple Mail and Thunderbird layouts, top- or bottom-posted, after every
// answer form: only the answer is read, the sign-off and name are listed,
// and no signature line reaches the engine; a command in the same place
// (below the sign-off) is still read.
func TestSignatureUnderSignOffIsNoCommand(t *testing.T) {
	r, _ := testReader(t)
	layouts := signLayouts
	sender := mailmsg.Address{Name: "Anna Keller", Addr: "anna@brauerei.example"}
	read := func(text string) []string { return readAnswers(r, text) }
	n := 0
	for lang, tails := range signedTails {
		answers := []struct{ line, want string }{
			{"2", "option 2"}, {"2.", "option 2"}, {"option 2", "option 2"}, {"opzione 2", "option 2"},
			{"2) PLACE HP1 SEED", "option 2 PLACE HP1 SEED"}, {"PLACE HP1 SEED", "PLACE HP1 SEED"}, {"piazza HP1 seme", "piazza HP1 seme"},
		}
		for _, tail := range tails {
			for _, gap := range []string{"\n", "\n\n"} {
				for _, a := range answers {
					for lay, write := range layouts {
						n++
						name := fmt.Sprintf("%s/%s/%q/gap %d/%q", lang, lay, tail, len(gap), a.line)
						text, info := testKW.ExtractCommands(write(a.line+gap+tail), sender)
						if got := read(text); len(got) != 1 || got[0] != a.want {
							t.Errorf("%s: read %q, want only %q\ntext %q", name, got, a.want, text)
						}
						if first, _, _ := strings.Cut(tail, "\n"); (len(info.SignOff) == 0 || info.SignOff[0] != first) && info.SignatureLine != first {
							t.Errorf("%s: sign-off %q, signature %q, want either to start with %q", name, info.SignOff, info.SignatureLine, first)
						}
						// A command in the same place, below the sign-off
						// and the name, is read: never hidden as signature.
						signOff, _, _ := strings.Cut(tail, "\n")
						for _, below := range []struct{ line, want string }{{"PASS", "PASS"}, {"3", "option 3"}, {"Piazza HP1 seme", "Piazza HP1 seme"},
							{"STORE Y5 G4", "STORE Y5 G4"}, {"place hp1 seed", "place hp1 seed"}} {
							own := a.line + gap + signOff + "\nAnna\n" + below.line
							text, _ := testKW.ExtractCommands(write(own), sender)
							if got := read(text); len(got) != 2 || got[0] != a.want || got[1] != below.want {
								t.Errorf("%s: with %q below the sign-off read %q, want %q and %q\ntext %q", name, below.line, got, a.want, below.want, text)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d replies", n)
}
