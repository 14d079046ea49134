package telemetry_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/framework/telemetry"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// poolMetrics is a Telemetry whose metrics an in-memory reader collects.
type poolMetrics struct {
	tel    *telemetry.Telemetry
	reader *sdkmetric.ManualReader
}

func newPoolMetrics(t *testing.T) *poolMetrics {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	return &poolMetrics{tel: telemetry.WithMeterProvider(mp), reader: reader}
}

// open opens dsn with the Telemetry's store options and observes its pool.
func (p *poolMetrics) open(t *testing.T, dsn string) *sqlx.DB {
	t.Helper()
	db, err := store.OpenWith(dsn, p.tel.StoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := p.tel.ObservePool(db.DB); err != nil {
		t.Fatal(err)
	}
	return db
}

// collect returns the db.sql.connection.* data points of every scope,
// by name and, for db.sql.connection.open, status
// ("db.sql.connection.open{status=idle}"); its second result is the
// scope of db.sql.connection.open.
func (p *poolMetrics) collect(t *testing.T) (map[string]float64, string) {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := p.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	var scope string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if !strings.HasPrefix(m.Name, "db.sql.connection.") {
				continue
			}
			if m.Name == "db.sql.connection.open" {
				scope = sm.Scope.Name
			}
			add := func(attrs attribute.Set, v float64) {
				key := m.Name
				if s, ok := attrs.Value("status"); ok {
					key += "{status=" + s.AsString() + "}"
				}
				if _, dup := got[key]; dup {
					t.Errorf("%s reported twice", key)
				}
				got[key] = v
			}
			switch d := m.Data.(type) {
			case metricdata.Gauge[int64]:
				for _, dp := range d.DataPoints {
					add(dp.Attributes, float64(dp.Value))
				}
			case metricdata.Sum[int64]:
				if !d.IsMonotonic || d.Temporality != metricdata.CumulativeTemporality {
					t.Errorf("%s is not a cumulative counter", m.Name)
				}
				for _, dp := range d.DataPoints {
					add(dp.Attributes, float64(dp.Value))
				}
			case metricdata.Sum[float64]:
				if !d.IsMonotonic || d.Temporality != metricdata.CumulativeTemporality {
					t.Errorf("%s is not a cumulative counter", m.Name)
				}
				for _, dp := range d.DataPoints {
					add(dp.Attributes, dp.Value)
				}
			default:
				t.Errorf("%s: unexpected data %T", m.Name, m.Data)
			}
		}
	}
	return got, scope
}

// show formats the metrics for a failure's message.
func show(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %s = %v", k, m[k])
	}
	return b.String()
}

// The names of the pool's metrics.
const (
	open         = "db.sql.connection.open"
	idle         = open + "{status=idle}"
	inUse        = open + "{status=inuse}"
	maxOpen      = "db.sql.connection.max_open"
	wait         = "db.sql.connection.wait"
	waitDuration = "db.sql.connection.wait_duration"
	closedIdle   = "db.sql.connection.closed_max_idle"
	closedIdleT  = "db.sql.connection.closed_max_idle_time"
	closedLife   = "db.sql.connection.closed_max_lifetime"
	acquires     = "db.sql.connection.acquire"
	acquireTime  = "db.sql.connection.acquire_duration"
	canceled     = "db.sql.connection.acquire_canceled"
	opened       = "db.sql.connection.opened"
)

// TestPoolMetricsOnPostgres: on PostgreSQL the pool's metrics are
// pgxpool's figures, not database/sql's (which keeps no connection idle
// and counts no wait, pgxpool holding the connections): the warm pool's
// connections are idle between operations, a transaction's connection
// is in use while it is held, an operation that finds every connection
// taken is counted as a wait, with its time, once it gets one, and as a
// canceled acquire when its context ends first; the pool opened its
// connections once.
func TestPoolMetricsOnPostgres(t *testing.T) {
	p := newPoolMetrics(t)
	db := p.open(t, testservers.Postgres(t)+"&pool_max_conns=2&pool_acquire_timeout=10s")
	ctx := context.Background()
	begin := func() *sqlx.Tx {
		t.Helper()
		tx, err := db.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
		return tx
	}
	commit := func(tx *sqlx.Tx) {
		t.Helper()
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(m map[string]float64, what string, want map[string]float64) {
		t.Helper()
		for k, v := range want {
			if got, ok := m[k]; !ok || got != v {
				t.Errorf("%s: %s = %v (reported: %v), want %v; all:%s", what, k, got, ok, v, show(m))
			}
		}
	}

	// The warm-up: both connections opened, then given back.
	commit1, commit2 := begin(), begin()
	commit(commit1)
	commit(commit2)
	for range 5 {
		if _, err := db.ExecContext(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
	}
	m, scope := p.collect(t)
	if scope != telemetry.ScopeName {
		t.Errorf("%s is reported in scope %q, want %q", open, scope, telemetry.ScopeName)
	}
	expect(m, "warm, between operations", map[string]float64{idle: 2, inUse: 0, maxOpen: 2, opened: 2,
		closedIdle: 0, closedIdleT: 0, closedLife: 0, canceled: 0})
	if m[acquires] < 7 {
		t.Errorf("%s = %v after 7 operations", acquires, m[acquires])
	}

	// A transaction holds its connection.
	tx1 := begin()
	m, _ = p.collect(t)
	expect(m, "a transaction held", map[string]float64{idle: 1, inUse: 1})

	// Both connections held: an operation waits for one.
	tx2 := begin()
	m, _ = p.collect(t)
	expect(m, "two transactions held", map[string]float64{idle: 0, inUse: 2})
	waits, waited := m[wait], m[waitDuration]
	done := make(chan error, 1)
	go func() {
		_, err := db.ExecContext(ctx, `SELECT 1`)
		done <- err
	}()
	// database/sql counts the operation's connection as open once it asks
	// the pool for it.
	for deadline := time.Now().Add(5 * time.Second); db.Stats().OpenConnections < 3; {
		if time.Now().After(deadline) {
			t.Fatal("the operation did not ask for a connection")
		}
		time.Sleep(time.Millisecond)
	}
	const held = 100 * time.Millisecond
	time.Sleep(held)
	select {
	case err := <-done:
		t.Fatalf("the operation ran on an exhausted pool: %v", err)
	default:
	}
	commit(tx1)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	m, _ = p.collect(t)
	if m[wait] != waits+1 {
		t.Errorf("%s = %v after an operation waited, want %v", wait, m[wait], waits+1)
	}
	if d := m[waitDuration] - waited; d < float64(held/2)/float64(time.Millisecond) {
		t.Errorf("%s grew by %v ms for a wait of at least %v", waitDuration, d, held)
	}

	// An operation whose context ends while it waits is a canceled acquire.
	tx1 = begin()
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err := db.ExecContext(short, `SELECT 1`)
	cancel()
	if err == nil {
		t.Fatal("an operation ran on an exhausted pool")
	}
	commit(tx1)
	commit(tx2)
	m, _ = p.collect(t)
	expect(m, "after the waits", map[string]float64{idle: 2, inUse: 0, opened: 2, canceled: 1})
}

// TestPoolMetricsCountClosedConnections: on PostgreSQL a connection
// closed past pool_max_conn_lifetime counts in
// db.sql.connection.closed_max_lifetime, one closed idle past
// pool_max_conn_idle_time in ..._max_idle_time, and each new one in
// db.sql.connection.opened.
func TestPoolMetricsCountClosedConnections(t *testing.T) {
	url := testservers.Postgres(t)
	ctx := context.Background()
	t.Run("lifetime", func(t *testing.T) {
		p := newPoolMetrics(t)
		db := p.open(t, url+"&pool_max_conns=1&pool_max_conn_lifetime=100ms")
		time.Sleep(150 * time.Millisecond)
		if _, err := db.ExecContext(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
		m, _ := p.collect(t)
		if m[closedLife] < 1 || m[opened] < 2 {
			t.Errorf("a connection past its lifetime replaced: %s", show(m))
		}
	})
	t.Run("idle_time", func(t *testing.T) {
		p := newPoolMetrics(t)
		p.open(t, url+"&pool_max_conns=1&pool_max_conn_idle_time=50ms&pool_health_check_period=20ms")
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			m, _ := p.collect(t)
			if m[closedIdleT] >= 1 && m[idle] == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no idle connection closed: %s", show(m))
			}
		}
	})
}

// TestPoolMetricsOnSQLite: an SQLite database's pool is database/sql's,
// reported by otelsql: its connections stay idle between operations.
func TestPoolMetricsOnSQLite(t *testing.T) {
	p := newPoolMetrics(t)
	db := p.open(t, filepath.Join(t.TempDir(), "db.sqlite3"))
	if _, err := db.Exec(`SELECT 1`); err != nil {
		t.Fatal(err)
	}
	m, scope := p.collect(t)
	if m[idle] < 1 || m[inUse] != 0 || m[maxOpen] != float64(2*runtime.NumCPU()+2) {
		t.Errorf("SQLite's pool: %s", show(m))
	}
	if scope == telemetry.ScopeName {
		t.Errorf("SQLite's pool is reported in scope %q, want otelsql's", scope)
	}
	if _, ok := m[opened]; ok {
		t.Errorf("SQLite's pool reports pgxpool's %s", opened)
	}
}
