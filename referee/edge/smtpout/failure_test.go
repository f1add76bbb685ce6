package smtpout

import (
	"fmt"
	"testing"

	"github.com/pbem-referee/referee/referee"
)

// TestDeliveryErrorShape: a delivery error is permanent or transient in the
// core's one shape (referee.IsPermanent), as its Permanent field says.
func TestDeliveryErrorShape(t *testing.T) {
	perm := &DeliveryError{Stage: stageRcpt, Code: 550, Permanent: true, Err: fmt.Errorf("user unknown")}
	temp := &DeliveryError{Stage: stageConnect, Err: fmt.Errorf("connection refused")}
	if !referee.IsPermanent(perm) || referee.IsTransient(perm) {
		t.Errorf("550 at rcpt: not permanent")
	}
	if referee.IsPermanent(fmt.Errorf("deliver: %w", temp)) || !referee.IsTransient(temp) {
		t.Errorf("connect failure: not transient")
	}
	if !referee.IsPermanent(permanentf(stageData, "empty message")) {
		t.Errorf("a local permanent failure is not permanent")
	}
}
