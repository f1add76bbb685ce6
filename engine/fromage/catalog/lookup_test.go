package catalog

import (
	"testing"
)

// TestLookUpFindsNamesFromFirst: lookUp finds a name at first or after and
// at nothing before; an empty name leaves the field; an unknown one fails.
// The table puts a name at index 0 so that an off-by-one either way (0
// accepted where 1.. is asked, or first itself refused) fails a row.
func TestLookUpFindsNamesFromFirst(t *testing.T) {
	names := []string{"zero", "one", "two"}
	for _, c := range []struct {
		raw   string
		first int
		at    int
		ok    bool
	}{
		{"", 0, -1, true}, {"", 1, -1, true},
		{"zero", 0, 0, true}, {"one", 0, 1, true}, {"two", 0, 2, true},
		{"zero", 1, 0, false}, {"one", 1, 1, true}, {"two", 1, 2, true},
		{"three", 0, -1, false}, {"three", 1, -1, false}, {"ZERO", 0, -1, false},
	} {
		at := -1
		if ok := lookUp(&at, names, c.raw, c.first); ok != c.ok || at != c.at {
			t.Errorf("lookUp(%q from %d) = %d, %v; want %d, %v", c.raw, c.first, at, ok, c.at, c.ok)
		}
	}
}

// TestAbilityNamesEveryIndex: an ability's resource, venue and cheese type
// are read from index 0 of their lists and its aging from 1 (bronze,
// silver, gold; AgingNames[0] is no aging), every name of each list, and an
// unknown name is refused, in every field.
func TestAbilityNamesEveryIndex(t *testing.T) {
	base := rawAbility{ID: "x", Name: "X", Column: 1, Cost: 1, Effect: "trade"} // trade needs no field
	fields := []struct {
		name  string
		names []string
		first int
		set   func(*rawAbility, string)
		got   func(Ability) int
	}{
		{"res", ResNames, 0, func(r *rawAbility, v string) { r.Res = v }, func(a Ability) int { return a.Res }},
		{"venue", VenueNames, 0, func(r *rawAbility, v string) { r.Venue = v }, func(a Ability) int { return a.Venue }},
		{"type", TypeNames, 0, func(r *rawAbility, v string) { r.Type = v }, func(a Ability) int { return a.Type }},
		{"aging", AgingNames, 1, func(r *rawAbility, v string) { r.Aging = v }, func(a Ability) int { return a.Aging }},
	}
	read := 0
	for _, f := range fields {
		for i, n := range f.names {
			if i < f.first {
				continue
			}
			ra := base
			f.set(&ra, n)
			a, err := compileAbility(ra, "test")
			if err != nil || f.got(a) != i {
				t.Errorf("%s %q: index %d, %v; want %d", f.name, n, f.got(a), err, i)
			}
			read++
		}
		ra := base
		f.set(&ra, "unknown")
		if _, err := compileAbility(ra, "test"); err == nil {
			t.Errorf("%s %q: read, want refused", f.name, "unknown")
		}
		ra = base
		if a, err := compileAbility(ra, "test"); err != nil || f.got(a) != -1 {
			t.Errorf("%s not given: %d, %v; want -1", f.name, f.got(a), err)
		}
	}
	if want := len(ResNames) + len(VenueNames) + len(TypeNames) + len(AgingNames) - 1; read != want {
		t.Fatalf("%d names read, want %d", read, want)
	}
}
