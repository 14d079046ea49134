package queryset

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/store"
)

// entries counts the databases Installed holds a registry of.
func entries() int {
	n := 0
	installed.Range(func(any, any) bool { n++; return true })
	return n
}

// A database's registry goes with it: a program (or a test) that opens
// and closes many databases keeps no registry of the closed ones.
func TestInstalledGoesWithItsDatabase(t *testing.T) {
	before := entries()
	func() {
		db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		Installed(db)
		if n := entries(); n != before+1 {
			t.Fatalf("%d registries with the database open, want %d", n, before+1)
		}
	}()
	for range 300 {
		runtime.GC()
		if entries() == before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d registries after the database went, want %d", entries(), before)
}
