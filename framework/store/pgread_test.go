package store_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// readAll runs q, of n columns, through db's Reader and returns its
// rows' values.
func readAll(ctx context.Context, db *sqlx.DB, n int, q string, args ...any) ([][]any, error) {
	rows, err := store.ReaderOf(db).Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var all [][]any
	for rows.Next() {
		row := make([]any, n)
		dest := make([]any, n)
		for i := range row {
			dest[i] = &row[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		all = append(all, row)
	}
	return all, rows.Err()
}

// sqlAll runs q through database/sql and returns its rows' values.
func sqlAll(t *testing.T, db *sqlx.DB, q string, args ...any) [][]any {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var all [][]any
	for rows.Next() {
		row := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range row {
			dest[i] = &row[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		all = append(all, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return all
}

// TestReaderValuesAreDatabaseSQLs: the Reader reads every type into the
// Go value that database/sql reads through pgx's driver (int64 for every
// integer, float64, bool, string for text, numeric and uuid, time.Time,
// []byte, nil), and binds its arguments as that driver does.
func TestReaderValuesAreDatabaseSQLs(t *testing.T) {
	db := openPostgres(t, "")
	if store.ReaderOf(db) == nil {
		t.Fatal("no Reader for a PostgreSQL database")
	}
	// Counters look the Reader up on every count: made once, it costs no
	// allocation.
	if n := testing.AllocsPerRun(100, func() { store.ReaderOf(db) }); n != 0 {
		t.Errorf("ReaderOf: %v allocations, want 0", n)
	}
	const q = `SELECT 1::smallint, 2::integer, 3::bigint, -4::bigint, true, false, 1.5::real, 2.25::double precision,
		'12.50'::numeric, 'text'::text, 'vc'::varchar(10), 'ch'::char(4), 'name'::name,
		'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '2024-02-29'::date, 'infinity'::date,
		'2024-02-29 12:34:56.789'::timestamp, '2024-02-29 12:34:56.789+02'::timestamptz, '-infinity'::timestamptz,
		'\x00ff'::bytea, ''::bytea, '{"a": 1}'::json, '{"a": 1}'::jsonb, 42::oid, '1 day'::interval,
		'10.0.0.1'::inet, ARRAY[1, 2], 'x'::"char", NULL::integer, NULL::text, $1::bigint, $2::text,
		$3::timestamptz, $4::bytea, $5::boolean, $6::double precision, $7::text, $8::integer
		FROM generate_series(1, 3)`
	at := time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)
	args := []any{int64(7), "é", at, []byte{1, 2}, true, 0.5, nil, sql.NullInt64{Int64: 9, Valid: true}}
	want := sqlAll(t, db, q, args...)
	got, err := readAll(context.Background(), db, len(want[0]), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for r := range want {
		if len(got[r]) != len(want[r]) {
			t.Fatalf("row %d: %d columns, want %d", r, len(got[r]), len(want[r]))
		}
		for i := range want[r] {
			if !reflect.DeepEqual(got[r][i], want[r][i]) {
				t.Errorf("row %d column %d: %#v (%T), database/sql reads %#v (%T)", r, i, got[r][i], got[r][i], want[r][i], want[r][i])
			}
		}
	}
	// Typed destinations, as database/sql's Scan.
	rows, err := store.ReaderOf(db).Query(context.Background(), `SELECT 5::integer, 'x', 1.5::float8, true, NULL::text`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var (
		n  int
		s  string
		f  float64
		b  bool
		ns sql.NullString
	)
	if !rows.Next() || rows.Scan(&n, &s, &f, &b, &ns) != nil || n != 5 || s != "x" || f != 1.5 || !b || ns.Valid {
		t.Errorf("typed scan: %v %q %v %v %v", n, s, f, b, ns)
	}
	if err := rows.Scan(&s, &s, &f, &b, &ns); err == nil {
		t.Error("an integer scanned into a string")
	}
	if rows.Next() || rows.Err() != nil {
		t.Errorf("rows after the last: %v", rows.Err())
	}
	// A statement's own failure is its error, not the database's.
	for _, q := range []string{"SELECT nope", "SELECT 'x'::integer"} {
		if _, err := readAll(context.Background(), db, 1, q); err == nil || store.IsUnavailable(err) {
			t.Errorf("%s: %v, want its own error", q, err)
		}
	}
}

// TestReaderTypedReads: Int, Float, Bool, Text and Time read the value
// that Value gives, unboxed, for the columns of their types, and refuse
// (ok false) NULL, a column of another type and an infinite timestamp,
// which Value reads.
func TestReaderTypedReads(t *testing.T) {
	db := openPostgres(t, "")
	ctx := context.Background()
	reads := map[string]func(r *store.Rows, i int) (any, bool){
		"Int":   func(r *store.Rows, i int) (any, bool) { return r.Int(i) },
		"Float": func(r *store.Rows, i int) (any, bool) { return r.Float(i) },
		"Bool":  func(r *store.Rows, i int) (any, bool) { return r.Bool(i) },
		"Text":  func(r *store.Rows, i int) (any, bool) { return r.Text(i) },
		"Time":  func(r *store.Rows, i int) (any, bool) { return r.Time(i) },
	}
	// Each column, and the read that takes it ("" none).
	columns := []struct{ expr, read string }{
		{"-2::smallint", "Int"}, {"-70000::integer", "Int"}, {"9000000000::bigint", "Int"},
		{"1.5::real", "Float"}, {"-2.25::double precision", "Float"},
		{"true", "Bool"}, {"false", "Bool"},
		{"'é'::text", "Text"}, {"'vc'::varchar(10)", "Text"}, {"'ch'::char(4)", "Text"}, {"'name'::name", "Text"},
		{"'12.50'::numeric", "Text"}, {"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid", "Text"},
		{"'2024-02-29 12:34:56.789'::timestamp", "Time"}, {"'2024-02-29 12:34:56.789+02'::timestamptz", "Time"},
		{"'infinity'::timestamptz", ""}, {"'-infinity'::timestamp", ""}, {"'2024-02-29'::date", ""},
		{"'\\x00ff'::bytea", ""}, {"'{}'::jsonb", ""}, {"'1 day'::interval", ""}, {"42::oid", ""},
		{"NULL::integer", ""}, {"NULL::text", ""}, {"NULL::timestamptz", ""}, {"NULL::boolean", ""},
	}
	exprs := make([]string, len(columns))
	for i, c := range columns {
		exprs[i] = c.expr
	}
	q := "SELECT " + strings.Join(exprs, ", ")
	// Twice, so that the second reads through the connection's kept convs.
	for range 2 {
		rows, err := store.ReaderOf(db).Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		if rows.Columns() != len(columns) {
			t.Fatalf("%d columns, want %d", rows.Columns(), len(columns))
		}
		for i, c := range columns {
			v, err := rows.Value(i)
			if err != nil {
				t.Fatalf("%s: %v", c.expr, err)
			}
			for name, read := range reads {
				got, ok := read(rows, i)
				switch {
				case ok != (name == c.read):
					t.Errorf("%s: %s gives ok %v", c.expr, name, ok)
				case !ok:
				case name == "Time":
					if want := v.(time.Time); !got.(time.Time).Equal(want) || got.(time.Time).Location() != time.UTC {
						t.Errorf("%s: Time gives %v, Value %v", c.expr, got, want)
					}
				case got != v:
					t.Errorf("%s: %s gives %#v, Value %#v", c.expr, name, got, v)
				}
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReaderColumnsChangeType: a connection reads a query's columns as
// their types are now, not as its first run found them: after ALTER
// TABLE, an integer column that became text reads as text.
func TestReaderColumnsChangeType(t *testing.T) {
	db := openPostgres(t, "&pool_max_conns=1")
	ctx := context.Background()
	db.MustExec(`CREATE TABLE "altered" ("a" integer)`)
	db.MustExec(`INSERT INTO "altered" VALUES (5)`)
	read := func() (*store.Rows, error) {
		rows, err := store.ReaderOf(db).Query(ctx, `SELECT "a" FROM "altered"`)
		if err == nil && !rows.Next() {
			err = rows.Err()
		}
		return rows, err
	}
	rows, err := read()
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := rows.Int(0); !ok || n != 5 {
		t.Errorf("integer column: Int gives %v, %v", n, ok)
	}
	rows.Close()
	db.MustExec(`ALTER TABLE "altered" ALTER "a" TYPE text`)
	// pgx reports the prepared statement's change once, and prepares it again.
	if rows, err = read(); err != nil {
		rows, err = read()
	}
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if _, ok := rows.Int(0); ok {
		t.Error("text column: Int reads it")
	}
	if s, ok := rows.Text(0); !ok || s != "5" {
		t.Errorf("text column: Text gives %q, %v", s, ok)
	}
	if v, err := rows.Value(0); v != "5" || err != nil {
		t.Errorf("text column: Value gives %#v, %v", v, err)
	}
}

// TestReaderColumnsChangeUnseen: a connection reads a query's columns as
// they are now when they changed while pgx had dropped the statement
// from its cache, so that no run failed: the result formats it asked for
// the old columns are not what it asks for the new ones, whether the
// server applied them to the new columns (one format applies to every
// column) or refused them (two formats for four columns).
func TestReaderColumnsChangeUnseen(t *testing.T) {
	db := openPostgres(t, "&pool_max_conns=1&statement_cache_capacity=1")
	ctx := context.Background()
	read := func(query string) *store.Rows {
		t.Helper()
		rows, err := store.ReaderOf(db).Query(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		if !rows.Next() {
			t.Fatalf("%s: no row: %v", query, rows.Err())
		}
		return rows
	}
	for _, table := range []string{"one", "two"} {
		db.MustExec(`CREATE TABLE "` + table + `" ("a" integer)`)
		db.MustExec(`INSERT INTO "` + table + `" VALUES (5)`)
		if table == "two" {
			db.MustExec(`ALTER TABLE "two" ADD "z" text DEFAULT 'z'`)
		}
		query := `SELECT * FROM "` + table + `"`
		rows := read(query)
		before := rows.Columns()
		rows.Close()
		db.MustExec(`ALTER TABLE "` + table + `" ADD "b" integer DEFAULT 7, ADD "c" text DEFAULT 'x'`)
		read(`SELECT 1`).Close() // pgx's one cached statement now
		rows = read(query)
		if rows.Columns() != before+2 {
			t.Fatalf("%s: %d columns after %d, want %d", table, rows.Columns(), before, before+2)
		}
		a, okA := rows.Int(0)
		b, okB := rows.Int(before)
		c, okC := rows.Text(before + 1)
		if a != 5 || b != 7 || c != "x" || !okA || !okB || !okC {
			t.Errorf("%s: %v %v %q (%v %v %v), want 5 7 \"x\"", table, a, b, c, okA, okB, okC)
		}
		rows.Close()
	}
}

// TestReaderOnlyWhereItTraces: a database opened with Options.OpenDB
// (framework/telemetry's traced pool) and an SQLite one have no Reader.
func TestReaderOnlyWhereItTraces(t *testing.T) {
	db, err := store.OpenWith(testservers.Postgres(t), store.Options{OpenDB: func(c driver.Connector) *sql.DB { return sql.OpenDB(c) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if store.ReaderOf(db) != nil {
		t.Error("a Reader bypasses the pool of Options.OpenDB")
	}
	lite, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	if store.ReaderOf(lite) != nil {
		t.Error("a Reader for SQLite")
	}
}

// TestReaderStatementTimeout: statement_timeout bounds the Reader's
// queries as database/sql's statements: canceled on the server, the
// error ErrUnavailable, the connection serving the next query; the
// caller's own deadline is not the database's fault.
func TestReaderStatementTimeout(t *testing.T) {
	db := openPostgres(t, "&statement_timeout=300&pool_max_conns=1")
	for range 2 {
		start := time.Now()
		_, err := readAll(context.Background(), db, 1, "SELECT pg_sleep(5)")
		if took := time.Since(start); !errors.Is(err, store.ErrUnavailable) || !store.IsUnavailable(err) ||
			took > 300*time.Millisecond+store.CancelGrace+500*time.Millisecond {
			t.Errorf("a query over the timeout ended with %v after %v", err, took)
		}
		got, err := readAll(context.Background(), db, 1, `SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)' AND state = 'active'`)
		if err != nil || got[0][0] != int64(0) {
			t.Errorf("statements still running on the server: %v, %v", got, err)
		}
	}
	// The deadline is per query: quick ones in a row pass it together.
	for range 5 {
		if _, err := readAll(context.Background(), db, 1, "SELECT pg_sleep(0.1)"); err != nil {
			t.Fatal(err)
		}
	}
	db = openPostgres(t, "&statement_timeout=0")
	if _, err := readAll(context.Background(), db, 1, "SELECT pg_sleep(0.4)"); err != nil {
		t.Errorf("statement_timeout=0: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := readAll(ctx, db, 1, "SELECT pg_sleep(5)"); err == nil || store.IsUnavailable(err) {
		t.Errorf("a query past its context's deadline: %v, want the context's error", err)
	}
}

// TestReaderPoolWaitIsBounded: with every connection taken (by open rows
// or a transaction), a query waits pool_acquire_timeout, then fails with
// ErrUnavailable; a connection given back in time is taken; rows read to
// their end give theirs back.
func TestReaderPoolWaitIsBounded(t *testing.T) {
	db := openPostgres(t, "&pool_max_conns=2&pool_acquire_timeout=300ms")
	r := store.ReaderOf(db)
	tx, err := db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	held, err := r.Query(context.Background(), "SELECT generate_series(1, 10)")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = readAll(context.Background(), db, 1, "SELECT 1")
	if took := time.Since(start); !store.IsUnavailable(err) || took < 300*time.Millisecond || took > time.Second {
		t.Errorf("a query with the pool taken: %v after %v, want ErrUnavailable after 300ms", err, took)
	}
	time.AfterFunc(100*time.Millisecond, func() { _ = held.Close() })
	if _, err := readAll(context.Background(), db, 1, "SELECT 1"); err != nil {
		t.Errorf("a connection given back within the wait was not taken: %v", err)
	}
	_ = tx.Rollback()
	for range 3 { // more than the pool's connections
		if _, err := readAll(context.Background(), db, 1, "SELECT generate_series(1, 3)"); err != nil {
			t.Fatal(err)
		}
	}
	if s, _ := store.PoolStatsOf(db.DB); s.AcquiredConns != 0 {
		t.Errorf("%d connections still held after every query's rows were read", s.AcquiredConns)
	}
}

// TestReaderSurvivesEndedSessions: when the server ends every connection
// of the pool, the Reader's next queries are sent on new connections
// instead of failing.
func TestReaderSurvivesEndedSessions(t *testing.T) {
	url := testservers.Postgres(t)
	db, err := store.Open(url + "&pool_max_conns=4")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := readAll(context.Background(), db, 1, `SELECT pg_sleep(0.05)`); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	admin, err := store.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var ended int
	if err := admin.Get(&ended, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() ) s`); err != nil || ended < 2 {
		t.Fatalf("ended %d connections, %v", ended, err)
	}
	time.Sleep(100 * time.Millisecond)
	for i := range 8 {
		got, err := readAll(context.Background(), db, 1, `SELECT $1::integer`, i)
		if err != nil || got[0][0] != int64(i) {
			t.Fatalf("query %d after the connections were lost: %v, %v", i, got, err)
		}
	}
}

// TestReaderFrozenServer: a server that stops answering fails each query
// with ErrUnavailable within statement_timeout plus CancelGrace, on a
// connection used a moment ago or one idle long enough to be pinged
// first; a stopped server's refusals are attempted again within
// pool_acquire_timeout, and the Reader serves again once it is back.
func TestReaderFrozenServer(t *testing.T) {
	server := testservers.StartPostgres(t)
	const timeout = 500 * time.Millisecond
	db, err := store.Open(server.Database(t) + "&statement_timeout=500&pool_acquire_timeout=500ms")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := readAll(context.Background(), db, 1, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	server.Freeze(t)
	defer server.Thaw(t)
	for _, idle := range []time.Duration{0, 1200 * time.Millisecond} {
		time.Sleep(idle)
		start := time.Now()
		_, err := readAll(context.Background(), db, 1, "SELECT 1")
		if took := time.Since(start); !store.IsUnavailable(err) || took > timeout+store.CancelGrace+time.Second {
			t.Errorf("idle %v: a query to the frozen server: %v after %v, want it unavailable within %v",
				idle, err, took, timeout+store.CancelGrace)
		}
	}
	server.Thaw(t)
	if _, err := readAll(context.Background(), db, 1, "SELECT 1"); err != nil {
		t.Errorf("after the server went on: %v", err)
	}
	patient, err := store.Open(server.Database(t) + "&pool_acquire_timeout=20s")
	if err != nil {
		t.Fatal(err)
	}
	defer patient.Close()
	server.Stop(t)
	if _, err := readAll(context.Background(), db, 1, "SELECT 1"); !store.IsUnavailable(err) {
		t.Errorf("a query to a stopped server: %v, want it unavailable", err)
	}
	started := make(chan struct{})
	go func() {
		defer close(started)
		time.Sleep(300 * time.Millisecond)
		server.Start(t)
	}()
	if _, err := readAll(context.Background(), patient, 1, "SELECT 1"); err != nil {
		t.Errorf("a query sent while the server started: %v", err)
	}
	<-started
}
