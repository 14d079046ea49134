package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
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
// fail-over, pg_terminate_backend): the statement that gets one was not
// carried out, and a new connection may succeed.
const (
	pgAdminShutdown    = "57P01"
	pgCrashShutdown    = "57P02"
	pgCannotConnectNow = "57P03"
	pgTooManyClients   = "53300"
)

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
		return isSessionEnded(err) || code == pgTooManyClients || strings.HasPrefix(code, "08")
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
	if code := pgCode(err); code != "" {
		return isSessionEnded(err) || code == pgTooManyClients || strings.HasPrefix(code, "08")
	}
	return true
}

// connector gives database/sql connections of a pgx pool. database/sql
// keeps no idle connection of its own: each of its operations takes one
// from the pool here, waiting for one at most acquire, and gives it back
// when done, so that a request never queues for a connection without
// bound (database/sql would wait as long as the request's context).
type connector struct {
	driver.Connector // stdlib's connector of pool
	pool             *pgxpool.Pool
	acquire          time.Duration // the wait for a connection (pool_acquire_timeout)
	statement        time.Duration // each statement's deadline (statement_timeout); 0 is none
}

// connectPause is the first pause before a connection refused for a
// transient reason (transientConnect) is attempted again; each pause
// doubles it up to maxConnectPause, within the acquire timeout, so that
// a connection of the pool given back meanwhile is soon taken.
const (
	connectPause    = 10 * time.Millisecond
	maxConnectPause = 100 * time.Millisecond
)

// Connect takes a connection from the pool, opening one if the pool has
// room, within the acquire timeout. A connection the server refused for
// a transient reason is attempted again, after a pause, within that time;
// when it passes, the error wraps ErrUnavailable.
func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	actx, cancel := context.WithTimeout(ctx, c.acquire)
	defer cancel()
	for pause := connectPause; ; pause = min(2*pause, maxConnectPause) {
		conn, err := c.Connector.Connect(actx)
		if err == nil {
			return &pgConn{Conn: conn.(*stdlib.Conn), pool: c.pool, statement: c.statement}, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		if actx.Err() != nil || !transientConnect(err) {
			return nil, c.unavailable(err)
		}
		select {
		case <-actx.Done():
			return nil, c.unavailable(err)
		case <-time.After(pause):
		}
	}
}

// unavailable wraps err, of a connection that could not be had, in
// ErrUnavailable.
func (c *connector) unavailable(err error) error {
	return fmt.Errorf("%w: no connection within %v (pool of %d): %w", ErrUnavailable, c.acquire, c.pool.Stat().MaxConns(), err)
}

// Close closes the pool; database/sql calls it from DB.Close.
func (c *connector) Close() error {
	c.pool.Close()
	return nil
}

// pgConn is a pgx connection (with all its optional interfaces) whose
// every statement has a deadline, and whose statements outside a
// transaction that meet an ended session are sent again on another
// connection: the session's end is reported as driver.ErrBadConn, which
// database/sql retries. A pooled connection that the server ended while
// it was idle (a restart) is otherwise noticed only by the first
// statement sent on it.
//
// At a statement's deadline pgx sends PostgreSQL a cancel request (which
// PgBouncer forwards), as the server's own statement_timeout would cancel
// it, and drops the connection if the server has not answered within
// CancelGrace, as when it stopped answering.
//
// A session ended by the server or a connection lost says that the server
// restarted or went away: the pool's other connections are then closed
// too (pgxpool's Reset), rather than each failing a request of its own.
type pgConn struct {
	*stdlib.Conn
	pool      *pgxpool.Pool
	statement time.Duration
}

// deadline returns the context of one statement under ctx.
func (c *pgConn) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.statement <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.statement)
}

// fail returns err of a statement that ran under sctx, the deadline
// derived from ctx: ErrUnavailable when the deadline passed, else err
// with an ended session reported as driver.ErrBadConn.
func (c *pgConn) fail(ctx, sctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() == nil && sctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%w: no answer within statement_timeout (%v): %w", ErrUnavailable, c.statement, err)
	}
	ended := isSessionEnded(err)
	if ended || pgCode(err) == "" && ctx.Err() == nil && connLost(err) {
		c.pool.Reset()
	}
	if ended && !errors.Is(err, driver.ErrBadConn) {
		// database/sql sends the statement again, outside a transaction;
		// inside one InTx decides.
		return fmt.Errorf("%w: %w", driver.ErrBadConn, err)
	}
	return err
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	sctx, cancel := c.deadline(ctx)
	defer cancel()
	res, err := c.Conn.ExecContext(sctx, query, args)
	return res, c.fail(ctx, sctx, err)
}

// QueryContext runs the query under its deadline, which holds until its
// rows are closed.
func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	sctx, cancel := c.deadline(ctx)
	rows, err := c.Conn.QueryContext(sctx, query, args)
	if err != nil {
		err = c.fail(ctx, sctx, err)
		cancel()
		return nil, err
	}
	return &pgRows{Rows: rows.(*stdlib.Rows), c: c, ctx: ctx, sctx: sctx, cancel: cancel}, nil
}

func (c *pgConn) Ping(ctx context.Context) error {
	sctx, cancel := c.deadline(ctx)
	defer cancel()
	return c.fail(ctx, sctx, c.Conn.Ping(sctx))
}

// PrepareContext prepares query under a deadline; the statement runs
// through the connection, each run under its own.
func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	sctx, cancel := c.deadline(ctx)
	defer cancel()
	st, err := c.Conn.PrepareContext(sctx, query)
	if err != nil {
		return nil, c.fail(ctx, sctx, err)
	}
	return &pgStmt{Stmt: st.(*stdlib.Stmt), c: c, query: query}, nil
}

// BeginTx begins a transaction under a deadline. stdlib's transaction
// would commit under the context of its BEGIN; the COMMIT and ROLLBACK
// here have deadlines of their own (see pgTx).
func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	sctx, cancel := c.deadline(ctx)
	defer cancel()
	if _, err := c.Conn.BeginTx(sctx, opts); err != nil {
		return nil, c.fail(ctx, sctx, err)
	}
	return &pgTx{c: c, ctx: ctx}, nil
}

// pgTx is a transaction of a pgConn, begun through stdlib (which builds
// the BEGIN of the options), ended here by COMMIT or ROLLBACK each under
// its deadline, as pgx's own transaction ends.
type pgTx struct {
	c   *pgConn
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
	sctx, cancel := tx.c.deadline(tx.ctx)
	defer cancel()
	conn := tx.c.Conn.Conn()
	tag, err := conn.Exec(sctx, statement)
	if err != nil && conn.PgConn().TxStatus() != 'I' {
		_ = conn.Close(context.WithoutCancel(sctx))
	}
	return tag, tx.c.fail(tx.ctx, sctx, err)
}

// pgRows are a query's rows, under the query's deadline until closed.
type pgRows struct {
	*stdlib.Rows
	c         *pgConn
	ctx, sctx context.Context
	cancel    context.CancelFunc
}

func (r *pgRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err == io.EOF {
		return err
	}
	return r.c.fail(r.ctx, r.sctx, err)
}

func (r *pgRows) Close() error {
	defer r.cancel()
	return r.Rows.Close()
}

// pgStmt is a prepared statement run through its connection, under a
// deadline per run (pgx finds the statement it prepared by its text).
type pgStmt struct {
	*stdlib.Stmt
	c     *pgConn
	query string
}

func (s *pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.c.ExecContext(ctx, s.query, args)
}

func (s *pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.QueryContext(ctx, s.query, args)
}
