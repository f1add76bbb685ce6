package mailfmt

import (
	"strings"
	"testing"
)

func TestExtractCommands(t *testing.T) {
	anna := Address{Name: "Anna Rossi", Addr: "anna.rossi@example.org"}
	tests := []struct {
		name   string
		body   string
		sender Address
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
			want: "STATUS", sender: Address{Addr: "anna.rossi@example.org"},
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
		got, _ := ExtractCommands(b, Address{})
		for _, l := range strings.Split(got, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), ">") {
				t.Errorf("ExtractCommands(%q) returned quoted line %q", b, l)
			}
		}
	}
}
