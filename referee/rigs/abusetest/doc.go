// Package abusetest is the abuse suite of issue 11 ("Trust under abuse"):
// the running daemon, a real process over a real Dovecot and Postfix
// (referee/rigs/mailstack) and its HTTP front door, gets the hostile inputs of
// the probe that found the issue: mail bombs, forged senders, resent and
// stale numbered replies, auto-responders, out-of-office subjects over real
// commands, forged bounces, hidden characters, a message that kills the
// process, and floods of unsigned or replayed webhook posts. It asserts
// that nothing unauthorised changes the game, that every genuine seat mail
// is answered, that nothing loops, that memory stays bounded (the
// daemon's peak RSS is read from /proc), and that nothing is lost.
//
// The test is in abuse_test.go; like referee/rigs/crashtest it needs the
// project's mail stack (Dovecot and Postfix installed, run as root) and
// skips without it unless REFEREE_MAILSTACK=require.
package abusetest
