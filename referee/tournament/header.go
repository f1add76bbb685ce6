package tournament

import (
	"bytes"
	"encoding/json"
)

// OrgLangOf is the organiser's language (Settings.OrgLang) of an encoded
// record, read from its head without decoding the rest: Settings are
// encoded before the seed, the entrants and the rounds (and were since
// OrgLang exists), so it stops at the first of those, and a record's size
// does not matter. A game that ends reads it for its note to the
// organiser: decoding a 1,000-entrant record whole for it was half the
// CPU of a 1,000-player tournament (issue 24). "" when there is none or
// the record cannot be read.
func OrgLangOf(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return ""
		}
		switch k {
		case "org_lang":
			var s string
			if dec.Decode(&s) != nil {
				return ""
			}
			return s
		case "seed", "entrants", "rounds":
			return ""
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
