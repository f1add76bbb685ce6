package dicebrewing

// The components of the game as the engine names them: dice colours, board
// spaces, buildings, action tokens and windows (the vocabulary of the
// specification; their numbers are in the data file).

// The colours of the dice (vocabulary of the spec): Y light malt, K dark
// malt, G hops, B production skill.
const (
	colY = iota
	colK
	colG
	colB
	numColours
)

// colourLetters are the canonical letters of the colours, by index.
var colourLetters = [numColours]string{"Y", "K", "G", "B"}

// The eleven board spaces of a player board (DB-5.4.1, §8.2), by index.
const (
	spMH1 = iota
	spMH2
	spMH3
	spHP1
	spHP2
	spSS1
	spSS2
	spSS3
	spDS1
	spDS2
	spDS3
	numSpaces
)

// spaceNames are the canonical names of the spaces, by index.
var spaceNames = [numSpaces]string{"MH1", "MH2", "MH3", "HP1", "HP2", "SS1", "SS2", "SS3", "DS1", "DS2", "DS3"}

// The four buildings (DB-4.3).
const (
	bMH = iota
	bHP
	bSS
	bDS
	numBuildings
)

// buildingNames are the canonical building codes, by index.
var buildingNames = [numBuildings]string{"MH", "HP", "SS", "DS"}

// spaceBuilding maps a space to its building.
var spaceBuilding = [numSpaces]int{bMH, bMH, bMH, bHP, bHP, bSS, bSS, bSS, bDS, bDS, bDS}

// The action-token codes (§2, DB-5.8). Their effects are rules; their
// prices, stocks and windows are data.
const (
	tokTAKE   = "TAKE"
	tokBLOCKB = "BLOCKB"
	tokSHIELD = "SHIELD"
	tokBLOCKR = "BLOCKR"
	tokPLUS   = "PLUS"
	tokREROLL = "REROLL"
)

var tokenCodes = []string{tokTAKE, tokBLOCKB, tokSHIELD, tokBLOCKR, tokPLUS, tokREROLL}

// Windows (DB-5.8.3).
const (
	winW0 = "W0"
	winW1 = "W1"
	winW2 = "W2"
	winW3 = "W3"
)
