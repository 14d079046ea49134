// Package store opens the project's database, SQLite or PostgreSQL, chosen
// by a DATABASE_URL, and applies schema migrations recorded the way Django
// records them, so a database created by Django can be served as is and
// vice versa.
package store

import (
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
)

// DriverName is the database/sql driver of SQLite databases.
const DriverName = "sqlite3"

// busyTimeout is how long a connection waits for another writer's lock
// before failing with SQLITE_BUSY.
const busyTimeout = 5 * time.Second

// StatementCache is how many prepared statements each connection keeps
// for reuse, so that the queries a server repeats are parsed once per
// connection rather than once per request.
const StatementCache = 64

// memoryDBs numbers the in-memory databases so that each Open(":memory:")
// gets a database of its own.
var memoryDBs atomic.Uint64

// openSQLite opens and pings the SQLite database named by dsn, which may
// be a plain path ("db.sqlite3", "/var/lib/app/db.sqlite3"), an SQLite URI
// ("file:db.sqlite3?mode=rwc") or ":memory:", a fresh in-memory database.
//
// Every connection gets a busy timeout of 5 s, foreign keys on,
// "BEGIN IMMEDIATE" transactions, so a write transaction takes the write lock
// when it starts instead of failing with SQLITE_BUSY when it first writes,
// and a cache of StatementCache prepared statements.
// File databases use the WAL journal and a pool of 2×NumCPU+2 connections
// (WAL lets readers run beside the single writer), with synchronous=FULL:
// each commit is synced to disk before it is acknowledged, so a power loss
// loses no acknowledged write. A file: URI may choose NORMAL instead
// ("file:db.sqlite3?_synchronous=NORMAL"): faster commits, durable across
// a crash of the process but not of the machine (docs/performance.md). An in-memory database is a
// named shared-cache database held by exactly one connection, so it lives as
// long as the pool and all work on it is serialised; do not use the *sqlx.DB
// while holding one of its transactions.
func openSQLite(dsn string, o Options) (*sqlx.DB, error) {
	path, memory, err := resolve(dsn)
	if err != nil {
		return nil, err
	}
	params := []string{
		fmt.Sprintf("_busy_timeout=%d", busyTimeout.Milliseconds()),
		"_foreign_keys=1",
		"_txlock=immediate",
		fmt.Sprintf("_stmt_cache_size=%d", StatementCache),
	}
	if !memory {
		params = append(params, "_journal_mode=WAL")
		if _, query, _ := strings.Cut(path, "?"); !hasParam(query, "_synchronous", "_sync") {
			params = append(params, "_synchronous=FULL")
		}
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	drv, err := sqliteDriver()
	if err != nil {
		return nil, err
	}
	db := sqlx.NewDb(o.openDB(dsnConnector{path + sep + strings.Join(params, "&"), drv}), DriverName)
	if memory {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
	} else {
		n := 2*runtime.NumCPU() + 2
		db.SetMaxOpenConns(n)
		db.SetMaxIdleConns(n)
	}
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: open %q: %w", dsn, err)
	}
	return db, nil
}

// resolve turns a dsn into what go-sqlite3 opens, and reports whether it is
// an in-memory database.
func resolve(dsn string) (path string, memory bool, err error) {
	if dsn == "" {
		return "", false, errors.New("store: empty database name")
	}
	if dsn == ":memory:" {
		return fmt.Sprintf("file:memdb%d?mode=memory&cache=shared", memoryDBs.Add(1)), true, nil
	}
	if strings.HasPrefix(dsn, "file:") {
		if _, query, ok := strings.Cut(dsn, "?"); ok {
			q, err := url.ParseQuery(query)
			if err != nil {
				return "", false, fmt.Errorf("store: bad parameters in %q: %w", dsn, err)
			}
			memory = q.Get("mode") == "memory"
		}
		return dsn, memory || strings.HasPrefix(dsn, "file::memory:"), nil
	}
	// A plain path: go-sqlite3 opens it verbatim, dropping what follows "?",
	// which is where our parameters go.
	if strings.Contains(dsn, "?") {
		return "", false, fmt.Errorf("store: path %q contains '?': use a file: URI", dsn)
	}
	return dsn, false, nil
}

// hasParam reports whether the query string holds one of the names.
func hasParam(query string, names ...string) bool {
	q, _ := url.ParseQuery(query)
	for _, n := range names {
		if _, ok := q[n]; ok {
			return true
		}
	}
	return false
}

// FormatTime renders t the way Django stores datetimes on SQLite: in UTC,
// to the microsecond, "2006-01-02 15:04:05.123456" (or "2006-01-02 15:04:05"
// when the microseconds are zero). Bind it instead of a time.Time so that
// rows written by Go and by Django sort and compare alike. go-sqlite3 reads
// either form back into a time.Time for columns declared datetime.
func FormatTime(t time.Time) string {
	t = t.UTC().Truncate(time.Microsecond)
	if t.Nanosecond() == 0 {
		return t.Format(time.DateTime)
	}
	return t.Format("2006-01-02 15:04:05.000000")
}
