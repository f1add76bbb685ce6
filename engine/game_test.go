package engine

import "testing"

func TestInfoNearestPlayersAndBestBot(t *testing.T) {
	info := Info{MinPlayers: 2, MaxPlayers: 5,
		Bots: []string{"random", "greedy"}}
	for want, got := range map[int]int{0: 2, 1: 2, 2: 2, 4: 4, 5: 5, 6: 5, 12: 5, 40: 2} {
		if n := info.NearestPlayers(want); n != got {
			t.Errorf("NearestPlayers(%d) = %d, want %d", want, n, got)
		}
	}
	if b := info.BestBot(); b != "greedy" {
		t.Errorf("BestBot = %q", b)
	}
	if b := (Info{Bots: []string{"random"}}).BestBot(); b != "random" {
		t.Errorf("BestBot of a random-only game = %q", b)
	}
}
