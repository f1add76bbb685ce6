package engine

// Card is one thing of a game's data a player meets in a mail (a worker,
// building, market space, recipe, tile, research step...), described as
// structured facts: the words are the templates' (issue 22). A game whose
// State implements Carder answers HELP <code or name> with its cards.
type Card struct {
	// Kind is the sort of thing ("worker", "building", "space"...), ID its
	// id in the data file, Code what a player types for it (never an
	// internal id with underscores), Name the data file's English name.
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Code string `json:"code"`
	Name string `json:"name,omitempty"`
	// Rule is the id of the rule that governs it.
	Rule string `json:"rule"`
	// Facts are its cost and effects, in the order a reader wants them.
	Facts []Fact `json:"facts,omitempty"`
	// Params carries what a game's own templates already word (Fromage's
	// ability effects), JSON-friendly values only.
	Params map[string]any `json:"params,omitempty"`
}

// Fact is one cost or effect of a Card: Key names the kind of fact (the
// templates word it), N a number, Goods a bundle of goods ("2M 1H") and
// Word a code it refers to (a season, a building...).
type Fact struct {
	Key   string `json:"key"`
	N     int    `json:"n,omitempty"`
	Goods string `json:"goods,omitempty"`
	Word  string `json:"word,omitempty"`
}

// Carder is implemented by a game State whose cards a player may ask about.
type Carder interface {
	// Cards lists every card of the game's data in play for this game.
	Cards() []Card
}
