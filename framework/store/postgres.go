package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
)

// PostgresDriverName is the database/sql driver of PostgreSQL databases:
// pgx's.
const PostgresDriverName = "pgx"

// Defaults of a PostgreSQL database's URL parameters.
const (
	// DefaultStatementTimeout bounds every statement (statement_timeout),
	// so that a runaway query cannot hold a connection for ever.
	DefaultStatementTimeout = 30 * time.Second
	// DefaultConnectTimeout bounds the opening of a connection (connect_timeout).
	DefaultConnectTimeout = 5 * time.Second
	// DefaultMaxConnLifetime is how long a connection is reused
	// (pool_max_conn_lifetime), so that the pool follows a fail-over.
	DefaultMaxConnLifetime = time.Hour
	// DefaultMaxConnIdleTime is how long an unused connection is kept
	// (pool_max_conn_idle_time).
	DefaultMaxConnIdleTime = 30 * time.Minute
)

// DefaultMaxConns is the pool size of a PostgreSQL database when the URL
// gives no pool_max_conns: 2×NumCPU+2, as for an SQLite file.
func DefaultMaxConns() int { return 2*runtime.NumCPU() + 2 }

// openPostgres opens and pings the PostgreSQL database of a postgres:// or
// postgresql:// URL, through pgx. The URL takes libpq's parameters (host,
// sslmode, application_name, ...), PostgreSQL settings (statement_timeout,
// lock_timeout, ...), and these of the pool:
//
//   - pool_max_conns: the most connections open at once (DefaultMaxConns);
//     all of them may be idle;
//   - pool_max_conn_lifetime: a duration ("1h"), DefaultMaxConnLifetime;
//   - pool_max_conn_idle_time: a duration ("30m"), DefaultMaxConnIdleTime.
//
// statement_timeout defaults to DefaultStatementTimeout and connect_timeout
// to DefaultConnectTimeout. Every session runs in UTC (TimeZone), as
// Django's with USE_TZ, so that the text times FormatTime binds are read as
// UTC. Each connection caches its prepared statements (pgx's default).
// A statement outside a transaction that finds its connection broken
// before it was sent, or its session ended by the server (a restart, a
// fail-over), is sent again on a new connection by database/sql; nothing
// else is retried here (see InTx).
func openPostgres(dsn string) (*sqlx.DB, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: bad PostgreSQL URL: %v", redactURLError(err))
	}
	shown := u.Redacted()
	fail := func(err error) error { return fmt.Errorf("store: open %s: %w", shown, err) }
	q := u.Query()
	maxConns := DefaultMaxConns()
	if v := q.Get("pool_max_conns"); v != "" {
		if maxConns, err = strconv.Atoi(v); err != nil || maxConns < 1 {
			return nil, fail(fmt.Errorf("pool_max_conns=%q is not a positive number", v))
		}
	}
	lifetime, err := durationParam(q, "pool_max_conn_lifetime", DefaultMaxConnLifetime)
	if err != nil {
		return nil, fail(err)
	}
	idle, err := durationParam(q, "pool_max_conn_idle_time", DefaultMaxConnIdleTime)
	if err != nil {
		return nil, fail(err)
	}
	for _, name := range []string{"pool_max_conns", "pool_max_conn_lifetime", "pool_max_conn_idle_time"} {
		q.Del(name)
	}
	if !q.Has("statement_timeout") {
		q.Set("statement_timeout", strconv.FormatInt(DefaultStatementTimeout.Milliseconds(), 10))
	}
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", strconv.Itoa(int(DefaultConnectTimeout.Seconds())))
	}
	q.Del("timezone")
	q.Del("TimeZone")
	u.RawQuery = q.Encode()
	config, err := pgx.ParseConfig(u.String())
	if err != nil {
		return nil, fail(err)
	}
	config.RuntimeParams["timezone"] = "UTC"
	db := sqlx.NewDb(sql.OpenDB(reconnector{stdlib.GetConnector(*config)}), PostgresDriverName)
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxLifetime(lifetime)
	db.SetConnMaxIdleTime(idle)
	ctx, cancel := context.WithTimeout(context.Background(), 2*DefaultConnectTimeout)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fail(err)
	}
	return db, nil
}

// durationParam reads the duration parameter name of q, def when absent.
func durationParam(q url.Values, name string, def time.Duration) (time.Duration, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q is not a duration such as 30m", name, v)
	}
	return d, nil
}

// redactURLError returns err without the URL it quotes, which may hold a
// password.
func redactURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
