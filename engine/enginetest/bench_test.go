package enginetest

import "testing"

// BenchmarkNewTable measures the toy game's new table (the game the
// referee's tournament benchmarks play: BenchmarkTournamentStart).
func BenchmarkNewTable(b *testing.B) { BenchNewTable(b, Toy) }
