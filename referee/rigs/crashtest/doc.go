// Package crashtest proves the referee's exactly-once promise: a bot
// tournament runs through a real Dovecot and Postfix while the daemon is
// killed with SIGKILL at random moments and restarted, and the final
// states must equal those of an uninterrupted run with the same seeds, with
// no move lost or doubled and every player's final mail delivered.
//
// The bots behave like people (issue 11): every mail has a fresh
// Message-ID and is written in a mail client's layout drawn per mail,
// seeded (testkit.Writer: Gmail, Outlook, Apple Mail or Thunderbird, a
// greeting and a sign-off now and then, a signature, the referee's mail
// quoted), and a bot answers again when the same question comes back or
// when no news arrives for a few seconds, so the referee must recognise
// resends by their content and the state they answer. One game has
// deadlines and a sleepy player who lets a few decisions expire, so that
// deadlines fire across the kills too; the simulation plays the same
// defaults. At the end every mailbox is checked against the outbox:
// nothing recorded as sent is missing, nothing arrived twice beyond the
// 250-to-commit window, nothing is left queued; and the run must reach
// its nominal number of kills.
//
// The test is in crash_test.go; it needs the project's mail stack
// (referee/rigs/mailstack: Dovecot and Postfix installed, run as root) and skips
// without it unless REFEREE_MAILSTACK=require.
//
// It owns the crash scenarios and their checks. It must not be linked into
// the binary (a test rig).
package crashtest
