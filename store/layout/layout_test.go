package layout

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func openFile(t *testing.T) *bolt.DB {
	t.Helper()
	db, walked, err := Open(filepath.Join(t.TempDir(), "l.db"), bolt.Options{NoSync: true, PageSize: 1024})
	if err != nil || walked {
		t.Fatal(err, walked)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestValueKeptAloneFromBlobMin: a value of BlobMin bytes or more is a
// nested bucket of one entry, a smaller one a plain value; a put changes
// the form either way, reads and deletes take both (sizes around the
// bound, every order of two puts).
func TestValueKeptAloneFromBlobMin(t *testing.T) {
	sizes := []int{0, 1, BlobMin - 1, BlobMin, BlobMin + 1, 9000}
	db := openFile(t)
	for _, a := range sizes {
		for _, b := range sizes {
			k := []byte(fmt.Sprintf("k%d-%d", a, b))
			err := db.Update(func(tx *bolt.Tx) error {
				bk, err := tx.CreateBucketIfNotExists([]byte("values"))
				if err != nil {
					return err
				}
				for _, n := range []int{a, b} {
					v := bytes.Repeat([]byte{byte(n)}, n)
					if err := PutValue(bk, k, v); err != nil {
						return err
					}
					if got := GetValue(bk, k); !bytes.Equal(got, v) || (n > 0 && got == nil) {
						return fmt.Errorf("%d then %d: read %d bytes", a, b, len(got))
					}
					if alone := bk.Bucket(k) != nil; alone != (n >= BlobMin) {
						return fmt.Errorf("%d bytes: alone %v", n, alone)
					}
				}
				if err := DeleteValue(bk, k); err != nil {
					return err
				}
				if bk.Get(k) != nil || bk.Bucket(k) != nil {
					return fmt.Errorf("%d then %d: left after its delete", a, b)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBucketsWhereTheLayoutKeepsThem: with "rest" (schema 11) a top
// bucket is made at the top level and any other in rest; both are found
// by name, listed once each, and deleted where they are; a top bucket
// left in rest (a crash between the two steps of the merge) is found
// there, and Schema11 moves it back.
func TestBucketsWhereTheLayoutKeepsThem(t *testing.T) {
	db := openFile(t)
	names := [][]byte{[]byte("inbound"), []byte("wake"), []byte("players"), []byte("tournaments")}
	err := db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucket(Rest); err != nil {
			return err
		}
		if _, err := tx.Bucket(Rest).CreateBucket([]byte("log.flat")); err != nil {
			return err
		}
		for _, n := range names {
			if _, err := CreateBucket(tx, n); err != nil {
				return err
			}
		}
		for _, n := range append(names, []byte("log.flat")) {
			atTop := tx.Bucket(n) != nil
			if want := string(n) == "inbound" || string(n) == "wake"; atTop != want || BucketOf(tx, n) == nil {
				return fmt.Errorf("%s: at the top %v (want %v), found %v", n, atTop, want, BucketOf(tx, n) != nil)
			}
		}
		var listed []string
		if err := EachBucket(tx, func(name []byte, _ *bolt.Bucket) error {
			listed = append(listed, string(name))
			return nil
		}); err != nil {
			return err
		}
		slices.Sort(listed)
		if want := []string{"inbound", "log.flat", "players", "tournaments", "wake"}; !slices.Equal(listed, want) {
			return fmt.Errorf("listed %v, want %v", listed, want)
		}
		return DeleteBucket(tx, []byte("players"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(Schema11); err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte("log.flat")) == nil || tx.Bucket(Rest).Bucket([]byte("log.flat")) != nil {
			return fmt.Errorf("log.flat not moved back to the top")
		}
		if BucketOf(tx, []byte("players")) != nil || BucketOf(tx, []byte("tournaments")) == nil {
			return fmt.Errorf("players deleted or tournaments lost")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
