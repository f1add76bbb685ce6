package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

const crashEnv = "STORE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
		return
	}
	os.Exit(m.Run())
}

// crashChild commits inputs one transaction at a time, forever, until it is
// killed. Each input writes a game record, a log entry, an outbox row and an
// inbound record, with a payload large enough to span several pages.
func crashChild(path string) {
	db, err := Open(path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	n := 0
	db.View(func(tx *Tx) error {
		if g, err := tx.Game("g1"); err == nil {
			var v struct{ N int }
			json.Unmarshal(g, &v)
			n = v.N
		}
		return nil
	})
	pad := make([]byte, 20000)
	for i := range pad {
		pad[i] = 'a' + byte(i%26)
	}
	told := false
	for {
		n++
		err := db.Update(func(tx *Tx) error {
			if err := writeInput(tx, n); err != nil {
				return err
			}
			_, err := tx.AppendLog("g1", pad)
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if !told {
			// The parent kills only once something was committed: a
			// slow start (-race on a loaded machine) is no crash test.
			os.Stdout.WriteString("committed\n")
			told = true
		}
	}
}

// Kill a process in the middle of its transactions many times: after every
// restart the file is consistent and every committed input is complete
// (game record, log entries, outbox row and de-duplication record all
// present), and no half-written input exists.
func TestCrashConsistencyUnderSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(1, 2))
	last := 0
	for round := 0; round < 12; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		started := make(chan struct{})
		go func() {
			b := make([]byte, 1)
			out.Read(b)
			close(started)
		}()
		select {
		case <-started:
		case <-time.After(time.Minute):
			t.Fatal("the child committed nothing in a minute")
		}
		time.Sleep(time.Duration(30+rng.IntN(200)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		db, err := Open(path, nil)
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		if err := db.Check(); err != nil {
			t.Fatalf("round %d: tx.Check: %v", round, err)
		}
		err = db.View(func(tx *Tx) error {
			n := 0
			if g, err := tx.Game("g1"); err == nil {
				var v struct{ N int }
				if err := json.Unmarshal(g, &v); err != nil {
					return err
				}
				n = v.N
			}
			if n < last {
				return fmt.Errorf("committed input %d lost (now %d)", last, n)
			}
			if got := tx.LogLen("g1"); got != uint64(2*n) {
				return fmt.Errorf("%d inputs but %d log entries", n, got)
			}
			if got := tx.QueueLen("outbox"); got != n {
				return fmt.Errorf("%d inputs but %d outbox rows", n, got)
			}
			for i := 1; i <= n+1; i++ {
				_, ok, err := tx.Seen("msgid:<" + strconv.Itoa(i) + "@x>")
				if err != nil {
					return err
				}
				if ok != (i <= n) {
					return fmt.Errorf("input %d recorded=%v with %d committed", i, ok, n)
				}
			}
			last = n
			return nil
		})
		db.Close()
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	if last == 0 {
		t.Fatal("the child never committed anything")
	}
	t.Logf("%d inputs committed over 12 kills", last)
}
