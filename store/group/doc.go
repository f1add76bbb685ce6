// Package group is the store's group commit, behind its API: the commits
// that callers hand over while another is being written share the next
// transaction, one fsync for several inputs (store/doc.go,
// "Transactions").
//
// It owns the order of the commits: who writes a group (the first caller
// that finds none being written, then a goroutine of its own for each
// next group, started at once and yielded to: the rule on the next group,
// TestNextGroupStartsBeforeTheLeaderGoesOn_Issue25), the lazy commits
// that wait LaterWithin for a group to ride in (Hurry writes them now), a
// commit that fails alone (its group written again without it), and the
// CPU time of the groups written on its own goroutines (MeasureCPU). The
// store gives it the write of a batch in one transaction
// (store/spec.go, writeGroup) and runs it through DB.Commit, DB.Group
// and DB.GroupLater; its tests are the store's (store/group_test.go,
// store/nextgroup_test.go). It must not know what a commit writes, the
// file or bbolt, nor read a clock but the lazy commits' timer.
package group
