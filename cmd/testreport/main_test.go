package main

import (
	"strings"
	"testing"
)

func TestReportListsSkipsAndFailures(t *testing.T) {
	in := `{"Action":"run","Package":"p/a","Test":"TestStack"}
{"Action":"output","Package":"p/a","Test":"TestStack","Output":"=== RUN   TestStack\n"}
{"Action":"output","Package":"p/a","Test":"TestStack","Output":"    launch_test.go:18: mailstack: not installed: /usr/sbin/dovecot\n"}
{"Action":"output","Package":"p/a","Test":"TestStack","Output":"--- SKIP: TestStack (0.00s)\n"}
{"Action":"skip","Package":"p/a","Test":"TestStack"}
{"Action":"output","Package":"p/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"pass","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Output":"ok  \tp/a\t0.1s\n"}
{"Action":"pass","Package":"p/a"}
`
	var out strings.Builder
	if code := report(strings.NewReader(in), &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out.String(), "ok  \tp/a") || !strings.Contains(out.String(), "p/a TestStack: mailstack: not installed: /usr/sbin/dovecot") ||
		strings.Contains(out.String(), "=== RUN") {
		t.Fatalf("report:\n%s", out.String())
	}
	out.Reset()
	in = `{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    x_test.go:3: boom\n"}
{"Action":"fail","Package":"p/b","Test":"TestBad"}
{"Action":"output","Package":"p/b","Output":"FAIL\tp/b\t0.1s\n"}
{"Action":"fail","Package":"p/b"}
`
	if code := report(strings.NewReader(in), &out); code != 1 || !strings.Contains(out.String(), "boom") {
		t.Fatalf("failure not reported (%d):\n%s", code, out.String())
	}
}
