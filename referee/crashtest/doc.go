// Package crashtest proves the referee's exactly-once promise: a bot
// tournament runs through a real Dovecot and Postfix while the daemon is
// killed with SIGKILL at random moments and restarted, and the final
// states must equal those of an uninterrupted run with the same seeds, with
// no move lost or doubled and every player's final mail delivered.
//
// The test is in crash_test.go; it needs the project's mail stack
// (referee/mailstack: Dovecot and Postfix installed, run as root) and skips
// without it unless REFEREE_MAILSTACK=require.
package crashtest
