package templates

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The reply line: the first line of every mail the referee writes to a
// person, "##- Please write your reply above this line -##" in the
// reader's language (the "replyline" template of the referee scope,
// replyline.tmpl). Its words are the template's; its frame is the reply
// reader's rule (mailfmt: any line "##- ... -##", quoted or not, starts
// the referee's quoted mail), so a reply to a mail of any language, or
// written before the line was translated, is read the same.
const (
	// ReplyLineOpen and ReplyLineClose frame every language's line.
	ReplyLineOpen  = "##- "
	ReplyLineClose = " -##"
	// MaxReplyLineRunes is the longest a line may be: with a quote prefix
	// of several levels ("> > > ") it still fits the 72 columns at which
	// clients wrap, so no client ever splits it.
	MaxReplyLineRunes = 60
)

// ReplyLine is the reply line of lang (English when the set has no line
// for lang; "" when it has none at all: mailmsg.Compose then writes its
// default). Rendered and checked once, at load.
func (s *Set) ReplyLine(lang string) string {
	if l, ok := s.replyLines[lang]; ok {
		return l
	}
	return s.replyLines["en"]
}

// ReplyLine is the reply line of lang in the Set in use (Load): what the
// composer of the referee's mails writes first (tell.Composer).
func ReplyLine(lang string) string {
	s, err := Load()
	if err != nil {
		return ""
	}
	return s.ReplyLine(lang)
}

// loadReplyLines renders every language's reply line and checks it
// (checkReplyLine).
func (s *Set) loadReplyLines() error {
	s.replyLines = map[string]string{}
	for _, lang := range s.langs {
		if !s.Has("referee", lang, "replyline") {
			continue
		}
		l, err := s.Render("referee", lang, "replyline", nil)
		if err != nil {
			return err
		}
		if err := checkReplyLine(l); err != nil {
			return fmt.Errorf("templates: referee/%s replyline: %w", lang, err)
		}
		s.replyLines[lang] = l
	}
	return nil
}

// checkReplyLine is the rule every language's line keeps: one line,
// framed by ReplyLineOpen and ReplyLineClose with words between, no
// longer than MaxReplyLineRunes.
func checkReplyLine(l string) error {
	switch {
	case strings.ContainsAny(l, "\r\n"):
		return fmt.Errorf("%q is not one line", l)
	case len(l) <= len(ReplyLineOpen)+len(ReplyLineClose) ||
		!strings.HasPrefix(l, ReplyLineOpen) || !strings.HasSuffix(l, ReplyLineClose) ||
		strings.TrimSpace(l[len(ReplyLineOpen):len(l)-len(ReplyLineClose)]) == "":
		return fmt.Errorf("%q is not framed %q ... %q", l, ReplyLineOpen, ReplyLineClose)
	case utf8.RuneCountInString(l) > MaxReplyLineRunes:
		return fmt.Errorf("%q is longer than %d characters", l, MaxReplyLineRunes)
	}
	return nil
}
