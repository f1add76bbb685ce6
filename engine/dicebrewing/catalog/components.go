package catalog

import "strconv"

// The components of the game as the engine names them: dice colours, board
// spaces, buildings, action tokens and windows (the vocabulary of the
// specification; their numbers are in the data file).

// The colours of the dice (vocabulary of the spec): Y light malt, K dark
// malt, G hops, B production skill.
const (
	ColY = iota
	ColK
	ColG
	ColB
	NumColours
)

// ColourLetters are the canonical letters of the colours, by index.
var ColourLetters = [NumColours]string{"Y", "K", "G", "B"}

// The eleven board spaces of a player board (DB-5.4.1, §8.2), by index.
const (
	SpMH1 = iota
	SpMH2
	SpMH3
	SpHP1
	SpHP2
	SpSS1
	SpSS2
	SpSS3
	SpDS1
	SpDS2
	SpDS3
	NumSpaces
)

// SpaceNames are the canonical names of the spaces, by index.
var SpaceNames = [NumSpaces]string{"MH1", "MH2", "MH3", "HP1", "HP2", "SS1", "SS2", "SS3", "DS1", "DS2", "DS3"}

// The four buildings (DB-4.3).
const (
	bMH = iota
	bHP
	BSS
	bDS
	NumBuildings
)

// BuildingNames are the canonical building codes, by index.
var BuildingNames = [NumBuildings]string{"MH", "HP", "SS", "DS"}

// SpaceBuilding maps a space to its building.
var SpaceBuilding = [NumSpaces]int{bMH, bMH, bMH, bHP, bHP, BSS, BSS, BSS, bDS, bDS, bDS}

// The action-token codes (§2, DB-5.8). Their effects are rules; their
// prices, stocks and windows are data.
const (
	TokTAKE   = "TAKE"
	TokBLOCKB = "BLOCKB"
	TokSHIELD = "SHIELD"
	TokBLOCKR = "BLOCKR"
	TokPLUS   = "PLUS"
	TokREROLL = "REROLL"
)

var tokenCodes = []string{TokTAKE, TokBLOCKB, TokSHIELD, TokBLOCKR, TokPLUS, TokREROLL}

// Windows (DB-5.8.3).
const (
	WinW0 = "W0"
	WinW1 = "W1"
	WinW2 = "W2"
	WinW3 = "W3"
)

// SplitColourValue splits "Y5" into colour and face; it accepts the colour
// synonyms of §10.3.
func SplitColourValue(w string) (c, f int, ok bool) {
	k := 0
	for k < len(w) && w[k] >= 'A' && w[k] <= 'Z' {
		k++
	}
	if k == 0 || k == len(w) {
		return 0, 0, false
	}
	c = ColourIndex(w[:k])
	if c < 0 {
		return 0, 0, false
	}
	n, err := strconv.Atoi(w[k:])
	if err != nil || n < 1 || n > 99 {
		return 0, 0, false
	}
	return c, n, true
}
