package tell

// Renumber moves the note to the seats' new numbers (to: old -> new, after
// a game's seat order was drawn): the seats it is for and the seat it
// names (Data["seat"]), so that it is told to, and speaks of, the same
// players.
func (n *Note) Renumber(to map[int]int) {
	for k, seat := range n.Seats {
		n.Seats[k] = to[seat]
	}
	if seat, ok := n.Data["seat"].(int); ok {
		n.Data["seat"] = to[seat]
	}
}
