// Package e2e holds the end-to-end tests of the referee daemon over a real
// Dovecot + Postfix on loopback (referee/rigs/mailstack), with replies
// written as real mail clients write them (mutt, Gmail, Outlook, Apple
// Mail, Thunderbird, a phone's HTML-only mail: referee/rigs/testkit's
// Writer), a FORMAT json program in a client's layout, forged senders, a
// copied menu line on a seat handed on. Its tests are all in package
// e2e_test; they skip without the mail stack unless REFEREE_MAILSTACK=require.
//
// It owns those tests and their stack set-up (stack_test.go). It must not
// hold what other tests share (that goes in referee/rigs/testkit), and must
// not be linked into the binary (a test rig: cmd/referee's
// TestBinaryHasNoTestRig).
package e2e
