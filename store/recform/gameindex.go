package recform

// GameIndex is what the indexes know of a game: enough for the lists
// that name many games without reading their records.
type GameIndex struct {
	Game      string   `json:"game"`
	Status    string   `json:"status"`
	Organiser string   `json:"org,omitempty"`
	Open      bool     `json:"open,omitempty"`
	Players   int      `json:"players"`
	Seats     int      `json:"seats"`
	Addresses []string `json:"addresses,omitempty"`
	// Joinable says a player may JOIN the game (the caller says what
	// that is: forming, open, a seat free).
	Joinable bool `json:"join,omitempty"`
}
