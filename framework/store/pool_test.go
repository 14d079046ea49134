package store_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestPoolKeepsItsConnectionsUnderLoad: 32 clients send statements (and
// transactions) at once, more than the pool has connections, whatever
// its size: the pool opens each of its connections once, in the warm-up,
// and every later statement runs on one of them. PostgreSQL counts the
// sessions opened to the database (pg_stat_database.sessions, read once
// the pool is closed and its sessions have ended, so that each has
// reported itself): exactly those seen open after the warm-up, the same
// at the end of the load.
func TestPoolKeepsItsConnectionsUnderLoad(t *testing.T) {
	url := testservers.Postgres(t)
	admin, err := store.Open(url + "&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var version int
	if err := admin.Get(&version, `SELECT current_setting('server_version_num')::int`); err != nil {
		t.Fatal(err)
	}
	if version < 140000 {
		t.Skipf("PostgreSQL %d counts no sessions (pg_stat_database.sessions is 14's)", version)
	}
	sessions := func() int64 {
		t.Helper()
		var n int64
		if err := admin.Get(&n, `SELECT sessions FROM pg_stat_database WHERE datname = current_database()`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const clients = 32
	for _, size := range []int{1, 4, 6, 16, 32} {
		t.Run(fmt.Sprintf("pool_max_conns=%d", size), func(t *testing.T) {
			app := fmt.Sprintf("pool_test_%d", size)
			backends := func() []int {
				t.Helper()
				var pids []int
				if err := admin.Select(&pids, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
					AND application_name = $1 ORDER BY pid`, app); err != nil {
					t.Fatal(err)
				}
				return pids
			}
			before := sessions()
			db, err := store.Open(url + fmt.Sprintf("&pool_max_conns=%d&application_name=%s", size, app))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			loadPool(t, db, clients, 500*time.Millisecond) // the warm-up
			warm := backends()
			plain, txs := loadPool(t, db, clients, time.Second)
			statements := plain + txs
			if after := backends(); !slices.Equal(after, warm) {
				t.Errorf("the pool's sessions were %v after the warm-up, %v after the load", warm, after)
			}
			if len(warm) != size {
				t.Errorf("%d sessions open after the warm-up, want the pool's %d", len(warm), size)
			}
			_ = db.Close()
			for deadline := time.Now().Add(5 * time.Second); len(backends()) > 0 && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			// A session is counted once it reports its statistics, at the
			// latest as it exits, about when it leaves pg_stat_activity:
			// wait until the count holds.
			opened := sessions() - before
			for range 50 {
				time.Sleep(100 * time.Millisecond)
				n := sessions() - before
				if n == opened {
					break
				}
				opened = n
			}
			t.Logf("%d sessions opened for %d statements of %d clients, %d open after the warm-up",
				opened, statements, clients, len(warm))
			if opened != int64(len(warm)) {
				t.Errorf("%d sessions opened, %d of them after the warm-up (%d statements in 1s), want none after it",
					opened, opened-int64(len(warm)), statements)
			}
		})
	}
}

// loadPool has clients goroutines send statements through db for d, each
// fourth in a transaction (InTx), and returns how many were sent: plain
// ones (plainStatement), and transactions; each must succeed.
func loadPool(t *testing.T, db *sqlx.DB, clients int, d time.Duration) (plain, txs int64) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(d)
	var sent, sentTx atomic.Int64
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				var n int
				count, err := &sent, error(nil)
				if i%4 == 3 {
					count = &sentTx
					err = store.InTx(ctx, db, func(tx *sqlx.Tx) error { return tx.GetContext(ctx, &n, `SELECT $1::int + 1`, c) })
				} else {
					err = db.GetContext(ctx, &n, plainStatement, c)
				}
				if err != nil {
					t.Errorf("client %d, statement %d: %v", c, i, err)
					return
				}
				count.Add(1)
			}
		}()
	}
	wg.Wait()
	return sent.Load(), sentTx.Load()
}

// plainStatement is the statement loadPool sends outside transactions.
const plainStatement = `SELECT $1::int`

// TestStatementsPreparedOncePerConnection: each connection of the pool
// prepares a statement the first time it runs it, then only runs it (pgx's
// cache_statement mode, through database/sql): after 32 clients' load on
// a pool of 16, each connection has the statement prepared once, and the
// runs of the prepared statements on all of them are every statement
// sent. With default_query_exec_mode=exec (for PgBouncer's transaction
// mode) nothing is prepared.
func TestStatementsPreparedOncePerConnection(t *testing.T) {
	url := testservers.Postgres(t)
	for _, mode := range []string{"", "exec"} {
		t.Run("default_query_exec_mode="+mode, func(t *testing.T) {
			const size = 16
			params := fmt.Sprintf("&pool_max_conns=%d", size)
			if mode != "" {
				params += "&default_query_exec_mode=" + mode
			}
			db, err := store.Open(url + params)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			plain, _ := loadPool(t, db, 32, time.Second)
			ctx := context.Background()
			var prepared, runs int64
			for range size { // each connection of the pool, held until all are read
				conn, err := db.Connx(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				var p struct{ N, Runs int64 }
				if err := conn.GetContext(ctx, &p, `SELECT count(*) AS n, coalesce(sum(generic_plans + custom_plans), 0) AS runs
					FROM pg_prepared_statements WHERE statement = $1`, plainStatement); err != nil {
					t.Fatal(err)
				}
				if mode == "" && p.N != 1 {
					t.Errorf("the statement is prepared %d times on a connection, want once", p.N)
				}
				prepared += p.N
				runs += p.Runs
			}
			t.Logf("%d statements sent, %d runs of %d prepared statements", plain, runs, prepared)
			if mode == "" && runs != plain {
				t.Errorf("%d statements sent, %d runs of the connections' prepared statements", plain, runs)
			}
			if mode != "" && prepared != 0 {
				t.Errorf("%d statements prepared in %s mode", prepared, mode)
			}
		})
	}
}
