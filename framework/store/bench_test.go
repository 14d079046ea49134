package store_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// commit inserts one row in a transaction of its own.
func commit(db *sqlx.DB) error {
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO books (title) VALUES (?)`, "a book"); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// BenchmarkCommits measures what synchronous=FULL costs: one row inserted
// per transaction (as one POST /books/ commits), by one writer and by 8
// concurrent writers, on a file database with the default FULL and with
// NORMAL. Run it where the database's disk is the one you deploy on:
//
//	go test -run '^$' -bench Commits -benchtime 2000x ./framework/store/
func BenchmarkCommits(b *testing.B) {
	for _, mode := range []string{"FULL", "NORMAL"} {
		for _, writers := range []int{1, 8} {
			b.Run(fmt.Sprintf("synchronous=%s/writers=%d", mode, writers), func(b *testing.B) {
				db, err := store.Open("file:" + filepath.Join(b.TempDir(), "bench.sqlite3") + "?_synchronous=" + mode)
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				if _, err := db.Exec(`CREATE TABLE books (id integer PRIMARY KEY AUTOINCREMENT, title varchar(200) NOT NULL)`); err != nil {
					b.Fatal(err)
				}
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				for range writers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for next.Add(1) <= int64(b.N) {
							if err := commit(db); err != nil {
								b.Error(err)
								return
							}
						}
					}()
				}
				wg.Wait()
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
			})
		}
	}
}
