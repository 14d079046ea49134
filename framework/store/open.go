package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"regexp"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Dialect is the SQL dialect of a database.
type Dialect uint8

// The dialects Open supports.
const (
	SQLite Dialect = iota + 1
	PostgreSQL
)

// String returns "sqlite" or "postgresql".
func (d Dialect) String() string {
	switch d {
	case SQLite:
		return "sqlite"
	case PostgreSQL:
		return "postgresql"
	}
	return "unknown"
}

// LookupParam is the placeholder that compares a column with a value in a
// statement that joins tables. SQLite gets "+?": the same value, with no
// affinity as a bare parameter has, so it compares the same way and uses
// the same index; but SQLite re-plans a join's statement on every run when
// a column is compared with a bare parameter (it marks the parameter as
// one the plan may depend on, and the driver clears the bindings after
// each run), which for a one-row lookup costs more than the lookup.
// PostgreSQL gets "?", which it types by the column.
func (d Dialect) LookupParam() string {
	if d == PostgreSQL {
		return "?"
	}
	return "+?"
}

// Lookup is a statement that finds rows by one value, which its text ends
// comparing with (`... WHERE t."key" = `), completed with each dialect's
// LookupParam and bound for it once, at setup.
type Lookup [PostgreSQL + 1]string

// NewLookup returns the Lookup of prefix, a statement written with "?"
// placeholders up to its final comparison.
func NewLookup(prefix string) Lookup {
	var l Lookup
	l[SQLite] = prefix + SQLite.LookupParam()
	l[PostgreSQL] = sqlx.Rebind(sqlx.DOLLAR, prefix+PostgreSQL.LookupParam())
	return l
}

// For returns the statement in the dialect of db, a *sqlx.DB or *sqlx.Tx.
func (l *Lookup) For(db interface{ DriverName() string }) string { return l[DialectOf(db)] }

// DialectOf returns the dialect of db, a *sqlx.DB or *sqlx.Tx, by its
// driver: PostgreSQL for PostgresDriverName, SQLite otherwise.
func DialectOf(db interface{ DriverName() string }) Dialect {
	if db.DriverName() == PostgresDriverName {
		return PostgreSQL
	}
	return SQLite
}

// urlScheme matches the scheme of a URL ("postgres://"), which a file path
// or an SQLite "file:" URI does not have.
var urlScheme = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://`)

// Open opens and pings the database that dsn names, as dj-database-url
// reads a DATABASE_URL:
//
//   - "postgres://user:password@host:port/name?param=value" or
//     "postgresql://...": PostgreSQL (see the PostgreSQL section of
//     openPostgres's parameters: pool_max_conns, statement_timeout, ...);
//   - "sqlite:///db.sqlite3": the SQLite file db.sqlite3, relative to the
//     working directory; "sqlite:////var/lib/app/db.sqlite3": an absolute
//     path; "sqlite://" or "sqlite://:memory:": a fresh in-memory database;
//   - without a scheme, an SQLite path ("db.sqlite3", "/abs/db.sqlite3"),
//     an SQLite URI ("file:db.sqlite3?mode=rwc") or ":memory:".
//
// Any other scheme is an error that names the supported ones.
func Open(dsn string) (*sqlx.DB, error) { return OpenWith(dsn, Options{}) }

// Options are what OpenWith adds to Open.
type Options struct {
	// OpenDB makes the pool of the database's connector; nil gives
	// sql.OpenDB. framework/telemetry's traces every statement.
	OpenDB func(driver.Connector) *sql.DB
}

// OpenWith is Open with o.
func OpenWith(dsn string, o Options) (*sqlx.DB, error) {
	m := urlScheme.FindStringSubmatch(dsn)
	if m == nil {
		return openSQLite(dsn, o)
	}
	switch strings.ToLower(m[1]) {
	case "postgres", "postgresql":
		return openPostgres(dsn, o)
	case "sqlite":
		path, err := sqliteURLPath(dsn)
		if err != nil {
			return nil, err
		}
		return openSQLite(path, o)
	}
	return nil, fmt.Errorf("store: unsupported database URL scheme %q: use sqlite:///relative/path, "+
		"sqlite:////absolute/path, postgres:// or postgresql://", m[1])
}

// openDB is o.OpenDB, else sql.OpenDB.
func (o Options) openDB(c driver.Connector) *sql.DB {
	if o.OpenDB == nil {
		return sql.OpenDB(c)
	}
	return o.OpenDB(c)
}

// dsnConnector connects with a driver that has no connector of its own.
type dsnConnector struct {
	dsn string
	drv driver.Driver
}

// Connect opens a connection to the dsn.
func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }

// Driver returns the driver.
func (c dsnConnector) Driver() driver.Driver { return c.drv }

// sqliteURLPath is the file of an sqlite:// URL, read as dj-database-url
// reads it: the path after the third slash, so "sqlite:///db.sqlite3" is
// relative and "sqlite:////abs/db.sqlite3" absolute.
func sqliteURLPath(dsn string) (string, error) {
	rest := dsn[len("sqlite://"):]
	switch rest {
	case "", ":memory:", "/:memory:":
		return ":memory:", nil
	}
	if !strings.HasPrefix(rest, "/") {
		return "", fmt.Errorf("store: database URL %q has a host: use sqlite:///relative/path or sqlite:////absolute/path", dsn)
	}
	if rest == "/" {
		return "", fmt.Errorf("store: database URL %q names no file", dsn)
	}
	return rest[1:], nil
}
