package webhook

import (
	"strconv"
	"testing"
)

// The front door's own cost per message (the referee replaced by a fake):
// reading, verifying and handing over.
func BenchmarkRawInbound(b *testing.B) {
	ts := newTestServer(&testing.T{}, nil)
	body := []byte(sampleMail)
	hdr := signed(rawSecret, ts.now, body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if rec := ts.do("POST", "/inbound", "message/rfc822", body, hdr); rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

func BenchmarkMailgunInbound(b *testing.B) {
	ts := newTestServer(&testing.T{}, nil)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		f := mgSign(mgKey, ts.now, "token-"+strconv.Itoa(i)+"-0123456789012345678901234567890123456789")
		f["body-mime"] = sampleMail
		rec := ts.do("POST", "/inbound/mailgun/mime", "application/x-www-form-urlencoded", urlencoded(f), nil)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
