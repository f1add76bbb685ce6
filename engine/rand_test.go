package engine

import (
	"encoding/json"
	"testing"
)

func TestRandDeterministicAndRoundTrip(t *testing.T) {
	a, b := NewRand("seed-1"), NewRand("seed-1")
	c := NewRand("seed-2")
	same, diff := 0, 0
	for i := 0; i < 100; i++ {
		x, y, z := a.Roll("dice", 6), b.Roll("dice", 6), c.Roll("dice", 6)
		if x != y {
			t.Fatalf("same seed diverged at %d", i)
		}
		if x == z {
			same++
		} else {
			diff++
		}
	}
	if diff == 0 {
		t.Fatal("different seeds gave the same stream")
	}
	js, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back Rand
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if a.Intn("k", 1000) != back.Intn("k", 1000) {
			t.Fatalf("decoded generator diverged at %d", i)
		}
	}
	if a.Drawn() != back.Drawn() || a.Drawn() != 150 {
		t.Fatalf("drawn %d vs %d", a.Drawn(), back.Drawn())
	}
}

func TestRandUniform(t *testing.T) {
	r := NewRand("uniform")
	var counts [6]int
	for i := 0; i < 60000; i++ {
		counts[r.Roll("dice", 6)-1]++
	}
	for v, n := range counts {
		if n < 9400 || n > 10600 {
			t.Errorf("face %d came %d times of 60000", v+1, n)
		}
	}
}

func TestRandScript(t *testing.T) {
	r := NewRand("s")
	r.Push("dice", "4", "9", "1")
	r.Push("draw", "R12")
	if v := r.Roll("dice", 6); v != 4 {
		t.Fatalf("scripted roll = %d", v)
	}
	before := r.Drawn()
	v := r.Roll("dice", 6) // "9" does not fit a d6: a miss, then random
	if v < 1 || v > 6 || r.Drawn() != before+1 {
		t.Fatalf("miss fallback: v=%d drawn=%d", v, r.Drawn())
	}
	if m := r.TakeMisses(); len(m) != 1 || m[0].Value != "9" {
		t.Fatalf("misses = %v", m)
	}
	deck := []string{"R01", "R05", "R12"}
	if i := r.Take("draw", deck, 0); i != 2 {
		t.Fatalf("scripted draw = %d", i)
	}
	if i := r.Take("draw", deck, 0); i != 0 {
		t.Fatalf("unscripted draw = %d", i)
	}
	if v := r.Roll("dice", 6); v != 1 {
		t.Fatalf("third scripted roll = %d", v)
	}
	c := r.Clone()
	c.Push("dice", "6")
	if len(r.Script()) != 0 {
		t.Fatal("Clone shares the script")
	}
}

func TestCommitment(t *testing.T) {
	// sha256("abc")
	if got := Commitment("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("Commitment = %s", got)
	}
}

func TestRankScores(t *testing.T) {
	scores := []Score{
		{Seat: 0, Total: 70, Tiebreak: []int{14}},
		{Seat: 1, Total: 70, Tiebreak: []int{15}},
		{Seat: 2, Total: 50},
		{Seat: 3, Total: 70, Tiebreak: []int{15}},
	}
	got := RankScores(scores)
	want := []int{3, 1, 4, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("RankScores = %v, want %v", got, want)
		}
	}
}
