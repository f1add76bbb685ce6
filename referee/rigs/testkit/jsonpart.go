package testkit

import (
	"bytes"
	"io"
	"strings"

	_ "github.com/emersion/go-message/charset"
	gomail "github.com/emersion/go-message/mail"
)

// JSONPart returns the first application/json part of a mail (nil if
// none): the view the referee attaches for FORMAT json players.
func JSONPart(raw []byte) []byte {
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil && r == nil {
		return nil
	}
	for {
		p, err := r.NextPart()
		if err != nil {
			return nil
		}
		ct := ""
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			ct, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			ct, _, _ = h.ContentType()
		}
		if strings.EqualFold(ct, "application/json") {
			b, err := io.ReadAll(p.Body)
			if err != nil {
				return nil
			}
			return b
		}
	}
}
