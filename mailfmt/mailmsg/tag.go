package mailmsg

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// TagKind says what a Tag identifies.
type TagKind uint8

// The kinds of tag. See the package documentation for their grammar.
const (
	// TagNone is the zero TagKind: no tag.
	TagNone TagKind = iota
	// TagSeat is "<game>.<seat>.<secret>", a player acting in one seat.
	TagSeat
	// TagPlayer is "p.<secret>", a registered player acting outside a game.
	TagPlayer
	// TagOrg is "org.<secret>", an organiser.
	TagOrg
	// TagBounce is "bounce.<id>", the VERP envelope sender of an outbox row.
	TagBounce
	// TagGame names a game (and possibly a seat) without any secret: a
	// subject tag "[g42 #57]" or a referee Message-ID. It never
	// authenticates anybody.
	TagGame
)

var tagKindNames = [...]string{"none", "seat", "player", "org", "bounce", "game"}

// String returns "none", "seat", "player", "org", "bounce" or "game".
func (k TagKind) String() string {
	if int(k) < len(tagKindNames) {
		return tagKindNames[k]
	}
	return "TagKind(" + strconv.Itoa(int(k)) + ")"
}

// NoSeat and NoToken mark an absent seat number or state token in a Tag.
const (
	NoSeat  = -1
	NoToken = -1
)

// Limits of the tag grammar.
const (
	MaxSeat        = 99
	maxTokenDigits = 18
)

// Tag is a parsed tag. Build one with SeatTag, PlayerTag, OrgTag, BounceTag
// or GameTag, or get one from ParseTag, ParseSubjectTag, ParseMessageID or
// FindTag; a zero Tag (TagNone) identifies nothing.
type Tag struct {
	Kind TagKind
	// Game is the game id (TagSeat, TagGame).
	Game string
	// Seat is the 0-based seat number, NoSeat when absent.
	Seat int
	// Secret is the seat, player or organiser secret; empty for TagGame and
	// TagBounce.
	Secret string
	// Token is the state token (a move number), NoToken when absent.
	Token int64
	// ID is the outbox row id of a TagBounce.
	ID string
}

var (
	gameRe = regexp.MustCompile(`^[a-z][a-z0-9]{1,23}$`)
	// Secrets are generated in lower-case base32 ([a-z2-7]); any lower-case
	// letter or digit is accepted on input (the project's own examples use
	// secrets such as "k7x9q2abcd3e"), which cannot weaken the exact
	// comparison the referee makes.
	secretRe = regexp.MustCompile(`^[a-z0-9]{12,32}$`)
	idRe     = regexp.MustCompile(`^[a-z0-9]{1,64}$`)
)

// SeatTag returns the tag of a seat; token may be NoToken.
func SeatTag(game string, seat int, secret string, token int64) (Tag, error) {
	t := Tag{Kind: TagSeat, Game: game, Seat: seat, Secret: secret, Token: token}
	return t, t.Validate()
}

// PlayerTag returns the tag of a registered player.
func PlayerTag(secret string) (Tag, error) {
	t := Tag{Kind: TagPlayer, Seat: NoSeat, Secret: secret, Token: NoToken}
	return t, t.Validate()
}

// OrgTag returns the tag of an organiser.
func OrgTag(secret string) (Tag, error) {
	t := Tag{Kind: TagOrg, Seat: NoSeat, Secret: secret, Token: NoToken}
	return t, t.Validate()
}

// BounceTag returns the VERP tag of an outbox row.
func BounceTag(id string) (Tag, error) {
	t := Tag{Kind: TagBounce, Seat: NoSeat, Token: NoToken, ID: id}
	return t, t.Validate()
}

// GameTag returns a tag naming a game, with an optional seat and token and
// no secret.
func GameTag(game string, seat int, token int64) (Tag, error) {
	t := Tag{Kind: TagGame, Game: game, Seat: seat, Token: token}
	return t, t.Validate()
}

// Validate checks the fields against the grammar of the tag's kind.
func (t Tag) Validate() error {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrInvalidTag, why) }
	if t.Token < NoToken || (t.Token >= 0 && len(strconv.FormatInt(t.Token, 10)) > maxTokenDigits) {
		return bad("token out of range")
	}
	if t.Seat < NoSeat || t.Seat > MaxSeat {
		return bad("seat out of range")
	}
	switch t.Kind {
	case TagSeat:
		if !gameRe.MatchString(t.Game) {
			return bad("game id")
		}
		if t.Seat == NoSeat {
			return bad("missing seat")
		}
		if !secretRe.MatchString(t.Secret) {
			return bad("secret")
		}
	case TagPlayer, TagOrg:
		if !secretRe.MatchString(t.Secret) {
			return bad("secret")
		}
		if t.Game != "" || t.Seat != NoSeat || t.Token != NoToken {
			return bad("player and organiser tags carry only a secret")
		}
	case TagBounce:
		if !idRe.MatchString(t.ID) {
			return bad("bounce id")
		}
		if t.Secret != "" || t.Game != "" {
			return bad("bounce tags carry only an id")
		}
	case TagGame:
		if !gameRe.MatchString(t.Game) {
			return bad("game id")
		}
		if t.Secret != "" {
			return bad("game tags carry no secret")
		}
	default:
		return bad("no kind")
	}
	return nil
}

// String returns the canonical (lower-case) form used in the plus part of
// an address: "g42.1.k7x9q2abcd3e.57" (the token only when present),
// "p.<secret>", "org.<secret>", "bounce.<id>", or just the game id for a
// TagGame. It returns "" for an invalid tag.
func (t Tag) String() string {
	if t.Validate() != nil {
		return ""
	}
	switch t.Kind {
	case TagSeat:
		s := t.Game + "." + strconv.Itoa(t.Seat) + "." + t.Secret
		if t.Token >= 0 {
			s += "." + strconv.FormatInt(t.Token, 10)
		}
		return s
	case TagPlayer:
		return "p." + t.Secret
	case TagOrg:
		return "org." + t.Secret
	case TagBounce:
		return "bounce." + t.ID
	case TagGame:
		return t.Game
	}
	return ""
}

// Authenticates reports whether the tag carries a secret.
func (t Tag) Authenticates() bool {
	switch t.Kind {
	case TagSeat, TagPlayer, TagOrg:
		return t.Secret != ""
	}
	return false
}

// ParseTag parses the plus part of an address (case-insensitively): a seat
// tag with an optional token, a player, organiser or bounce tag. A bare game
// id is not accepted here (it would match too many ordinary words); see
// ParseSubjectTag.
func ParseTag(s string) (Tag, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	parts := strings.Split(s, ".")
	bad := fmt.Errorf("%w: %q", ErrInvalidTag, s)
	switch {
	case len(parts) == 2 && parts[0] == "p":
		t, err := PlayerTag(parts[1])
		if err != nil {
			return Tag{}, bad
		}
		return t, nil
	case len(parts) == 2 && parts[0] == "org":
		t, err := OrgTag(parts[1])
		if err != nil {
			return Tag{}, bad
		}
		return t, nil
	case len(parts) == 2 && parts[0] == "bounce":
		t, err := BounceTag(parts[1])
		if err != nil {
			return Tag{}, bad
		}
		return t, nil
	case len(parts) == 3 || len(parts) == 4:
		seat, ok := parseSmallInt(parts[1], MaxSeat)
		if !ok {
			return Tag{}, bad
		}
		token := int64(NoToken)
		if len(parts) == 4 {
			if token, ok = parseToken(parts[3]); !ok {
				return Tag{}, bad
			}
		}
		t, err := SeatTag(parts[0], seat, parts[2], token)
		if err != nil {
			return Tag{}, bad
		}
		return t, nil
	}
	return Tag{}, bad
}

func parseSmallInt(s string, max int) (int, bool) {
	if s == "" || len(s) > 3 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= max
}

func parseToken(s string) (int64, bool) {
	if s == "" || len(s) > maxTokenDigits {
		return 0, false
	}
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// PlusAddress returns base's address with the tag as its plus part:
// PlusAddress("referee@example.test", t) is
// "referee+g42.1.k7x9q2abcd3e.57@example.test".
func PlusAddress(base string, t Tag) (string, error) {
	local, _, domain := SplitPlus(base)
	if local == "" {
		return "", fmt.Errorf("%w: %q", ErrInvalidAddress, base)
	}
	s := t.String()
	if s == "" || t.Kind == TagGame {
		return "", fmt.Errorf("%w: not usable in an address", ErrInvalidTag)
	}
	return local + "+" + s + "@" + domain, nil
}

// TagFromAddress returns the tag in the plus part of addr when addr is a plus
// address of base (same base local part, same domain, case-insensitively).
func TagFromAddress(addr, base string) (Tag, bool) {
	bl, _, bd := SplitPlus(base)
	l, detail, d := SplitPlus(addr)
	if bl == "" || detail == "" || d != bd || !strings.EqualFold(l, bl) {
		return Tag{}, false
	}
	t, err := ParseTag(detail)
	return t, err == nil
}

// SubjectTag returns the subject tag of t: "[g42.1.k7x9q2abcd3e #57]" for a
// seat tag, "[g42 #57]" when withSecret is false or t is a TagGame,
// "[p.<secret>]" and "[org.<secret>]" for players and organisers (these are
// only written when withSecret is true; otherwise SubjectTag returns "").
func SubjectTag(t Tag, withSecret bool) string {
	if t.Validate() != nil {
		return ""
	}
	var s string
	switch t.Kind {
	case TagSeat:
		if withSecret {
			s = t.Game + "." + strconv.Itoa(t.Seat) + "." + t.Secret
		} else {
			if t.Token < 0 {
				return "" // "[g42]" alone is not recognised as a tag
			}
			s = t.Game
		}
	case TagGame:
		if t.Token < 0 {
			return ""
		}
		s = t.Game
	case TagPlayer, TagOrg:
		if !withSecret {
			return ""
		}
		s = t.String()
	default:
		return ""
	}
	if t.Token >= 0 {
		s += " #" + strconv.FormatInt(t.Token, 10)
	}
	return "[" + s + "]"
}

var subjectTagRe = regexp.MustCompile(`\[\s*([A-Za-z0-9.]{2,80})\s*(?:#\s*([0-9]{1,18}))?\s*\]`)

// ParseSubjectTag finds the referee's tag in a subject line, wherever it is
// (after "Re:", "AW:", "[EXTERNAL]" and the like), tolerating any case and
// extra spaces. A bracket holding only a game id counts only with a token
// ("[g42 #57]"), so that "[SPAM]" or "[dice]" are not taken for games.
func ParseSubjectTag(subject string) (Tag, bool) {
	for _, m := range subjectTagRe.FindAllStringSubmatch(subject, 8) {
		body := strings.ToLower(m[1])
		token := int64(NoToken)
		if m[2] != "" {
			var ok bool
			if token, ok = parseToken(m[2]); !ok {
				continue
			}
		}
		if !strings.Contains(body, ".") {
			if token < 0 {
				continue
			}
			if t, err := GameTag(body, NoSeat, token); err == nil {
				return t, true
			}
			continue
		}
		t, err := ParseTag(body)
		if err != nil || t.Kind == TagBounce {
			continue
		}
		if t.Kind == TagSeat && token >= 0 {
			if t.Token >= 0 && t.Token != token {
				continue
			}
			t.Token = token
		}
		return t, true
	}
	return Tag{}, false
}

var replyPrefixRe = regexp.MustCompile(`(?i)^\s*(?:(?:re|r|aw|wg|fw|fwd|tr|sv|vs|antw|doorst|rif|i|enc|rv|res|odp|ynt|réf|ref)\s*(?:\[\d+\])?\s*:\s*)+`)

// CleanSubject removes reply and forward prefixes ("Re:", "AW:", "R:",
// "RE:", "Fwd:", "TR:", "Antw:", "Doorst:", ...) and the referee's subject
// tag, and collapses spaces.
func CleanSubject(subject string) string {
	s := subject
	for {
		n := replyPrefixRe.ReplaceAllString(s, "")
		loc := subjectTagRe.FindStringIndex(n)
		if loc != nil {
			if _, ok := ParseSubjectTag(n[loc[0]:loc[1]]); ok {
				n = n[:loc[0]] + " " + n[loc[1]:]
			}
		}
		if n == s {
			break
		}
		s = n
	}
	return strings.Join(strings.Fields(s), " ")
}

// MessageRef is what a referee Message-ID says.
type MessageRef struct {
	Game   string
	Seat   int // NoSeat for "x"
	Token  int64
	Nonce  string
	Domain string
}

// Tag returns the game tag of the reference (no secret).
func (r MessageRef) Tag() Tag {
	return Tag{Kind: TagGame, Game: r.Game, Seat: r.Seat, Token: r.Token}
}

var (
	domainRe = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$`)
	msgIDRe  = regexp.MustCompile(`^rf\.([a-z][a-z0-9]{1,23})\.([0-9]{1,2}|x)\.([0-9]{1,18})\.([a-z0-9]{1,64})@(.{1,253})$`)
)

// NewMessageID returns the Message-ID the referee assigns, with angle
// brackets: "<rf.<game>.<seat>.<token>.<nonce>@<domain>>", seat being "x"
// when seat is NoSeat.
func NewMessageID(game string, seat int, token int64, nonce, domain string) (string, error) {
	domain = strings.ToLower(domain)
	switch {
	case !gameRe.MatchString(game):
		return "", fmt.Errorf("%w: game id %q", ErrInvalidMessageID, game)
	case seat < NoSeat || seat > MaxSeat:
		return "", fmt.Errorf("%w: seat %d", ErrInvalidMessageID, seat)
	case token < 0 || len(strconv.FormatInt(token, 10)) > maxTokenDigits:
		return "", fmt.Errorf("%w: token %d", ErrInvalidMessageID, token)
	case !idRe.MatchString(nonce):
		return "", fmt.Errorf("%w: nonce %q", ErrInvalidMessageID, nonce)
	case len(domain) > 253 || !domainRe.MatchString(domain):
		return "", fmt.Errorf("%w: domain %q", ErrInvalidMessageID, domain)
	}
	s := "x"
	if seat != NoSeat {
		s = strconv.Itoa(seat)
	}
	return "<rf." + game + "." + s + "." + strconv.FormatInt(token, 10) + "." + nonce + "@" + domain + ">", nil
}

// ParseMessageID parses a Message-ID assigned by NewMessageID, with or
// without angle brackets, case-insensitively.
func ParseMessageID(id string) (MessageRef, error) {
	s := strings.ToLower(strings.TrimSpace(id))
	s = strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
	m := msgIDRe.FindStringSubmatch(s)
	if m == nil || !domainRe.MatchString(m[5]) {
		return MessageRef{}, fmt.Errorf("%w: %q", ErrInvalidMessageID, id)
	}
	r := MessageRef{Game: m[1], Seat: NoSeat, Nonce: m[4], Domain: m[5]}
	if m[2] != "x" {
		r.Seat, _ = strconv.Atoi(m[2])
	}
	var ok bool
	if r.Token, ok = parseToken(m[3]); !ok {
		return MessageRef{}, fmt.Errorf("%w: %q", ErrInvalidMessageID, id)
	}
	return r, nil
}
