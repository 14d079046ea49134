package store

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

// PostgresDriverName is the database/sql driver of PostgreSQL databases:
// pgx's.
const PostgresDriverName = "pgx"

// Defaults of a PostgreSQL database's URL parameters.
const (
	// defaultStatementTimeout bounds every statement (statement_timeout),
	// so that neither a runaway query nor a server that stopped answering
	// can hold a connection, and the request waiting on it, for ever.
	defaultStatementTimeout = 30 * time.Second
	// DefaultAcquireTimeout bounds the wait for a connection
	// (pool_acquire_timeout): for one of the pool to be free, or for the
	// server to accept a new one.
	DefaultAcquireTimeout = 2 * time.Second
	// defaultConnectTimeout bounds the opening of a connection (connect_timeout).
	defaultConnectTimeout = 5 * time.Second
	// defaultMaxConnLifetime is how long a connection is reused
	// (pool_max_conn_lifetime), so that the pool follows a fail-over.
	defaultMaxConnLifetime = time.Hour
	// defaultMaxConnIdleTime is how long an unused connection is kept
	// (pool_max_conn_idle_time).
	defaultMaxConnIdleTime = 30 * time.Minute
)

// CancelGrace is how long PostgreSQL has, after a statement's deadline,
// to confirm that it canceled the statement before the connection is
// dropped: a server that stopped answering releases its request within
// statement_timeout plus CancelGrace.
const CancelGrace = 500 * time.Millisecond

// DefaultMaxConns is the pool size of a PostgreSQL database when the URL
// gives no pool_max_conns: 2×NumCPU+2, as for an SQLite file.
func DefaultMaxConns() int { return 2*runtime.NumCPU() + 2 }

// openPostgres opens and pings the PostgreSQL database of a postgres:// or
// postgresql:// URL, through pgx's database/sql driver on a pgx pool
// (pgxpool), which keeps the connections open from one operation to the
// next (see connector); database/sql keeps none of its own. The URL takes
// libpq's parameters (host, sslmode, application_name, ...), pgx's
// (default_query_exec_mode), PostgreSQL settings, and these:
//
//   - pool_max_conns: the most connections open at once (DefaultMaxConns);
//     all of them may be idle;
//   - pool_max_conn_lifetime: a duration ("1h"), defaultMaxConnLifetime;
//   - pool_max_conn_idle_time: a duration ("30m"), defaultMaxConnIdleTime;
//     0 is none;
//   - pool_acquire_timeout: a duration ("2s"), DefaultAcquireTimeout: how
//     long an operation that finds no idle connection waits for one (a
//     new one, or one another operation gives back) before failing with
//     ErrUnavailable; a connection the server refuses for a transient
//     reason ("the database system is starting up", "too many clients",
//     refused) is attempted again within that time, and an idle
//     connection's liveness check is bounded by it;
//   - statement_timeout: milliseconds, as PostgreSQL's, or a duration
//     ("30s"), defaultStatementTimeout; 0 is none. It is kept here, by
//     the client, not sent to the server as a startup parameter (which
//     PgBouncer refuses): at the deadline pgx has PostgreSQL cancel the
//     statement, and drops the connection if the server does not answer
//     within CancelGrace; the error wraps ErrUnavailable.
//
// connect_timeout defaults to defaultConnectTimeout, and is at most
// pool_acquire_timeout (no operation waits longer). Every session runs
// in UTC (TimeZone, a startup parameter that PgBouncer carries), as
// Django's with USE_TZ, so that the text times FormatTime binds are read
// as UTC. Each connection caches its prepared statements (pgx's default
// mode, cache_statement: a statement is prepared, and planned, once per
// connection, then only run); behind PgBouncer in transaction pooling
// mode, which cannot keep them, add default_query_exec_mode=exec
// (docs/scaling.md). A statement outside a transaction that finds its
// connection broken before it was sent, or its session ended by the
// server (a restart, a fail-over), is sent again on another connection by
// database/sql; nothing else is retried here (see InTx).
func openPostgres(dsn string, o Options) (*sqlx.DB, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("store: bad PostgreSQL URL: %v", redactURLError(err))
	}
	shown := u.Redacted()
	fail := func(err error) error { return fmt.Errorf("store: open %s: %w", shown, err) }
	q := u.Query()
	maxConns := int64(DefaultMaxConns())
	if v := q.Get("pool_max_conns"); v != "" {
		if maxConns, err = strconv.ParseInt(v, 10, 32); err != nil || maxConns < 1 {
			return nil, fail(fmt.Errorf("pool_max_conns=%q is not a positive number", v))
		}
	}
	var durations [3]time.Duration
	for i, p := range []struct {
		name string
		def  time.Duration
	}{{"pool_max_conn_lifetime", defaultMaxConnLifetime}, {"pool_max_conn_idle_time", defaultMaxConnIdleTime},
		{"pool_acquire_timeout", DefaultAcquireTimeout}} {
		if durations[i], err = durationParam(q, p.name, p.def); err != nil {
			return nil, fail(err)
		}
	}
	lifetime, idle, acquire := durations[0], durations[1], durations[2]
	statement, err := statementTimeout(q)
	if err != nil {
		return nil, fail(err)
	}
	for _, name := range []string{"pool_max_conns", "pool_max_conn_lifetime", "pool_max_conn_idle_time",
		"pool_acquire_timeout", "statement_timeout", "timezone", "TimeZone"} {
		q.Del(name)
	}
	if !q.Has("connect_timeout") {
		q.Set("connect_timeout", strconv.Itoa(int(defaultConnectTimeout.Seconds())))
	}
	u.RawQuery = q.Encode()
	config, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, fail(err)
	}
	config.ConnConfig.RuntimeParams["timezone"] = "UTC"
	config.ConnConfig.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: CancelGrace}
	}
	config.MaxConns, config.MaxConnLifetime, config.MaxConnIdleTime = int32(maxConns), lifetime, idle
	if idle == 0 {
		config.MaxConnIdleTime = math.MaxInt64 // none, as database/sql's 0
	}
	connector, err := newConnector(config, acquire, statement)
	if err != nil {
		return nil, fail(err)
	}
	connector.traced = o.OpenDB != nil
	db := sqlx.NewDb(o.openDB(connector), PostgresDriverName)
	db.SetMaxIdleConns(0) // the pool keeps them
	ctx, cancel := context.WithTimeout(context.Background(), 2*defaultConnectTimeout)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fail(err)
	}
	pools.Store(db.DB, connector) // for PoolStatsOf and ReaderOf
	return db, nil
}

// statementTimeout reads the statement_timeout parameter of q: a number
// of milliseconds, as PostgreSQL reads it, or a duration.
func statementTimeout(q url.Values) (time.Duration, error) {
	v := q.Get("statement_timeout")
	if v == "" {
		return defaultStatementTimeout, nil
	}
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond, nil
	}
	return durationParam(q, "statement_timeout", 0)
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
