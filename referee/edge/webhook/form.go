package webhook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
)

// parseForm reads the fields named in want from an
// application/x-www-form-urlencoded or multipart/form-data body already in
// memory (and so already bounded). Value parts and file parts count alike
// (a provider may send a message as either); other parts, such as
// attachments, are skipped. The first occurrence of a field wins.
func parseForm(contentType string, body []byte, want ...string) (map[string]string, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("content type: %w", err)
	}
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	out := map[string]string{}
	switch mt {
	case "application/x-www-form-urlencoded":
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, fmt.Errorf("form: %w", err)
		}
		for k, vs := range v {
			if wanted[k] && len(vs) > 0 {
				out[k] = vs[0]
			}
		}
		return out, nil
	case "multipart/form-data":
		if params["boundary"] == "" {
			return nil, errors.New("multipart form without boundary")
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return nil, fmt.Errorf("multipart form: %w", err)
			}
			name := part.FormName()
			if !wanted[name] {
				continue // NextPart skips the rest of this part
			}
			b, err := io.ReadAll(part)
			if err != nil {
				return nil, fmt.Errorf("multipart form: %w", err)
			}
			if _, dup := out[name]; !dup {
				out[name] = string(b)
			}
		}
	}
	return nil, fmt.Errorf("content type %q is not a form", mt)
}
