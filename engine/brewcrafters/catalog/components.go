package catalog

// The components of the game as the engine names them: research tracks,
// brewing slots and the aliases of building names.

// Research tracks and steps (BC-5.7.1).
const (
	TrBasic = iota
	TrOps
	TrBrew
	TrAdv
	NTracks
)

var TrackNames = [NTracks]string{"BASIC", "OPS", "BREW", "ADV"}

// Brewing slots (BC-5.5.1).
const (
	SlT1 = iota
	SlT2
	SlPub
	NSlots
)

var SlotNames = [NSlots]string{"T1", "T2", "PUB"}

var BldAliases = map[string]string{"DOUBLE": "DOUBLE_BATCH", "INFUSERS": "HOPS_INFUSER", "INFUSER": "HOPS_INFUSER",
	"MASHTUN": "MASH_TUN", "YEASTLAB": "YEAST_LAB", "OAK": "OAK_BARRELHOUSE", "TASTING": "TOUR_TASTING",
	"STORE": "STOREHOUSE", "PUB": "BREWPUB"}

func TrackIndex(t string) int {
	switch t {
	case "BASIC":
		return TrBasic
	case "OPS", "OPERATIONS":
		return TrOps
	case "BREW", "BREWING":
		return TrBrew
	case "ADV", "ADVANCED":
		return TrAdv
	}
	return -1
}

// BasicCodes and AdvCodes are the basic and the advanced ingredients
// (BC-2.3).
var (
	BasicCodes = []string{"M", "H", "Y"}
	AdvCodes   = []string{"F", "S", "C"}
)
