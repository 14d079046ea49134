package queryset

import (
	"database/sql"
	"path/filepath"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/go-drf/drf/framework/store"
)

// A database's registry goes with it: a program (or a test) that opens
// and closes many databases keeps no registry of the closed ones.
func TestInstalledGoesWithItsDatabase(t *testing.T) {
	var key weak.Pointer[sql.DB]
	func() {
		db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		Installed(db)
		key = weak.Make(db.DB)
		if _, ok := installed.Load(key); !ok {
			t.Fatal("no registry of the open database")
		}
	}()
	for range 300 {
		runtime.GC()
		if _, ok := installed.Load(key); !ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Error("the registry of a database gone is still held")
}
