package store

import "bytes"

// bOrganisers holds what the referee keeps about an organiser's address
// (issue 22: the language of their last mail). The bucket is made by the
// first write, so older files need no migration.
var bOrganisers = []byte("organisers")

// Organiser returns the referee's record of an organiser's address
// (case-insensitive); false when it has none.
func (tx *Tx) Organiser(addr string) ([]byte, bool) {
	v := tx.get(bOrganisers, []byte(lowerASCII(addr)))
	return bytes.Clone(v), v != nil
}

// PutOrganiser stores the referee's record of an organiser's address.
func (tx *Tx) PutOrganiser(addr string, rec []byte) error {
	tx.widen()
	b, err := createBucket(tx.tx, bOrganisers)
	if err != nil {
		return err
	}
	return b.Put([]byte(lowerASCII(addr)), rec)
}
