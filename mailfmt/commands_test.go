package mailfmt

import (
	"strings"
	"testing"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

func TestExtractCommands(t *testing.T) {
	anna := mailmsg.Address{Name: "Anna Rossi", Addr: "anna.rossi@example.org"}
	tests := []struct {
		name   string
		body   string
		sender mailmsg.Address
		want   string
		check  func(CommandInfo) bool
	}{
		{
			name: "markers override the heuristics",
			body: "ignored chatter\n#begin\n--\nPASS\nThanks\nAnna\n#end\nmore chatter\n-- \nAnna",
			want: "--\nPASS\nThanks\nAnna", sender: anna,
			check: func(i CommandInfo) bool { return i.Markers && !i.Unclosed && i.Outside == 2 && !i.Signature },
		},
		{
			name: "markers in any case, with spaces",
			body: "  #BEGIN  \nSTORE Y5 G4\n\t#End\nPASS",
			want: "STORE Y5 G4",
		},
		{
			name:  "quoted markers never count",
			body:  "STATUS\n\n> #begin\n> PASS\n> #end",
			want:  "STATUS",
			check: func(i CommandInfo) bool { return !i.Markers && i.Quote },
		},
		{
			name: "markers inside an Outlook quote never count",
			body: "STATUS\n\nFrom: Referee <referee@example.test>\nSent: Tuesday, May 12, 2026 10:14 AM\nTo: Anna\nSubject: x\n\n#begin\nPASS\n#end\n",
			want: "STATUS",
			check: func(i CommandInfo) bool {
				return !i.Markers && i.Quote && strings.HasPrefix(i.QuoteHeader, "From: Referee")
			},
		},
		{
			name: "a quoted #end does not close the block",
			body: "#begin\nMAKE B14\n> #end\nDONE\n#end\nnot this",
			want: "MAKE B14\nDONE",
		},
		{
			name:  "unclosed block runs to the quote and loses its signature",
			body:  "#begin\nMAKE B14\n\n-- \nAnna\n\nOn Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test> wrote:\n> #end\n> PASS",
			want:  "MAKE B14",
			check: func(i CommandInfo) bool { return i.Markers && i.Unclosed && i.Signature },
		},
		{
			name:  "an undated attribution followed by unquoted text is the player's text",
			body:  "Anna wrote:\nPASS",
			want:  "Anna wrote:\nPASS",
			check: func(i CommandInfo) bool { return !i.Quote },
		},
		{
			name:  "an undated attribution before quoted lines is dropped",
			body:  "Referee wrote:\n> PASS\n\nDONE",
			want:  "DONE",
			check: func(i CommandInfo) bool { return i.Quote && i.Interleaved && i.QuoteHeader == "Referee wrote:" },
		},
		{
			name: "attribution wrapped over three lines",
			body: "PASS\n\nOn Tuesday, May 12, 2026 at 10:14:03 AM Central European Summer Time,\nReferee of the game g42 at the club <\nreferee@example.test> wrote:\n> 1 PASS\n",
			want: "PASS",
		},
		{
			name:  "the player's lines between quotes are kept",
			body:  "> Your options:\n> 1 BREW\n2\n> Anything to say?\nSAY all: hi\n>\n> -- \n> Referee",
			want:  "2\nSAY all: hi",
			check: func(i CommandInfo) bool { return i.Interleaved && !i.Signature },
		},
		{
			name:  "valediction before a command is not a sign-off",
			body:  "Thanks\nPASS",
			want:  "Thanks\nPASS",
			check: func(i CommandInfo) bool { return len(i.SignOff) == 0 },
		},
		{
			name: "capitalised command that is not the sender's name stays",
			body: "Pass",
			want: "Pass", sender: anna,
		},
		{
			name: "sender's name and closing words are removed",
			body: "DONE\n\nCiao\nAnna Rossi",
			want: "DONE", sender: anna,
			check: func(i CommandInfo) bool { return len(i.SignOff) == 2 },
		},
		{
			name: "first word of the address's local part counts as a name",
			body: "STATUS\n\nanna",
			want: "STATUS", sender: mailmsg.Address{Addr: "anna.rossi@example.org"},
		},
		{
			name: "closing word with the name on the same line",
			body: "MILK 1 F22\nGroetjes, Anna",
			want: "MILK 1 F22", sender: anna,
		},
		{
			name: "a From line alone is not a header block",
			body: "SAY all: From: the market, I take two\nPASS",
			want: "SAY all: From: the market, I take two\nPASS",
		},
		{
			name: "bold header block from HTML conversion",
			body: "PASS\n\n*From:* Referee <referee@example.test>\n*Sent:* Tuesday\n*To:* Anna\n*Subject:* x\n\nYour options: 1 PASS",
			want: "PASS",
		},
		{
			name: "dashes used as separators between commands are not a signature",
			body: "PLACE MH1 SEED\n--\nSTORE Y5 G4\n---\nPASS",
			want: "PLACE MH1 SEED\n--\nSTORE Y5 G4\n---\nPASS", sender: anna,
			check: func(i CommandInfo) bool { return !i.Signature },
		},
		{
			name: "bare -- before the sender's name is a signature",
			body: "PASS\n--\nAnna Rossi\nMilano",
			want: "PASS", sender: anna,
			check: func(i CommandInfo) bool { return i.Signature && i.SignatureLine == "--" },
		},
		{
			name: "bare -- before contact details is a signature",
			body: "DONE\n--\nStudio R.\n+39 02 1234 5678",
			want: "DONE",
		},
		{
			name:  "long line of underscores without header block is a signature",
			body:  "PASS\n________________________________\nThis e-mail is confidential.",
			want:  "PASS",
			check: func(i CommandInfo) bool { return i.Signature },
		},
		{
			name: "forward separator keeps only the forwarder's text",
			body: "DONE\n\n-------- Original Message --------\nSubject: x\n\nMAKE B14",
			want: "DONE",
		},
		{
			name:  "referee reply line stops the text",
			body:  "MAKE B14\n\n##- Please write your reply above this line -##\n\nYour options:\n  1  G 2 blue",
			want:  "MAKE B14",
			check: func(i CommandInfo) bool { return i.Quote },
		},
		{
			name: "blank lines are collapsed and trimmed, trailing spaces removed",
			body: "\n\n  \nPLACE MH1 SEED   \n\n\n\nSTORE Y5 G4\t\n\n",
			want: "PLACE MH1 SEED\n\nSTORE Y5 G4",
		},
		{
			name: "CRLF input",
			body: "PASS\r\n\r\n> quoted\r\n",
			want: "PASS",
		},
		{
			name: "empty body",
			body: "",
			want: "",
		},
		{
			name:  "only a signature",
			body:  "-- \nAnna",
			want:  "",
			check: func(i CommandInfo) bool { return i.Signature && i.Lines == 0 },
		},
		{
			name: "indented quote markers",
			body: "PASS\n  > quoted with indentation\n\t>> deeper",
			want: "PASS",
		},
		{
			name: "dated attribution followed by unquoted text cuts (Outlook for Mac)",
			body: "PASS\n\nOn 12/05/2026, 10:14, \"Referee\" <referee@example.test> wrote:\n\nYour options:\n  1  STORE Y5 G4",
			want: "PASS",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, info := ExtractCommands(tt.body, tt.sender)
			if got != tt.want {
				t.Errorf("got %q, want %q (info %+v)", got, tt.want, info)
			}
			if tt.check != nil && !tt.check(info) {
				t.Errorf("info %+v fails the check", info)
			}
			n := 0
			for _, l := range strings.Split(got, "\n") {
				if l != "" {
					n++
				}
			}
			if info.Lines != n {
				t.Errorf("info.Lines = %d, want %d", info.Lines, n)
			}
		})
	}
}

// TestCommandsNeverQuoted checks the central invariant on crafted layouts:
// whatever the heuristics decide, no '>' line is returned.
func TestCommandsNeverQuoted(t *testing.T) {
	bodies := []string{
		"#begin\n> PASS\n#end",
		"#begin\n>PASS",
		"> #begin\n> PASS\n> #end\n>",
		"On Tue wrote:\n> a\nb\n> c\n#begin\n> d\n#end",
	}
	for _, b := range bodies {
		got, _ := ExtractCommands(b, mailmsg.Address{})
		for _, l := range strings.Split(got, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), ">") {
				t.Errorf("ExtractCommands(%q) returned quoted line %q", b, l)
			}
		}
	}
}

// Issue 10: a line that reads as a command is never merged into the quote
// header below it, whatever the header's layout.
func TestCommandNeverMergedIntoAttribution(t *testing.T) {
	kw := NewKeywords([]string{"SAY", "PASS", "PLACE", "JOIN"}, nil)
	quoted := "\n> ##- Please write your reply above this line -##\n> 1  PASS\n"
	for _, tc := range []struct{ body, want string }{
		{"PASS\nOn Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test> wrote:" + quoted, "PASS"},
		{"2\nReferee <referee@example.test> wrote:" + quoted, "2"},
		{"place mh3 k5\nReferee <referee@example.test> wrote:" + quoted, "place mh3 k5"},
		{"join\nIl giorno mar 12 mag 2026 alle ore 10:14 Referee <referee@example.test> ha scritto:" + quoted, "join"},
		{"PLACE MH3 K5\nPASS\nAm Di., 12. Mai 2026 um 10:14 Uhr schrieb Referee <referee@example.test\n>:" + quoted, "PLACE MH3 K5\nPASS"},
		{"say anna: see you at 10:30:" + quoted, "say anna: see you at 10:30:"},
		{"SAY all: 12/05 at 10:30:" + quoted, "SAY all: 12/05 at 10:30:"},
		{"I play this one now, before the trip\nOn Tue, May 12, 2026 at 10:14 AM Referee <referee@example.test> wrote:" + quoted, "I play this one now, before the trip"},
	} {
		got, info := kw.ExtractCommands(tc.body, mailmsg.Address{})
		if got != tc.want || !info.Quote {
			t.Errorf("%q:\n got %q (quote %v), want %q", tc.body, got, info.Quote, tc.want)
		}
	}
}

// Issue 10: the language-neutral rule, '|' and ':' quoting, the guard line
// under any prefix, header blocks with any spacing.
func TestQuoteDetectionNeutral(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"russian attribution", "PASS\n\nвт, 12 мая 2026 г. в 10:14, Referee <referee@example.test>:\n> 1 PASS\n> 2 STORE", "PASS"},
		{"finnish attribution and pipes", "2\nReferee kirjoitti 12.5.2026 klo 10.14:\n| 1 PASS\n| 2 STORE", "2"},
		{"colon quoting", "3\n: 1 PASS\n: 2 STORE\n: 3 BREW", "3"},
		{"guard under a pipe", "3\n\n| ##- Please write your reply above this line -##\n\nYour options:\n 1 PASS", "3"},
		{"a single pipe line is not a quote", "PASS | STORE Y5 G4\n| not quoted", "PASS | STORE Y5 G4\n| not quoted"},
		{"french header block, no space after colon", "PASS\nDe : Referee\nEnvoyé le : mardi 12 mai 2026 10:14\nÀ : Claire\nObjet :Re: x\n\nPLACE MH1", "PASS"},
		{"webmail block starting with Message du", "2\nMessage du : 12/05/2026 10:14\nDe : Referee\nA : claire\nCopie à :\nSujet : Re: x\n\n1 PASS", "2"},
		{"unknown separator over a header block", "2\n----- Mail original -----\nDe: Referee\nÀ: Claire\nEnvoyé: Mardi 12 Mai 2026\nObjet: x\n\n1 PASS", "2"},
		{"zoho dashes", "PASS\n---- On Tue, 12 May 2026 10:14:00 +0200 Referee <referee@example.test> wrote ----\n\n1 PASS", "PASS"},
		{"lotus notes", "PASS\nReferee <referee@example.test> wrote on 05/12/2026 10:14:00 AM:\n\n1 PASS", "PASS"},
		{"dated line of a player without quote is kept", "VACATION 2026-06-01 2026-06-10:\nPASS", "VACATION 2026-06-01 2026-06-10:\nPASS"},
		{"a lone From: line is the player's", "From: now on I pass\nPASS", "From: now on I pass\nPASS"},
	} {
		got, _ := ExtractCommands(tc.body, mailmsg.Address{})
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// Issue 10: sign-offs and greetings with word boundaries, in en, it, fr,
// nl, de and es; names glued to dashes or slashes.
func TestSignOffsAndGreetings(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"PASS\nBest regards,\nRandall", "PASS"},
		{"PASS\nBeste Grüße\nKlaus", "PASS"},
		{"PASS\nGruß", "PASS"},
		{"PASS\nGrüße, Klaus", "PASS"},
		{"PASS\n--Randall", "PASS"},
		{"PASS\n//Jef", "PASS"},
		{"PASS\n-- Ann", "PASS"},
		{"PASS\nSaludos,\nJuan", "PASS"},
		{"Ciao!\nPASS\nGrazie", "PASS"},
		{"Hola,\nPASS", "PASS"},
		{"Hallo zusammen,\nPASS", "PASS"},
		{"Bonjour à tous !\nPASS", "PASS"},
		// Word boundaries: "Bestand", "Grußwort", "Higher" are no sign-off or greeting.
		{"PASS\nBestand", "PASS\nBestand"},
		{"PASS\nGrußwort", "PASS\nGrußwort"},
		{"Higher\nPASS", "Higher\nPASS"},
		// Never a command: upper case, digits, coordinates.
		{"PASS\nPASS", "PASS\nPASS"},
		{"PASS\nPass", "PASS\nPass"},
		{"Hi, PASS", "Hi, PASS"},
		{"Ciao 2", "Ciao 2"},
		{"Thanks\nPASS", "Thanks\nPASS"},
	} {
		got, _ := ExtractCommands(tc.body, mailmsg.Address{})
		if got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

func TestIsProse(t *testing.T) {
	kw := NewKeywords([]string{"PASS", "LINGUA", "DI", "OR"}, nil)
	for line, want := range map[string]bool{
		"Ciao!": true, "Grazie": true, "here is my move for today": true, "I think I'll pass": true,
		"pass": false, "Pass.": false, "lingua it": false, "Di nuovo io": false, "or": false,
		"PLACE MH3 K5": false, "see you at 10": true, "ok OK": true, "ok PASS": false, "I PASS": false, "a | PASS": false, "PASS; y": false,
		"a | b": true, "x; y": true, "Brewers' Circle | Milano": true, "Hauptstr. 12": true, "PS: 2 more days": true,
		"Ok: 2": false, "Hi! 2": false, "I choose: 2": false, "Via Roma, 12": true,
		"# a comment": false, "": false, "   ": false, "mh3 please": false, "Sì, grazie": true,
	} {
		if got := kw.IsProse(line); got != want {
			t.Errorf("IsProse(%q) = %v, want %v", line, got, want)
		}
	}
	text, prose := kw.SplitProse("Ciao!\nLINGUA it\n\nPIAZZA HP2 G1\nGrazie")
	if text != "\nLINGUA it\n\nPIAZZA HP2 G1\n" || len(prose) != 2 || prose[0] != "Ciao!" || prose[1] != "Grazie" {
		t.Errorf("SplitProse: %q %q", text, prose)
	}
}

// Issue 10: a closing line or signature never swallows a command line.
func TestSignOffNeverACommand(t *testing.T) {
	kw := NewKeywords([]string{"PASS", "GR"}, nil)
	for _, tc := range []struct{ body, want string }{
		{"STORE Y5 G4\nThanks\nPass", "STORE Y5 G4\nThanks\nPass"},
		{"STORE Y5 G4\n--\nPass", "STORE Y5 G4\n--\nPass"},
		{"STORE Y5 G4\nGR 3", "STORE Y5 G4\nGR 3"},
		{"STORE Y5 G4\nTHANKS", "STORE Y5 G4\nTHANKS"},
		{"STORE Y5 G4\nThanks\nRandall", "STORE Y5 G4"},
		{"STORE Y5 G4\n--\nRandall", "STORE Y5 G4"},
	} {
		got, _ := kw.ExtractCommands(tc.body, mailmsg.Address{})
		if got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

// Two lines starting with '|' after a command are not a quote (they may be
// a player's alternatives): they are kept, never silently dropped.
func TestPipeLinesWithoutAttributionKept(t *testing.T) {
	got, _ := ExtractCommands("BREW R24\n| BREW R09\n| PASS", mailmsg.Address{})
	if got != "BREW R24\n| BREW R09\n| PASS" {
		t.Errorf("got %q", got)
	}
}

// An upper-case name in an attribution does not make it a command line.
func TestUpperCaseNameAttribution(t *testing.T) {
	kw := NewKeywords([]string{"PASS"}, nil)
	for _, body := range []string{
		"PASS\n\nDUPONT Jean <jean@example.fr> a écrit :\n> 1 PASS\n> 2 STORE",
		"PASS\nROSSI Anna <anna@example.it> ha scritto:\n> 1 PASS",
	} {
		if got, _ := kw.ExtractCommands(body, mailmsg.Address{}); got != "PASS" {
			t.Errorf("%q: got %q", body, got)
		}
	}
}
