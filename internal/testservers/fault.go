package testservers

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// PostgresFault is a fresh database of the package's PostgreSQL cluster
// that a test takes away at a chosen moment of a write: PostgreSQL then
// refuses new connections to it and ends every session on it, as when
// the server restarts or has no connection to spare. Only the moment is
// seen through the driver; the refusals are PostgreSQL's own.
type PostgresFault struct {
	// DB is the database, opened through pgx with sessions in UTC, as
	// store.Open opens it.
	DB *sqlx.DB

	name    string
	mu      sync.Mutex
	armed   moment
	tripped bool  // the database was taken away since the fault was armed
	tripErr error // of taking it away
	trips   int   // how often the database was taken away
}

// moment is when an armed PostgresFault takes the database away.
type moment uint8

const (
	never        moment = iota
	afterWrite          // once a write statement has run, committed or not
	afterCommit         // once a write statement is committed
	duringCommit        // as the COMMIT of a write is answered
)

// FaultyPostgres returns a new database of the package's cluster (see
// Postgres), closed and let in again when t ends.
func FaultyPostgres(t testing.TB) *PostgresFault {
	t.Helper()
	config, err := pgx.ParseConfig(Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	config.RuntimeParams["timezone"] = "UTC"
	f := &PostgresFault{name: config.Database}
	f.DB = sqlx.NewDb(sql.OpenDB(faultConnector{stdlib.GetConnector(*config), f}), store.PostgresDriverName)
	t.Cleanup(func() {
		_ = f.DB.Close()
		f.Restore(t)
	})
	return f
}

// AfterWrite arms the fault: the database is taken away as soon as the
// next INSERT, UPDATE or DELETE has run, inside its transaction if it is
// in one (so that the transaction is lost), else once it is committed.
func (f *PostgresFault) AfterWrite() { f.arm(afterWrite) }

// AfterCommit arms the fault: the database is taken away as soon as the
// next INSERT, UPDATE or DELETE is committed, by the statement itself
// outside a transaction or by its transaction's COMMIT.
func (f *PostgresFault) AfterCommit() { f.arm(afterCommit) }

// DuringCommit arms the fault for the next COMMIT of a transaction that
// wrote: the transaction is committed, then its session is ended before
// the client reads the answer, so that the client is told what
// PostgreSQL tells it then, 57P01 "terminating connection due to
// administrator command", and cannot know that it committed. The
// database is not taken away: new connections are let in.
func (f *PostgresFault) DuringCommit() { f.arm(duringCommit) }

func (f *PostgresFault) arm(m moment) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.armed, f.tripped = m, false
}

// Tripped reports whether the armed fault took the database away since
// it was armed, failing t if taking it away failed.
func (f *PostgresFault) Tripped(t testing.TB) bool {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tripErr != nil {
		t.Fatalf("testservers: take the database away: %v", f.tripErr)
	}
	return f.tripped
}

// Restore disarms the fault and lets connections in again; the pool's
// connections from before are ended sessions, which the pool replaces.
func (f *PostgresFault) Restore(t testing.TB) {
	t.Helper()
	f.mu.Lock()
	f.armed = never
	f.mu.Unlock()
	if err := postgres.server.psql("postgres", `ALTER DATABASE "`+f.name+`" ALLOW_CONNECTIONS true`); err != nil {
		t.Fatalf("testservers: let connections in again: %v", err)
	}
}

// reached is called when a connection reaches moment m, and reports
// whether the fault was armed for m: then the database's sessions are
// ended, and it is taken away unless m is duringCommit.
func (f *PostgresFault) reached(m moment) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.armed != m {
		return false
	}
	f.armed, f.tripped = never, true
	f.trips++
	refuse := ""
	if m != duringCommit {
		refuse = `ALTER DATABASE "` + f.name + `" ALLOW_CONNECTIONS false; `
	}
	// pg_terminate_backend waits (up to 10 s) for each session to end, so
	// that the next statement on any of them fails.
	f.tripErr = postgres.server.psql("postgres", refuse+
		`SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '`+f.name+`'`)
	return true
}

// generation is how often the database was taken away so far.
func (f *PostgresFault) generation() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.trips
}

type faultConnector struct {
	driver.Connector
	f *PostgresFault
}

func (c faultConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &faultConn{Conn: conn.(*stdlib.Conn), f: c.f, gen: c.f.generation()}, nil
}

// faultConn is a pgx connection (with all its optional interfaces) that
// tells its PostgresFault when a write has run and when it is committed.
type faultConn struct {
	*stdlib.Conn
	f     *PostgresFault
	gen   int  // the fault's generation when the connection was made
	inTx  bool // a transaction is open
	wrote bool // a write ran in the open transaction
}

// ResetSession refuses the connection once the database was taken away
// after it was made: its session has ended.
func (c *faultConn) ResetSession(ctx context.Context) error {
	if c.f.generation() != c.gen {
		return driver.ErrBadConn
	}
	return c.Conn.ResetSession(ctx)
}

func (c *faultConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.inTx = true
	return &faultTx{Tx: tx, c: c}, nil
}

func (c *faultConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	res, err := c.Conn.ExecContext(ctx, query, args)
	if err == nil && isWrite(query) {
		c.written()
	}
	return res, err
}

func (c *faultConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.Conn.QueryContext(ctx, query, args)
	if err != nil || !isWrite(query) {
		return rows, err
	}
	return &faultRows{Rows: rows, c: c}, nil
}

// written is called once a write statement has run on c.
func (c *faultConn) written() {
	if c.inTx {
		c.wrote = true
		c.f.reached(afterWrite)
		return
	}
	c.f.reached(afterWrite)
	c.f.reached(afterCommit)
}

// isWrite reports whether query is an INSERT, UPDATE or DELETE.
func isWrite(query string) bool {
	verb, _, _ := strings.Cut(strings.TrimSpace(query), " ")
	switch strings.ToUpper(verb) {
	case "INSERT", "UPDATE", "DELETE":
		return true
	}
	return false
}

// faultRows are the rows of a write statement (INSERT ... RETURNING),
// which has run once they are closed.
type faultRows struct {
	driver.Rows
	c *faultConn
}

func (r *faultRows) Close() error {
	err := r.Rows.Close()
	if err == nil {
		r.c.written()
	}
	return err
}

type faultTx struct {
	driver.Tx
	c *faultConn
}

func (tx *faultTx) Commit() error {
	err := tx.Tx.Commit()
	wrote := tx.c.wrote
	tx.c.inTx, tx.c.wrote = false, false
	if err == nil && wrote {
		tx.c.f.reached(afterCommit)
		if tx.c.f.reached(duringCommit) {
			return &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}
		}
	}
	return err
}

func (tx *faultTx) Rollback() error {
	tx.c.inTx, tx.c.wrote = false, false
	return tx.Tx.Rollback()
}
