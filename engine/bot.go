package engine

import (
	"fmt"
	"math/rand/v2"
)

// Bot chooses moves for a seat. Bots are players, not rules: they may use
// their own randomness (never the game's Rand) and must only return one of
// the legal options they are given.
type Bot interface {
	// Choose returns the index of the chosen option in opts (the Legal
	// options of decision d, at least two of them).
	Choose(st State, d Decision, opts []Option, rng *rand.Rand) int
}

// BotMaker is implemented by games that provide bots. Every game provides
// at least "random" (RandomBot) and a sensible greedy bot.
type BotMaker interface {
	NewBot(name string) (Bot, error)
}

// RandomBot picks a legal option uniformly at random. It is the fuzzing
// player of every game.
type RandomBot struct{}

// Choose implements Bot.
func (RandomBot) Choose(_ State, _ Decision, opts []Option, rng *rand.Rand) int {
	return rng.IntN(len(opts))
}

// BotAnswer lets bot answer for seat on a copy of st whose Rand is blinded
// (so the bot cannot see hidden draws), and returns the lines of the answer: for a sequential decision, the one line of that
// move; for a simultaneous decision of group, every line of the seat's
// sealed answer. Decisions with no real choice are applied without a line,
// so the answer may be empty. The referee's bot takeover and the demo's
// bot players both answer through it.
func BotAnswer(st State, seat int, group string, bot Bot, rng *rand.Rand) ([]string, error) {
	st = st.Clone()
	st.Head().Rand.Blind()
	var lines []string
	for n := 0; n < 1000; n++ {
		var cur Decision
		found := false
		for _, d := range st.Pending() {
			if d.Seat == seat && (d.Mode == Sequential || d.Group == group) {
				cur, found = d, true
				break
			}
		}
		if !found || (n > 0 && cur.Mode == Sequential) {
			break
		}
		opts := st.Legal(cur)
		if len(opts) == 0 {
			break
		}
		i := 0
		if len(opts) > 1 {
			i = bot.Choose(st, cur, opts, rng)
			if i < 0 || i >= len(opts) {
				return lines, fmt.Errorf("bot: chose option %d of %d", i, len(opts))
			}
			lines = append(lines, opts[i].Cmd)
		}
		m, err := st.Parse(seat, opts[i].Cmd)
		if err != nil {
			return lines, fmt.Errorf("bot: legal option %q does not parse: %w", opts[i].Cmd, err)
		}
		if _, err := st.Apply(seat, m); err != nil {
			return lines, fmt.Errorf("bot: legal option %q of %s rejected: %w", opts[i].Cmd, cur.Kind, err)
		}
		if cur.Mode == Sequential && len(opts) > 1 {
			break
		}
	}
	return lines, nil
}
