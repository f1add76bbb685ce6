package store

import "github.com/pbem-referee/referee/store/rowform"

// Body is a payload ready for a queue (PackBody; store/rowform).
type Body = rowform.Body

// PackBody compresses a payload for a queue when that makes it smaller, a
// pure function that may run before the transaction (Tx.EnqueueBody).
func PackBody(payload []byte) Body { return rowform.Pack(payload) }

// PackBodies packs n payloads, payload(i) for i in [0, n), on every core
// when they are many (rowform.PackAll).
func PackBodies(n int, payload func(i int) []byte) []Body { return rowform.PackAll(n, payload) }
