package organise

import (
	"strconv"
	"strings"
	"time"

	"github.com/pbem-referee/referee/mailfmt/mailmsg"
)

// parseNew reads "NEW <game> [key=value]...": id, variant, players, open,
// seed, deadline (a policy, commas for spaces); other keys are game
// options.
func parseNew(h Host, org string, args []string) (*NewGame, error) {
	if len(args) == 0 {
		return nil, fail("usage", "syntax", byKeyword["NEW"][len(byKeyword["NEW"])-1].Usage)
	}
	ng := &NewGame{Game: strings.ToLower(args[0]), Organiser: org, Options: map[string]string{}}
	for _, a := range args[1:] {
		k, v, _ := strings.Cut(a, "=")
		switch strings.ToLower(k) {
		case "id":
			ng.ID = strings.ToLower(v)
		case "variant":
			ng.Variant = v
		case "players":
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fail("players", "value", v)
			}
			ng.Players = n
		case "open":
			ng.Open = v == "" || strings.EqualFold(v, "yes") || v == "true"
		case "seed":
			ng.Seed = v
		case "deadline", "policy":
			if err := h.CheckPolicy(v); err != nil {
				return nil, err
			}
			ng.Policy = v
		default:
			if max := h.Desk().MaxOptionBytes(); len(k) > max || len(v) > max { // issue 23: bounded
				return nil, fail("option_long", "option", prefix(k, 20), "max", max)
			}
			ng.Options[k] = v
		}
	}
	if len(ng.Options) == 0 {
		ng.Options = nil
	}
	return ng, nil
}

// prefix is the first n characters of s.
func prefix(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// ParseInvitee reads "<address> <name> [lang] [time zone]" (PLAYER,
// INVITE, REPLACE; the desk's ENTER and REPLACE).
func ParseInvitee(w Words, f []string) (Invitee, error) {
	if len(f) < 2 || !strings.Contains(f[0], "@") {
		return Invitee{}, fail("usage", "syntax", byKeyword["PLAYER"][0].Usage)
	}
	// No language given: the player's own (English for a new player).
	inv := Invitee{Address: strings.Trim(f[0], "<>"), Name: mailmsg.CleanName(f[1])} // issue 23
	for _, x := range f[2:] {
		if isLanguage(w, strings.ToLower(x)) {
			inv.Lang = strings.ToLower(x)
		} else if _, err := time.LoadLocation(x); err == nil {
			inv.TZ = x
		} else {
			return Invitee{}, fail("lang_zone", "value", x)
		}
	}
	return inv, nil
}
