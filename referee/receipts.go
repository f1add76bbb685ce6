package referee

import (
	"github.com/pbem-referee/referee/referee/tell"
)

// Receipts (issue 22): the rule and the code are the tell stage's
// (referee/tell, receipts.go); the core keeps the held receipt in the
// seat's record and wakes the game when it falls due (settle.go).

// Receipt modes of a seat (Seat.Receipts).
const (
	ReceiptsFold = tell.ReceiptsFold // held for Options.ReceiptWindow
	ReceiptsEach = tell.ReceiptsEach // NOTIFY receipts: sent at once
	ReceiptsNone = tell.ReceiptsNone // NOTIFY none: only inside another mail
)

// DefaultReceiptWindow is the configuration's default receipt window.
const DefaultReceiptWindow = tell.DefaultReceiptWindow

// HeldReceipt is a receipt waiting in a seat's record for the next mail.
type HeldReceipt = tell.HeldReceipt
