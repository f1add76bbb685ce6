package engine

import "math/rand/v2"

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
