package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/store"
	"github.com/jmoiron/sqlx"
)

func pragma(t *testing.T, db *sqlx.DB, name string) string {
	t.Helper()
	var v string
	if err := db.Get(&v, "PRAGMA "+name); err != nil {
		t.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

func TestOpenDSNForms(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dsn  string
		file string // the file that must exist afterwards
	}{
		{"plain.sqlite3", filepath.Join(dir, "plain.sqlite3")},
		{filepath.Join(dir, "abs.sqlite3"), filepath.Join(dir, "abs.sqlite3")},
		// dj-database-url's forms: three slashes for a relative path, four
		// for an absolute one.
		{"sqlite:///" + filepath.Join(dir, "url-abs.sqlite3"), filepath.Join(dir, "url-abs.sqlite3")},
		{"sqlite:///url-rel.sqlite3", filepath.Join(dir, "url-rel.sqlite3")},
		{"SQLite:///sub/url-rel.sqlite3", filepath.Join(dir, "sub", "url-rel.sqlite3")},
		{"file:uri.sqlite3?mode=rwc", filepath.Join(dir, "uri.sqlite3")},
	}
	for _, c := range cases {
		t.Run(c.dsn, func(t *testing.T) {
			db, err := store.Open(c.dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got := pragma(t, db, "journal_mode"); got != "wal" {
				t.Errorf("journal_mode = %q, want wal", got)
			}
			if got := pragma(t, db, "foreign_keys"); got != "1" {
				t.Errorf("foreign_keys = %q, want 1", got)
			}
			if got := pragma(t, db, "busy_timeout"); got != "5000" {
				t.Errorf("busy_timeout = %q, want 5000", got)
			}
			if _, err := db.Exec("CREATE TABLE t (x integer)"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(c.file); err != nil {
				t.Errorf("database file: %v", err)
			}
		})
	}
}

func TestOpenMemoryIsSharedWithinPoolAndPrivateAcrossOpens(t *testing.T) {
	for _, dsn := range []string{":memory:", "sqlite://:memory:", "sqlite:///:memory:", "sqlite://"} {
		a, err := store.Open(dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if got := pragma(t, a, "foreign_keys"); got != "1" {
			t.Errorf("%s: foreign_keys = %q, want 1", dsn, got)
		}
		if _, err := a.Exec("CREATE TABLE t (x integer)"); err != nil {
			t.Fatal(err)
		}
		// Concurrent users of the pool all see the one database.
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := a.Exec("INSERT INTO t VALUES (1)"); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		var n int
		if err := a.Get(&n, "SELECT count(*) FROM t"); err != nil || n != 8 {
			t.Errorf("%s: count = %d, %v; want 8", dsn, n, err)
		}
		b, err := store.Open(dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if _, err := b.Exec("SELECT * FROM t"); err == nil {
			t.Errorf("%s: a second Open sees the first one's table", dsn)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	for _, dsn := range []string{"", "sqlite:///", "sqlite://host/db.sqlite3", filepath.Join(t.TempDir(), "missing", "dir", "db.sqlite3")} {
		if db, err := store.Open(dsn); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", dsn)
		} else if !strings.HasPrefix(err.Error(), "store: ") {
			t.Errorf("Open(%q) error %q lacks the package prefix", dsn, err)
		}
	}
}

func TestOpenUnsupportedScheme(t *testing.T) {
	for _, dsn := range []string{"mysql://u:secret@host/db", "oracle://host/db", "redis://localhost:6379/0"} {
		db, err := store.Open(dsn)
		if err == nil {
			db.Close()
			t.Fatalf("Open(%q) succeeded", dsn)
		}
		scheme, _, _ := strings.Cut(dsn, ":")
		for _, want := range []string{`"` + scheme + `"`, "sqlite:///", "postgres://", "postgresql://"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Open(%q) = %q, does not name %s", dsn, err, want)
			}
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q) = %q shows the password", dsn, err)
		}
	}
}

func TestForeignKeysEnforced(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "fk.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec("CREATE TABLE p (id integer PRIMARY KEY)")
	db.MustExec("CREATE TABLE c (p_id integer NOT NULL REFERENCES p (id))")
	if _, err := db.Exec("INSERT INTO c VALUES (42)"); err == nil {
		t.Fatal("insert with a dangling foreign key succeeded")
	}
}

func TestIsUniqueViolation(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec("CREATE TABLE u (id integer PRIMARY KEY, name text UNIQUE)")
	db.MustExec("INSERT INTO u VALUES (1, 'a')")
	_, err = db.Exec("INSERT INTO u VALUES (2, 'a')")
	if !store.IsUniqueViolation(err) {
		t.Errorf("unique: IsUniqueViolation(%v) = false", err)
	}
	_, err = db.Exec("INSERT INTO u VALUES (1, 'b')")
	if !store.IsUniqueViolation(err) {
		t.Errorf("primary key: IsUniqueViolation(%v) = false", err)
	}
	_, err = db.Exec("INSERT INTO nope VALUES (1)")
	if store.IsUniqueViolation(err) || store.IsUniqueViolation(nil) {
		t.Error("IsUniqueViolation true for another error")
	}
}

func TestIsBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.sqlite3")
	a, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.MustExec("CREATE TABLE t (x integer)")
	tx := a.MustBegin()
	defer tx.Rollback()
	tx.MustExec("INSERT INTO t VALUES (1)")
	// A second connection with no busy timeout fails at once.
	b, err := sqlx.Open(store.DriverName, path+"?_busy_timeout=0&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, err = b.Exec("INSERT INTO t VALUES (2)")
	if !store.IsBusy(err) {
		t.Errorf("IsBusy(%v) = false", err)
	}
	if store.IsBusy(errors.New("database is locked")) {
		t.Error("IsBusy true for a plain error")
	}
}

func TestWritersWaitForEachOther(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "w.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec("CREATE TABLE n (v integer)")
	db.MustExec("INSERT INTO n VALUES (0)")
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := store.InTx(context.Background(), db, func(tx *sqlx.Tx) error {
				var v int
				if err := tx.Get(&v, "SELECT v FROM n"); err != nil {
					return err
				}
				_, err := tx.Exec("UPDATE n SET v = ?", v+1)
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var v int
	if err := db.Get(&v, "SELECT v FROM n"); err != nil || v != 20 {
		t.Errorf("counter = %d, %v; want 20 (no lost update)", v, err)
	}
}

func TestInTxRollsBack(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec("CREATE TABLE t (x integer)")
	boom := errors.New("boom")
	err = store.InTx(context.Background(), db, func(tx *sqlx.Tx) error {
		tx.MustExec("INSERT INTO t VALUES (1)")
		return boom
	})
	if err != boom {
		t.Fatalf("InTx = %v, want boom", err)
	}
	var n int
	if err := db.Get(&n, "SELECT count(*) FROM t"); err != nil || n != 0 {
		t.Errorf("rows = %d, %v; want 0", n, err)
	}
}

func TestFormatTime(t *testing.T) {
	loc := time.FixedZone("X", 2*3600)
	cases := map[time.Time]string{
		time.Date(2024, 1, 1, 3, 4, 5, 0, loc):            "2024-01-01 01:04:05",
		time.Date(2024, 1, 1, 1, 0, 0, 1234567, time.UTC): "2024-01-01 01:00:00.001234",
		time.Date(2024, 1, 1, 1, 0, 0, 500, time.UTC):     "2024-01-01 01:00:00",
	}
	for in, want := range cases {
		if got := store.FormatTime(in); got != want {
			t.Errorf("FormatTime(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestDatetimeColumnsReadBothForms(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.MustExec(`CREATE TABLE d ("id" integer PRIMARY KEY, "at" datetime NOT NULL)`)
	want := time.Date(2024, 1, 1, 1, 0, 0, 123456000, time.UTC)
	db.MustExec("INSERT INTO d VALUES (1, ?)", store.FormatTime(want))
	db.MustExec("INSERT INTO d VALUES (2, ?)", want.In(time.FixedZone("X", 3600)))
	for id := 1; id <= 2; id++ {
		var got time.Time
		if err := db.Get(&got, "SELECT at FROM d WHERE id = ?", id); err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Errorf("row %d: %v, want %v", id, got, want)
		}
	}
}

// TestSynchronousFullByDefault: a file database commits with
// synchronous=FULL (2) on every connection of the pool, so that no
// acknowledged write is lost to a power loss; a file: URI may ask for
// NORMAL (1), by either of go-sqlite3's names.
func TestSynchronousFullByDefault(t *testing.T) {
	dir := t.TempDir()
	for dsn, want := range map[string]int{
		filepath.Join(dir, "plain.sqlite3"):                                2,
		"sqlite:///" + filepath.Join(dir, "url.sqlite3"):                   2,
		"file:" + filepath.Join(dir, "uri.sqlite3"):                        2,
		"file:" + filepath.Join(dir, "n.sqlite3") + "?_synchronous=NORMAL": 1,
		"file:" + filepath.Join(dir, "s.sqlite3") + "?_sync=1":             1,
	} {
		db, err := store.Open(dsn)
		if err != nil {
			t.Fatal(err)
		}
		// Several connections at once, so that more than one is checked.
		conns := make([]*sql.Conn, 3)
		for i := range conns {
			if conns[i], err = db.Conn(context.Background()); err != nil {
				t.Fatal(err)
			}
			var got int
			if err := conns[i].QueryRowContext(context.Background(), "PRAGMA synchronous").Scan(&got); err != nil || got != want {
				t.Errorf("%s, connection %d: synchronous = %d (%v), want %d", dsn, i, got, err, want)
			}
		}
		for _, c := range conns {
			_ = c.Close()
		}
		_ = db.Close()
	}
}
