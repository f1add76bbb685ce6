// Package seating is a game's seats from its creation to its start: the
// new game checked against its engine and recorded, the invitations, a
// seat's JOIN and DECLINE, the start once every seat has joined (the seat
// order drawn from the seed, the table set up), and the registration of
// an invitee who is not yet a player.
//
// It owns these steps and their order: what is checked before a game
// exists (the engine sets up a throw-away game with the same options, the
// id is free and well formed), the seed drawn only once everything else
// is right, the log entries each step writes (create, invite, join,
// decline, start and the setup's steps), the announcements and the
// organiser's notes it queues by name, and the seat states it moves
// (invited, joined, declined, playing). A tournament's game (NewGame.Seated)
// takes the same path without the invitations' mail, its seats joined at
// once.
//
// It must not touch the store, the clock, randomness, mail or a word a
// player reads: it reads and changes everything through Host (the core,
// for one unit of work) and Game (one game of it), and the core writes the
// log, renders the announcements and persists the records (referee/lifecycle.go
// implements both). The pure rules it applies (the id of a new game, the
// seat order) are package referee/lifecycle's. It must not import the core
// (referee/ imports it).
//
// The rules it keeps:
//   - a game is created whole or not at all: every check (engine options,
//     seats, id) runs before a random byte is drawn or a record written;
//   - the throw-away set-up that checks the engine options runs once per
//     kind in a unit of work (Checks, Host.Checks: the game, variant,
//     options, ruleset and seat count, all it reads): the games of a
//     tournament round's batch share it, and every game is created or
//     refused exactly as when each checks its own
//     (TestChecksSharedByKind_Issue24, TestCheckKeyNamesEveryPart_Issue24);
//   - a tournament game's (Seated) seat secrets begin with SeatPrefix of
//     the number of games (four letters of [a-z2-7] in byte order), then
//     the random part every secret has (80 bits, SecretText: 16 letters of
//     lower-case base32, made in one string; TestSecretTextAsBefore_Issue24
//     proves them the letters of before): the store keys tokens
//     by secret, and a round's batch appends its secrets together
//     instead of rewriting pages all over the tokens' tree (issue 24: a
//     5,000-game START wrote 13% fewer bytes). The prefix is public and
//     tells only how many games there were; the secret is as hard to
//     guess as before. An organiser's game's seats and players' tokens
//     have no prefix (TestSeatSecretsSortByBatch_Issue24);
//   - an invitee is invited once, to a free seat, under a name no other
//     seat has, in the organiser's language for the game when there is one
//     (issue 12.7), else the player's;
//   - the game starts when, and only when, every seat has joined; its seat
//     order is the seed's (lifecycle.DrawSeatOrder) and what the unit of
//     work recorded per seat follows the seats to their new numbers;
//   - a seat may decline only while the game forms; its secret stops
//     working at once and its seat is freed after its last mail;
//   - a new player's name is the invitation's, else the address's local
//     part, cleaned (issue 23); an unknown language is English;
//   - a refusal (issue 24: a game no engine runs, more invitees than
//     seats, an id that is malformed or taken, an invitee's address that
//     is none, already seated, or one too many) is an *Error, a code of
//     Codes and its parameters, never a sentence: the organiser's door
//     words it in the organiser's language (organise.Refusal, template
//     org.error.<code>), and a new refusal needs a code there
//     (TestRefusalsAreCodes_Issue24; organise's
//     TestEveryRefusalInWords_Issue24 walks Codes in every language).
package seating
