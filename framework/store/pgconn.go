package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// ErrUnavailable is wrapped by the errors of a database that cannot
// serve a statement now: no connection could be had within the pool's
// acquire timeout (the pool exhausted, the server down, starting up,
// shutting down or out of connections), or the server did not answer a
// statement within its statement timeout. The request that met it may
// succeed later; the framework answers it 503 (see IsUnavailable).
var ErrUnavailable = errors.New("store: database unavailable")

// PostgreSQL's SQLSTATEs of a session the server ended (a restart, a
// fail-over, pg_terminate_backend: the statement that gets one was not
// carried out, and a new connection may succeed), and of a connection
// refused for want of a slot.
const (
	pgAdminShutdown    = "57P01"
	pgCrashShutdown    = "57P02"
	pgCannotConnectNow = "57P03"
	pgTooManyClients   = "53300"
)

// transientCode reports whether SQLSTATE code says that the server cannot
// serve now but may soon: it ended the session, is starting up or
// shutting down, has no connection slot free, or the connection failed
// (class 08, as a pooler reports a server it cannot reach).
func transientCode(code string) bool {
	switch code {
	case pgAdminShutdown, pgCrashShutdown, pgCannotConnectNow, pgTooManyClients:
		return true
	}
	return strings.HasPrefix(code, "08")
}

// isSessionEnded reports whether err says the server ended the session.
func isSessionEnded(err error) bool {
	switch pgCode(err) {
	case pgAdminShutdown, pgCrashShutdown, pgCannotConnectNow:
		return true
	}
	return false
}

// IsUnavailable reports whether err says that the database could not
// serve the statement, rather than that the statement failed: it wraps
// ErrUnavailable, or no connection could be made (connection refused,
// "the database system is starting up" or "is shutting down", "sorry, too
// many clients already", a pooler that cannot reach its server), or the
// session was ended or lost while the statement ran. The context errors
// of the caller's own context are not: a request whose client went away
// is no fault of the database.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) {
		return true
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
		return true
	}
	if code := pgCode(err); code != "" {
		return transientCode(code)
	}
	return connLost(err)
}

// connLost reports whether err, which is no server's answer, says that
// the connection was lost.
func connLost(err error) bool {
	_, isNet := errors.AsType[net.Error](err)
	return isNet || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed)
}

// transientConnect reports whether a failed connection attempt may
// succeed if made again shortly: the server refused or dropped it, is
// starting up or shutting down, or has no connection slot free. An
// authentication failure or a missing database is not.
func transientConnect(err error) bool {
	if _, ok := errors.AsType[*pgconn.ConnectError](err); !ok {
		return false
	}
	code := pgCode(err)
	return code == "" || transientCode(code)
}

// connector gives database/sql the connections of a pgx pool, which
// keeps them open between operations: database/sql keeps none idle of its
// own (see openPostgres), so each of its operations takes a connection
// from the pool here and gives it back when done (as Reader's queries
// do). An operation waits at most acquire for one: an idle one, a new one
// while the pool has room, else the first given back (the longest waiting
// operation gets it), so that a request never queues for a connection
// without bound (database/sql, were it to limit them itself, would make
// it wait as long as its context lasts).
//
// The wait is counted by slots, one per connection of the pool: an
// operation that finds one free takes its connection at once (an idle
// one, or a new one whose opening the acquire timeout bounds), with no
// timer; only one that must wait for a slot, or whose connection must be
// pinged or refused it, arms the acquire timeout.
//
// An idle connection is checked before it is taken: one made before the
// server was last found gone is dropped (see pgConn), and one idle for
// over a second is pinged (pgxpool's default), within the acquire
// timeout; one that fails its ping is dropped and another taken, and a
// ping the server does not answer in time fails the operation with
// ErrUnavailable.
type connector struct {
	driver.Connector               // stdlib's connector of pool
	pool             *pgxpool.Pool // the connections
	slots            chan struct{} // one per connection taken, up to the pool's size
	slotWaits        atomic.Int64  // operations that waited for a slot (PoolStats)
	slotWaited       atomic.Int64  // their waits, in nanoseconds
	slotCanceled     atomic.Int64  // operations whose wait ended first
	gen              atomic.Uint64 // bumped when a connection finds the server gone
	acquire          time.Duration // the wait for a connection (pool_acquire_timeout)
	statement        time.Duration // each statement's deadline (statement_timeout); 0 is none
	traced           bool          // opened with Options.OpenDB: no Reader
	reader           Reader        // the pool's Reader (ReaderOf), made once
}

// genKey is the key, in a connection's pgconn.PgConn.CustomData, of the
// connector's generation when the connection was made.
const genKey = "drf.gen"

// stateKey is the key, in a connection's pgconn.PgConn.CustomData, of its
// connState.
const stateKey = "drf.state"

// connState is what a connection of the pool keeps from one operation to
// the next.
type connState struct {
	ping  bool                // idle long enough to be pinged before it is used
	timer *statementTimer     // nil without statement_timeout
	cols  map[string]*columns // the Reader's of each query's result (columnsOf)
}

// stateOf returns the connState of conn.
func stateOf(conn *pgx.Conn) *connState {
	st, _ := conn.PgConn().CustomData()[stateKey].(*connState)
	return st
}

// newConnector returns the connector of a pool of config.
func newConnector(config *pgxpool.Config, acquire, statement time.Duration) (*connector, error) {
	c := &connector{acquire: acquire, statement: statement, slots: make(chan struct{}, config.MaxConns)}
	c.reader.c = c
	config.BeforeConnect = func(_ context.Context, cc *pgx.ConnConfig) error {
		// A connection opened for an operation that did not wait for its
		// slot is bounded by the acquire timeout too.
		if cc.ConnectTimeout == 0 || cc.ConnectTimeout > acquire {
			cc.ConnectTimeout = acquire
		}
		return nil
	}
	config.AfterConnect = func(_ context.Context, conn *pgx.Conn) error {
		st := &connState{}
		if statement > 0 {
			st.timer = newStatementTimer(conn.PgConn(), statement)
		}
		conn.PgConn().CustomData()[genKey] = c.gen.Load()
		conn.PgConn().CustomData()[stateKey] = st
		return nil
	}
	config.PrepareConn = func(_ context.Context, conn *pgx.Conn) (bool, error) {
		return conn.PgConn().CustomData()[genKey] == c.gen.Load(), nil
	}
	config.ShouldPing = func(_ context.Context, p pgxpool.ShouldPingParams) bool {
		// acquire pings it, within the acquire timeout.
		stateOf(p.Conn).ping = p.IdleDuration > time.Second
		return false
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), config)
	if err != nil {
		return nil, err
	}
	c.pool, c.Connector = pool, stdlib.GetPoolConnector(pool)
	return c, nil
}

// connectPause is the first pause before a connection refused for a
// transient reason (transientConnect) is attempted again; each pause
// doubles it up to maxConnectPause, within the acquire timeout, and the
// next attempt takes instead a connection given back meanwhile, if one
// is idle.
const (
	connectPause    = 10 * time.Millisecond
	maxConnectPause = 100 * time.Millisecond
)

// Connect takes a connection from the pool within the acquire timeout
// (see acquire).
func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, _, err := acquire(ctx, c, takeStdlib)
	if err != nil {
		return nil, err
	}
	return &pgConn{Conn: conn, c: c}, nil
}

// pooledConn is a connection of the pool: pgxpool's, or stdlib's over it.
type pooledConn interface {
	*pgxpool.Conn | *stdlib.Conn
	Conn() *pgx.Conn
}

// takePool takes a connection of the pool under ctx.
func takePool(c *connector, ctx context.Context) (*pgxpool.Conn, error) { return c.pool.Acquire(ctx) }

// takeStdlib takes a connection of the pool under ctx, for database/sql.
func takeStdlib(c *connector, ctx context.Context) (*stdlib.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return conn.(*stdlib.Conn), nil
}

// acquire takes a slot and a connection with take within the acquire
// timeout, attempting again after a pause one that the server refused
// for a transient reason, and pinging first one idle for over a second;
// past the timeout the error wraps ErrUnavailable. It returns the
// connection's connState too. The caller gives the slot back (release)
// with the connection.
func acquire[T pooledConn](ctx context.Context, c *connector, take func(*connector, context.Context) (T, error)) (T, *connState, error) {
	var none, pending T // pending: taken at once, to be pinged within the timeout
	var refused error   // the last transient refusal
	select {
	case c.slots <- struct{}{}:
		// A slot at once: the pool has a connection for it, idle or new.
		got, err := take(c, ctx)
		if err == nil {
			if st := stateOf(got.Conn()); !st.ping {
				return got, st, nil
			}
			pending = got
			break
		}
		c.release()
		if !transientConnect(err) {
			return none, nil, c.unavailable(ctx, err, nil)
		}
		refused = err
	default:
	}
	actx, cancel := context.WithTimeout(ctx, c.acquire)
	defer cancel()
	for pause := connectPause; ; {
		got, err := pending, actx.Err()
		pending = none
		if got == none && err == nil {
			if err = c.slot(actx); err == nil {
				if got, err = take(c, actx); err != nil {
					c.release()
				}
			}
		}
		if got != none {
			if alive(actx, got) {
				return got, stateOf(got.Conn()), nil
			}
			c.release()
			continue // another connection, within the timeout
		}
		if actx.Err() == nil && transientConnect(err) {
			refused = err
			if sleep(actx, pause) {
				pause = min(2*pause, maxConnectPause)
				continue
			}
		}
		if actx.Err() != nil {
			err = actx.Err()
		}
		return none, nil, c.unavailable(ctx, err, refused)
	}
}

// alive pings conn within ctx if it was idle for over a second, and
// reports whether it answered; one that did not is closed and given back
// to the pool, which drops it.
func alive[T pooledConn](ctx context.Context, conn T) bool {
	pc := conn.Conn()
	st := stateOf(pc)
	if !st.ping {
		return true
	}
	st.ping = false
	if pc.Ping(ctx) == nil {
		return true
	}
	_ = pc.Close(context.WithoutCancel(ctx))
	switch conn := any(conn).(type) {
	case *pgxpool.Conn:
		conn.Release()
	case *stdlib.Conn:
		_ = conn.Close()
	}
	return false
}

// slot takes a slot, waiting within ctx for one given back if none is
// free; the waits count in PoolStats as pgxpool's own.
func (c *connector) slot(ctx context.Context) error {
	select {
	case c.slots <- struct{}{}:
		return nil
	default:
	}
	start := time.Now()
	select {
	case c.slots <- struct{}{}:
		c.slotWaits.Add(1)
		c.slotWaited.Add(int64(time.Since(start)))
		return nil
	case <-ctx.Done():
		c.slotCanceled.Add(1)
		return ctx.Err()
	}
}

// release gives back the slot of a connection given back to the pool.
func (c *connector) release() { <-c.slots }

// unavailable returns the error of an operation that got no connection:
// ctx's own error, or err wrapping ErrUnavailable (with refused, the last
// transient refusal, past the acquire timeout).
func (c *connector) unavailable(ctx context.Context, err, refused error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != context.DeadlineExceeded:
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	case refused != nil:
		return fmt.Errorf("%w: no connection within %v: %w", ErrUnavailable, c.acquire, refused)
	}
	return fmt.Errorf("%w: no connection within %v (pool_max_conns=%d)", ErrUnavailable, c.acquire, c.pool.Config().MaxConns)
}

// sleep waits d and reports true, or false if ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Close closes the pool; database/sql calls it from DB.Close.
func (c *connector) Close() error {
	forgetPool(c)
	c.pool.Close()
	return nil
}

// pgConn is a pgx connection of the pool (with all its optional
// interfaces) whose every statement has a deadline, and whose statements
// outside a transaction that meet an ended session are sent again on
// another connection: the session's end is reported as driver.ErrBadConn,
// which database/sql retries.
//
// At a statement's deadline pgx sends PostgreSQL a cancel request (which
// PgBouncer forwards), as the server's own statement_timeout would cancel
// it, and drops the connection if the server has not answered within
// CancelGrace, as when it stopped answering.
//
// A session ended by the server or a connection lost says that the server
// restarted or went away: the pool's other connections, made before, are
// then dropped when next taken (the connector's generation), rather than
// each failing a request of its own.
type pgConn struct {
	*stdlib.Conn
	c *connector
}

// Close gives the connection back to the pool, and its slot.
func (p *pgConn) Close() error {
	err := p.Conn.Close()
	p.c.release()
	return err
}

// deadline returns the context of one statement under ctx.
func (p *pgConn) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if p.c.statement <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, p.c.statement)
}

// fail returns err of a statement that ran under sctx, the deadline
// derived from ctx, as failed reports it, with an ended session reported
// as driver.ErrBadConn.
func (p *pgConn) fail(ctx, sctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	timedOut := ctx.Err() == nil && sctx.Err() == context.DeadlineExceeded
	err = p.c.failed(ctx, p.Conn.Conn().PgConn(), timedOut, err)
	if !timedOut && isSessionEnded(err) && !errors.Is(err, driver.ErrBadConn) {
		// database/sql sends the statement again, outside a transaction;
		// inside one InTx decides.
		return fmt.Errorf("%w: %w", driver.ErrBadConn, err)
	}
	return err
}

// failed returns err of a statement that ran on conn under ctx: wrapping
// ErrUnavailable when the statement's deadline passed (timedOut), else
// err. A session ended or a connection lost makes the connections made
// before stale.
func (c *connector) failed(ctx context.Context, conn *pgconn.PgConn, timedOut bool, err error) error {
	if timedOut {
		return fmt.Errorf("%w: no answer within statement_timeout (%v): %w", ErrUnavailable, c.statement, err)
	}
	if isSessionEnded(err) || pgCode(err) == "" && ctx.Err() == nil && connLost(err) {
		gen, _ := conn.CustomData()[genKey].(uint64)
		c.gen.CompareAndSwap(gen, gen+1)
	}
	return err
}

func (p *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	sctx, cancel := p.deadline(ctx)
	defer cancel()
	res, err := p.Conn.ExecContext(sctx, query, args)
	return res, p.fail(ctx, sctx, err)
}

// QueryContext runs the query under its deadline, which holds until its
// rows are closed.
func (p *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	sctx, cancel := p.deadline(ctx)
	rows, err := p.Conn.QueryContext(sctx, query, args)
	if err != nil {
		err = p.fail(ctx, sctx, err)
		cancel()
		return nil, err
	}
	return &pgRows{Rows: rows.(*stdlib.Rows), p: p, ctx: ctx, sctx: sctx, cancel: cancel}, nil
}

func (p *pgConn) Ping(ctx context.Context) error {
	sctx, cancel := p.deadline(ctx)
	defer cancel()
	return p.fail(ctx, sctx, p.Conn.Ping(sctx))
}

// PrepareContext prepares query under a deadline; the statement runs
// through the connection, each run under its own.
func (p *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	sctx, cancel := p.deadline(ctx)
	defer cancel()
	st, err := p.Conn.PrepareContext(sctx, query)
	if err != nil {
		return nil, p.fail(ctx, sctx, err)
	}
	return &pgStmt{Stmt: st.(*stdlib.Stmt), p: p, query: query}, nil
}

// BeginTx begins a transaction under a deadline. stdlib's transaction
// would commit under the context of its BEGIN; the COMMIT and ROLLBACK
// here have deadlines of their own (see pgTx).
func (p *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	sctx, cancel := p.deadline(ctx)
	defer cancel()
	if _, err := p.Conn.BeginTx(sctx, opts); err != nil {
		return nil, p.fail(ctx, sctx, err)
	}
	return &pgTx{p: p, ctx: ctx}, nil
}

// pgTx is a transaction of a pgConn, begun through stdlib (which builds
// the BEGIN of the options), ended here by COMMIT or ROLLBACK each under
// its deadline, as pgx's own transaction ends.
type pgTx struct {
	p   *pgConn
	ctx context.Context // of the BEGIN: the transaction's
}

func (tx *pgTx) Commit() error {
	tag, err := tx.end("commit")
	if err == nil && tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return err
}

func (tx *pgTx) Rollback() error {
	_, err := tx.end("rollback")
	return err
}

// end sends statement, COMMIT or ROLLBACK; a connection left inside the
// transaction by its failure is closed, so that it is not reused.
func (tx *pgTx) end(statement string) (pgconn.CommandTag, error) {
	sctx, cancel := tx.p.deadline(tx.ctx)
	defer cancel()
	conn := tx.p.Conn.Conn()
	tag, err := conn.Exec(sctx, statement)
	if err != nil && conn.PgConn().TxStatus() != 'I' {
		_ = conn.Close(context.WithoutCancel(sctx))
	}
	return tag, tx.p.fail(tx.ctx, sctx, err)
}

// pgRows are a query's rows, under the query's deadline until closed.
type pgRows struct {
	*stdlib.Rows
	p         *pgConn
	ctx, sctx context.Context
	cancel    context.CancelFunc
}

func (r *pgRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err == io.EOF {
		return err
	}
	return r.p.fail(r.ctx, r.sctx, err)
}

func (r *pgRows) Close() error {
	defer r.cancel()
	return r.Rows.Close()
}

// pgStmt is a prepared statement run through its connection, under a
// deadline per run (pgx finds the statement it prepared by its text).
type pgStmt struct {
	*stdlib.Stmt
	p     *pgConn
	query string
}

func (s *pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.p.ExecContext(ctx, s.query, args)
}

func (s *pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.p.QueryContext(ctx, s.query, args)
}
