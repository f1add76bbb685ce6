package referee

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/pbem-referee/referee/engine"
	"github.com/pbem-referee/referee/templates"
	"github.com/pbem-referee/referee/templates/langcheck"
)

// Issue 22, "every word in the reader's language". The rule: a mail to a
// reader of Italian, French or Dutch carries no word of English, whatever
// the moment of the game (invitation, every prompt and summary of whole
// games, HELP and the help of every command, STATUS and STATUS FULL,
// errors, echoes, CLEAR, UNDO, NOTIFY, the end), and in every language a
// count agrees with its noun and the grammar of names holds (d'Alice,
// non è).
//
// What a mail may carry in English: codes and commands (written in
// capitals: PLACE, MH1, BC-5.1), the players' names, the games' titles,
// addresses and links. Nothing else is excepted; a word that is English
// and also of the reader's language is left out of the list for that
// language only (templates/langcheck: also-<lang>.txt).

// The English words a mail for a reader of lang must not carry are
// langcheck.English(lang): every word of our English templates
// (templates/langcheck/testdata/english.txt) but those that are also words
// of lang (also-<lang>.txt); a hand list no more.

// countNoun finds a count and the noun after it in a mail: "1 ducato",
// "2 monete".
var countNoun = regexp.MustCompile(`(?:^|[^\pL\d.,:/+-])(\d+) (\pL+)`)

// wordRe is a word of any language, with its apostrophe when elided.
var wordRe = regexp.MustCompile(`\pL+['’]?`)

// nounForms are the singular and plural of the nouns mails count, per
// language: a count of 1 takes the first, any other the second (French: 0
// and 1 take the singular).
var nounForms = map[string][][2]string{
	"en": {{"coin", "coins"}, {"point", "points"}, {"token", "tokens"}, {"ducat", "ducats"}, {"move", "moves"}, {"day", "days"},
		{"hour", "hours"}, {"player", "players"}, {"game", "games"}, {"round", "rounds"}, {"barrel", "barrels"}, {"die", "dice"},
		{"line", "lines"}, {"option", "options"}, {"worker", "workers"}, {"mail", "mails"}},
	"it": {{"moneta", "monete"}, {"punto", "punti"}, {"segnalino", "segnalini"}, {"ducato", "ducati"}, {"mossa", "mosse"},
		{"giorno", "giorni"}, {"ora", "ore"}, {"giocatore", "giocatori"}, {"partita", "partite"}, {"round", "round"},
		{"botte", "botti"}, {"barile", "barili"}, {"dado", "dadi"}, {"riga", "righe"}, {"opzione", "opzioni"},
		{"lavoratore", "lavoratori"}, {"turno", "turni"}, {"mail", "mail"}},
	"fr": {{"pièce", "pièces"}, {"point", "points"}, {"jeton", "jetons"}, {"ducat", "ducats"}, {"coup", "coups"},
		{"jour", "jours"}, {"heure", "heures"}, {"joueur", "joueurs"}, {"partie", "parties"}, {"manche", "manches"},
		{"tonneau", "tonneaux"}, {"dé", "dés"}, {"ligne", "lignes"}, {"option", "options"},
		{"ouvrier", "ouvriers"}, {"tour", "tours"}},
	"nl": {{"munt", "munten"}, {"punt", "punten"}, {"fiche", "fiches"}, {"dukaat", "dukaten"}, {"zet", "zetten"},
		{"dag", "dagen"}, {"speler", "spelers"}, {"partij", "partijen"}, {"ronde", "rondes"}, {"vat", "vaten"},
		{"dobbelsteen", "dobbelstenen"}, {"regel", "regels"}, {"optie", "opties"},
		{"arbeider", "arbeiders"}, {"beurt", "beurten"}},
}

// grammarSlips are mistakes of grammar a template can make with the words
// it is given, per language: French elision before a vowel (de Alice, le
// orge, que il), Italian "non e" without its accent or "e'" for "è".
var grammarSlips = map[string]*regexp.Regexp{
	"fr": regexp.MustCompile(`(?:^|[\s(«"])(?:de|que|ne|le|je|se|la|De|Que|Le|La|Je|Ne) [AEIOUYÉaeiouyéèêàâîôû][\pL\d]*`),
	"it": regexp.MustCompile(`\bnon e\b|\b[Ee]'|\b(?:perche|piu|cosi|gia|puo|citta|pero|finche|meta|capacita|qualita)\b`),
	"nl": regexp.MustCompile(`\b1 (?:munten|punten|zetten|dagen|spelers|rondes|vaten)\b`),
}

// frenchElisionOK are French words after which no elision is due (h
// aspiré, names of codes, numbers written as words).
var frenchElisionOK = regexp.MustCompile(`(?i)^(?:de|que|ne|le|je|se|la) (?:huit|onze|oui|yaourt)`)

// langChecker collects the English words and grammar slips of the mails
// of one language.
type langChecker struct {
	logf  func(format string, args ...any) // nil: silent
	lang  string
	names []string
	found map[string]int // "what: line" -> times
	mails int
	// namesRe matches the games' titles and names as whole words (made
	// at the first line: a name "ann" must not hide "announce").
	namesRe *regexp.Regexp
}

// unquotable are what may stay in English however a line reads:
// addresses, links, markup, quoted text.
var unquotable = regexp.MustCompile(`\S+@\S+|https?://\S+|<[^>]*>|"[^"]*"`)

// dataNames are words of names that are the same in every language: the
// games' registry names (the organiser's NEW <game>, the list of games),
// the data files' place names (Fromage's city of Tours), and the words a
// test player says (SAY hello, echoed back to them).
func dataNames() []string {
	out := []string{"Tours", "hello"}
	for _, g := range engine.Games() {
		out = append(out, g.Info().Name)
	}
	return out
}

func (c *langChecker) check(what, body string) {
	c.mails++
	for _, line := range strings.Split(body, "\n") {
		c.line(what, line)
	}
}

// wordsOnly is a line without what may stay in English: addresses, links,
// the players' names, the games' titles, and the words in capitals.
func (c *langChecker) wordsOnly(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), ">") {
		return "" // a quote of the player's own mail
	}
	if c.namesRe == nil {
		var alts []string
		for _, n := range append([]string{"Dice Brewing", "Heaven & Ale", "Brew Crafters", "Fromage"}, c.names...) {
			q := regexp.QuoteMeta(n)
			if r := n[0]; r < 0x80 && (unicode.IsLetter(rune(r)) || unicode.IsDigit(rune(r))) {
				q = `\b` + q
			}
			if r := n[len(n)-1]; r < 0x80 && (unicode.IsLetter(rune(r)) || unicode.IsDigit(rune(r))) {
				q += `\b`
			}
			alts = append(alts, q)
		}
		c.namesRe = regexp.MustCompile(strings.Join(alts, "|"))
	}
	return unquotable.ReplaceAllString(c.namesRe.ReplaceAllString(line, " "), " ")
}

// codes are words in capitals and words with a digit (PLACE, MH1, DB-5.3),
// settings and their values (rounds=5, swiss|roundrobin), and elided words of the reader's language (all', d', qu').
var codes = regexp.MustCompile(`\b\d+(?:\.\d+)+-\pL+|\b\w+=\S*|\b\w+(?:\|\w+)+\b|\b\w+['’]|#\w+|\b[a-z]{2}(?:\|[a-z]{2})+\b|\b\w*[A-Z][A-Z0-9_]+\w*\b|\b\w*\d\w*\b`)

func (c *langChecker) line(what, line string) {
	text := c.wordsOnly(line)
	bad := func(kind, w string) {
		key := fmt.Sprintf("%s %q in %q", kind, w, regexp.MustCompile(`\d+`).ReplaceAllString(strings.TrimSpace(line), "#"))
		if c.found[key] == 0 && c.logf != nil {
			c.logf("%s %s: %s", c.lang, what, key)
		}
		c.found[key]++
	}
	if c.lang != "en" {
		for _, w := range wordRe.FindAllString(codes.ReplaceAllString(text, " "), -1) {
			lw := strings.ToLower(w)
			if w == strings.ToUpper(w) || strings.HasSuffix(w, "'") || strings.HasSuffix(w, "’") {
				continue // a code (A, B) or an elided word (all', d')
			}
			if langcheck.English(c.lang)[lw] {
				bad("English", w)
			}
		}
	}
	for _, m := range countNoun.FindAllStringSubmatch(text, -1) {
		n, noun := m[1], m[2]
		for _, f := range nounForms[c.lang] {
			if f[0] == f[1] || (noun != f[0] && noun != f[1]) {
				continue
			}
			one := n == "1" || c.lang == "fr" && n == "0"
			if one && noun == f[1] || !one && noun == f[0] {
				bad("plural", n+" "+noun)
			}
		}
	}
	if re := grammarSlips[c.lang]; re != nil {
		for _, m := range re.FindAllString(line, -1) {
			m = strings.TrimLeft(m, " \t(«\"")
			if _, next, _ := strings.Cut(m, " "); strings.ContainsAny(next, "0123456789") ||
				next != strings.ToLower(next) && next == strings.ToUpper(next) {
				continue // a code: le Y4, de OAK
			}
			if !frenchElisionOK.MatchString(m) {
				bad("grammar", m)
			}
		}
	}
}

func (c *langChecker) report(t *testing.T) {
	if len(c.found) == 0 {
		return
	}
	keys := make([]string, 0, len(c.found))
	for k := range c.found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%s: %s (%d times)", c.lang, k, c.found[k])
	}
}

// langReaderGame plays a whole game with both seats reading lang, the bot
// choosing, and at several moments sends the commands every reader may
// send (in the reader's words); every mail is checked.
func langReaderGame(t *testing.T, c *langChecker, game, lang, seed string, maxMoves int) {
	h := newHarness(t)
	check := func(what string) {
		for _, m := range h.mails() {
			if m.To == ann || m.To == bob { // the organiser reads English here
				c.check(what, m.Body)
			}
		}
	}
	h.org("NEW " + game + " id=w1 deadline=48h seed=" + seed + "\nPLAYER ann@example.test Ann " + lang + "\nPLAYER bob@example.test Bob " + lang)
	check("invitation")
	h.send("w1", ann, "JOIN", -1)
	check("join")
	h.send("w1", bob, "JOIN", -1)
	check("start")
	eg, _ := engine.Lookup(game)
	rd := func(seat int) Reader {
		return Reader{Game: game, Lang: lang, Seat: seat, Seats: []string{"Ann", "Bob"}}
	}
	local := func(seat int, line string) string { return h.r.render.ctx(rd(seat), nil).KwLine(line) }
	moments := map[int]bool{1: true, 12: true, 60: true}
	bg := h.newBotGame("w1", 1, 7, uint64(len(seed)))
	bg.Moves = maxMoves
	bg.Before = func(tn *botTurn) bool {
		if !moments[tn.N] {
			return false
		}
		for _, line := range []string{"HELP", "STATUS", "STATUS FULL", "LOG", "RULE " + ruleOf(game), "NOTIFY digest",
			"NOTIFY every", "PLCE X1", "SAY hello", "UNDO", "CLEAR"} {
			h.send("w1", tn.Addr, local(tn.D.Seat, line), -1)
			check(line)
		}
		for _, kw := range eg.Info().Commands {
			h.send("w1", tn.Addr, local(tn.D.Seat, "HELP "+kw), -1)
			check("HELP " + kw)
			h.send("w1", tn.Addr, local(tn.D.Seat, kw+" ZZ9 ZZ9"), -1)
			check(kw + " ZZ9")
		}
		return false
	}
	bg.Answer = func(tn *botTurn) string { return local(tn.D.Seat, tn.Line) }
	bg.After = func(tn *botTurn, out Outcome) {
		check("move")
		if out.Status != "applied" && out.Status != "queued" {
			t.Fatalf("%s %s: %q: %+v", game, lang, tn.Opts[tn.Pick].Cmd, out)
		}
	}
	bg.play()
	if h.game("w1").Status == StatusRunning {
		t.Errorf("%s %s: no end in %d moves", game, lang, maxMoves)
	}
	h.clock.Advance(100 * time.Hour)
	h.tick()
	check("end")
}

// readerTournament runs a small tournament whose organiser and entrants
// read lang: the organiser's commands written in lang's words, the
// entrants' confirmations, the round's games, standings, an organiser's
// mistake and the tournament help; every mail is checked.
func readerTournament(t *testing.T, c *langChecker, lang string) {
	h := newHarness(t)
	check := func(what string) {
		for _, m := range h.mails() {
			c.check(what, m.Body)
		}
	}
	kw := func(k string) string { return h.r.render.T.Word("referee", lang, k) }
	h.org("NEW TOURNAMENT tl game=dicebrewing rounds=2 lang=" + lang + " start=2026-12-01T20:00 every=7d")
	check("new tournament")
	var enter strings.Builder
	for _, n := range []string{"ann", "bob", "cat", "dan"} {
		enter.WriteString(kw("ENTER") + " tl " + n + "@example.test " + strings.ToUpper(n[:1]) + n[1:] + " " + lang + "\n")
	}
	h.org(enter.String())
	check("enter")
	h.org(kw("STANDINGS") + " tl\n" + kw("SCHEDULE") + " tl warn=2h")
	check("standings")
	h.org(kw("START") + " tl")
	check("start")
	h.org(kw("STANDINGS") + " tl zz")
	check("org mistakes")
	// HELP TORNEO: the help in lang; the frame is in the organiser's
	// language, English here (HELP is the English keyword).
	h.org("HELP " + h.r.render.T.ArgWord("tournament", lang, "TOURNAMENT"))
	for _, m := range h.mails() {
		_, body, _ := strings.Cut(m.Body, "\n")
		c.check("help tournament", body)
	}
	for i := 0; i < 3; i++ {
		h.clock.Advance(8 * 24 * time.Hour)
		h.tick()
		check("round")
	}
}

func ruleOf(game string) string {
	return map[string]string{"dicebrewing": "DB-5.9.3", "heavenale": "HA-5.12.3", "brewcrafters": "BC-5.1.2", "fromage": "FR-7"}[game]
}

// TestEveryWordInTheReadersLanguage: whole games of the four games in the
// four languages, with the commands of every reader at three moments of
// each; no English in an Italian, French or Dutch mail, no count at odds
// with its noun, no slip of grammar.
func TestEveryWordInTheReadersLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if raceEnabled {
		t.Skip("a whole-game content check in one goroutine: make check runs it without -race (make content)")
	}
	for _, lang := range templates.Languages {
		t.Run(lang, func(t *testing.T) {
			c := &langChecker{logf: t.Logf, lang: lang, names: append([]string{"Ann", "Bob", "Cat", "Dan"}, dataNames()...),
				found: map[string]int{}}
			games := []string{"dicebrewing", "heavenale", "brewcrafters", "fromage"}
			if lang == "en" {
				// English is checked for counts only: the two games that
				// count ducats and tokens (the package's time is dear).
				games = []string{"heavenale", "fromage"}
			}
			for _, game := range games {
				langReaderGame(t, c, game, lang, "lang22"+game, 3000)
			}
			if lang != "en" {
				readerTournament(t, c, lang)
			}
			if c.mails < 100 {
				t.Errorf("only %d mails", c.mails)
			}
			c.report(t)
		})
	}
}

// The checker finds what it is for: a test that cannot fail is a defect.
func TestLangCheckerFinds(t *testing.T) {
	for _, c := range []struct {
		lang, line string
		want       bool
	}{
		{"it", "Tocca a te: scegli un'opzione.", false},
		{"it", "Your move: scegli.", true},
		{"it", "Hai 1 ducati.", true},
		{"it", "Hai 2 ducato.", true},
		{"it", "Hai 2 ducati e 1 punto.", false},
		{"it", "La mossa non e valida.", true},
		{"it", "La mossa non è valida; PLACE MH1 SEED.", false},
		{"fr", "Au tour de Ann.", true},
		{"fr", "Au tour d'Ann.", false},
		{"fr", "Il reste 1 points.", true},
		{"fr", "Il reste 0 point, 3 points.", false},
		{"fr", "Choose a space.", true},
		{"nl", "Je hebt 1 munten.", true},
		{"nl", "Je hebt 1 munt en 2 punten; waiting.", true},
		{"nl", "Bob is aan de beurt (DB-5.9.3).", false},
		{"en", "You have 1 coins.", true},
		{"en", "You have 1 coin and 2 points.", false},
	} {
		lc := &langChecker{lang: c.lang, names: []string{"Ann", "Bob"}, found: map[string]int{}}
		lc.line("x", c.line)
		if got := len(lc.found) > 0; got != c.want {
			t.Errorf("%s %q: found %v, want %v", c.lang, c.line, lc.found, c.want)
		}
	}
}

// TestTournamentNamesInTheReadersWords (issue 22): a tournament's format
// and tie-breaks, held as the values organisers type (swiss, sb, h2h),
// reach an Italian, French or Dutch reader by their names in that
// language, whatever the list's separator ("buchholz,sb", "a, b", "a b"),
// in the standings and in the refusal that names the format; an unknown
// value is shown as it is.
func TestTournamentNamesInTheReadersWords(t *testing.T) {
	set, err := templates.Load()
	if err != nil {
		t.Fatal(err)
	}
	values := regexp.MustCompile(`\b(?:swiss|roundrobin|knockout|buchholz|sb|score|h2h)\b`)
	all := []string{"buchholz", "sb", "score", "h2h"}
	for _, lang := range templates.Languages[1:] {
		for k := range all {
			tbs := append(append([]string{}, all[k:]...), all[:k]...)
			for _, sep := range []string{",", ", ", " "} {
				data := map[string]any{"id": "t1", "round": 2, "status": "running", "tiebreaks": strings.Join(tbs, sep),
					"rows": []map[string]any{}, "subs": nil, "parts": nil, "adjudicated": false}
				out, err := set.Render("tournament", lang, "standings", templates.Ctx{Lang: lang, Data: data})
				if err != nil {
					t.Fatal(err)
				}
				if m := values.FindString(out); m != "" || !strings.Contains(out, "Sonneborn-Berger") {
					t.Errorf("%s standings, tie-breaks %q: %q left as typed, or no names:\n%s", lang, data["tiebreaks"], m, out)
				}
			}
		}
		for _, f := range []string{"swiss", "roundrobin", "knockout", "tables"} {
			out, err := set.Render("tournament", lang, "err.fixed_pairings", templates.Ctx{Lang: lang, Data: map[string]any{"id": "t1", "format": f}})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, f) && f != "tables" {
				t.Errorf("%s: format %s left as typed: %s", lang, f, out)
			}
		}
		out, err := set.Render("tournament", lang, "standings", templates.Ctx{Lang: lang, Data: map[string]any{"id": "t1", "round": 2,
			"status": "running", "tiebreaks": "weird", "rows": []map[string]any{}, "subs": nil, "parts": nil, "adjudicated": false}})
		if err != nil || !strings.Contains(out, "weird") {
			t.Errorf("%s: an unknown tie-break is not shown as it is (%v):\n%s", lang, err, out)
		}
	}
}
