package webhook

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// header is one header field of a rebuilt message.
type header struct{ name, value string }

// contentHeaders are replaced by the rebuilt message's own.
var contentHeaders = map[string]bool{
	"content-type": true, "content-transfer-encoding": true, "mime-version": true, "content-length": true,
	"content-disposition": true,
}

// cleanHeader makes a provider-supplied field safe to write: no line
// breaks (they would inject fields or end the header), no control
// characters, and a name made only of printable ASCII without a colon.
func cleanHeader(h header) (header, bool) {
	name := strings.TrimSpace(h.name)
	if name == "" || len(name) > 200 {
		return h, false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c >= 0x7f || c == ':' {
			return h, false
		}
	}
	v := strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == '\n' || r == '\t':
			return ' '
		case r < ' ' || r == 0x7f:
			return -1
		}
		return r
	}, h.value)
	return header{name, strings.TrimSpace(v)}, true
}

// buildMessage rebuilds an RFC 5322 message from a provider's parsed
// fields: the given header fields (UTF-8 allowed, RFC 6532) without the
// content fields, then a single text part, base64-encoded so that any line
// length and any bytes survive. mediaType is "text/plain" or "text/html".
func buildMessage(headers []header, mediaType, charset string, body []byte) []byte {
	var b bytes.Buffer
	for _, h := range headers {
		h, ok := cleanHeader(h)
		if !ok || contentHeaders[strings.ToLower(h.name)] {
			continue
		}
		b.WriteString(h.name + ": " + h.value + "\r\n")
	}
	if charset == "" || strings.ContainsAny(charset, "\";\r\n ") {
		charset = "utf-8"
	}
	b.WriteString("MIME-Version: 1.0\r\n")
	b.WriteString("Content-Type: " + mediaType + "; charset=" + charset + "\r\n")
	b.WriteString("Content-Transfer-Encoding: base64\r\n\r\n")
	enc := base64.StdEncoding.EncodeToString(body)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	return b.Bytes()
}

// prependHeaders puts trusted envelope information (X-Original-To, from
// the provider's own envelope) in front of a raw message.
func prependHeaders(raw []byte, headers []header) []byte {
	var b bytes.Buffer
	for _, h := range headers {
		if h, ok := cleanHeader(h); ok && h.value != "" {
			b.WriteString(h.name + ": " + h.value + "\r\n")
		}
	}
	if b.Len() == 0 {
		return raw
	}
	b.Write(raw)
	return b.Bytes()
}

// parseHeaderBlock splits a raw header block (SendGrid's headers field)
// into fields, unfolding continuation lines.
func parseHeaderBlock(block string) []header {
	var out []header
	for _, line := range strings.Split(strings.ReplaceAll(block, "\r\n", "\n"), "\n") {
		if line == "" {
			continue
		}
		if (line[0] == ' ' || line[0] == '\t') && len(out) > 0 {
			out[len(out)-1].value += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		out = append(out, header{name, strings.TrimSpace(value)})
	}
	return out
}

// originalTo returns X-Original-To fields for envelope recipients (at most
// ten).
func originalTo(rcpts []string) []header {
	var out []header
	for _, r := range rcpts {
		if r = strings.TrimSpace(r); r != "" && len(out) < 10 {
			out = append(out, header{"X-Original-To", r})
		}
	}
	return out
}
