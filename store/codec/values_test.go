package codec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// prefix is a caller's prefix before the compressed bytes (the store's
// snapshot form, 0x03: store/writepath.go).
const prefix = 0x03

// record is a generated game record of n bytes or a little more (JSON,
// as the store's tests make them).
func record(rng *rand.Rand, n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":"g1","table":[`)
	for b.Len() < n {
		fmt.Fprintf(&b, `{"k":%d,"v":"%x"},`, rng.IntN(1000), rng.Uint64())
	}
	b.WriteString(`0]}`)
	return b.Bytes()
}

// payloads are generated mails and random bytes of sizes around a page.
func payloads(rng *rand.Rand) map[string][]byte {
	out := map[string][]byte{"empty": nil}
	for _, n := range []int{1, 300, 1023, 1024, 1500, 4000, 40000} {
		var b bytes.Buffer
		for b.Len() < n {
			fmt.Fprintf(&b, "Subject: move %d\r\nYour turn, seat %d: %x\r\n", rng.IntN(100), rng.IntN(4), rng.Uint64())
		}
		out[fmt.Sprintf("text%d", n)] = b.Bytes()[:n]
		r := make([]byte, n)
		for i := range r {
			r[i] = byte(rng.Uint32())
		}
		out[fmt.Sprintf("random%d", n)] = r
	}
	return out
}

// moveText is n bytes of a move's JSON-like text.
func moveText(rng *rand.Rand, n int) []byte {
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, `{"seat":%d,"card":"c%d","n":%d},`, rng.IntN(4), rng.IntN(90), rng.IntN(1e6))
	}
	return []byte(b.String()[:n])
}
