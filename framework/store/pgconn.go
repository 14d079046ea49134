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

// connector opens the pgx connections of database/sql's pool, at most
// cap(slots) at once. database/sql keeps them idle and reuses them; an
// operation that finds none idle asks here, and waits at most acquire
// for one: for a slot to open a new one, or for one that another
// operation gives back (handed over directly: see pgConn.IsValid), so
// that a request never queues for a connection without bound (database/sql,
// were it to limit them itself, would make it wait as long as its
// context lasts).
type connector struct {
	dial      driver.Connector // stdlib's connector of the configuration
	slots     chan struct{}    // a token per open connection
	handoff   chan *pgConn     // connections given back while operations wait
	waiting   atomic.Int32     // operations waiting for a connection
	gen       atomic.Uint64    // bumped when a connection finds the server gone
	acquire   time.Duration    // the wait for a connection (pool_acquire_timeout)
	statement time.Duration    // each statement's deadline (statement_timeout); 0 is none
	lifetime  time.Duration    // a connection's use (pool_max_conn_lifetime)
}

// newConnector returns the connector of config, of maxConns connections
// at most. stdlib never pings a connection it reuses: pgConn does, under
// the acquire timeout.
func newConnector(config *pgx.ConnConfig, maxConns int, acquire, statement, lifetime time.Duration) *connector {
	never := stdlib.OptionShouldPing(func(context.Context, stdlib.ShouldPingParams) bool { return false })
	return &connector{dial: stdlib.GetConnector(*config, never), slots: make(chan struct{}, maxConns),
		handoff: make(chan *pgConn), acquire: acquire, statement: statement, lifetime: lifetime}
}

// Driver returns pgx's database/sql driver.
func (c *connector) Driver() driver.Driver { return c.dial.Driver() }

// connectPause is the first pause before a connection refused for a
// transient reason (transientConnect) is attempted again; each pause
// doubles it up to maxConnectPause, within the acquire timeout, and a
// connection given back meanwhile is taken instead.
const (
	connectPause    = 10 * time.Millisecond
	maxConnectPause = 100 * time.Millisecond
)

// Connect gives database/sql a connection, within the acquire timeout:
// a new one while the pool has room, else the first that another
// operation gives back; past the timeout the error wraps ErrUnavailable.
func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	deadline := time.Now().Add(c.acquire)
	select {
	case c.slots <- struct{}{}:
		return c.open(ctx, deadline)
	default:
	}
	c.waiting.Add(1)
	defer c.waiting.Add(-1)
	timer := time.NewTimer(c.acquire)
	defer timer.Stop()
	select {
	case c.slots <- struct{}{}:
		return c.open(ctx, deadline)
	case conn := <-c.handoff:
		return conn, nil
	case <-timer.C:
		return nil, fmt.Errorf("%w: no connection within %v: the pool's %d are in use", ErrUnavailable, c.acquire, cap(c.slots))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// open opens a connection in the slot taken, attempting again after a
// transient refusal until deadline and taking meanwhile a connection
// given back, if one comes; the slot is given up unless a connection
// holds it.
func (c *connector) open(ctx context.Context, deadline time.Time) (driver.Conn, error) {
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	for pause := connectPause; ; pause = min(2*pause, maxConnectPause) {
		conn, err := c.dial.Connect(dctx)
		if err == nil {
			now := time.Now()
			return &pgConn{Conn: conn.(*stdlib.Conn), c: c, born: now, used: now, gen: c.gen.Load()}, nil
		}
		if ctx.Err() == nil && dctx.Err() == nil && transientConnect(err) {
			if given := c.await(dctx, pause); given != nil {
				<-c.slots
				return given, nil
			}
			if dctx.Err() == nil {
				continue
			}
		}
		<-c.slots
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: no connection within %v: %w", ErrUnavailable, c.acquire, err)
	}
}

// await waits up to pause, within ctx, for a connection given back.
func (c *connector) await(ctx context.Context, pause time.Duration) *pgConn {
	c.waiting.Add(1)
	defer c.waiting.Add(-1)
	timer := time.NewTimer(pause)
	defer timer.Stop()
	select {
	case conn := <-c.handoff:
		return conn
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil
}

// pgConn is a pgx connection (with all its optional interfaces) whose
// every statement has a deadline, and whose statements outside a
// transaction that meet an ended session are sent again on another
// connection: the session's end is reported as driver.ErrBadConn, which
// database/sql retries.
//
// At a statement's deadline pgx sends PostgreSQL a cancel request (which
// PgBouncer forwards), as the server's own statement_timeout would cancel
// it, and drops the connection if the server has not answered within
// CancelGrace, as when it stopped answering.
//
// A session ended by the server or a connection lost says that the server
// restarted or went away: the pool's other connections, made before, are
// then refused when next taken (ResetSession), rather than each failing a
// request of its own. One idle for over a second is checked first (a
// ping, under the acquire timeout); one whose check the server did not
// answer fails the operation with ErrUnavailable, rather than having
// database/sql try the next one, and the next.
type pgConn struct {
	*stdlib.Conn
	c          *connector
	born, used time.Time // made; last given back
	gen        uint64    // the connector's generation when it was made
	failed     error     // the server did not answer its liveness check
	handoff    bool      // database/sql is closing it to give it to a waiting operation
}

// IsValid reports whether database/sql may keep the connection it is
// given back; while operations wait in Connect it says no, so that
// database/sql closes it and Close hands it over to one of them.
func (p *pgConn) IsValid() bool {
	p.used = time.Now()
	conn := p.Conn.Conn()
	if conn.IsClosed() || p.failed != nil {
		return false
	}
	if p.c.waiting.Load() > 0 && conn.PgConn().TxStatus() == 'I' && p.fresh(p.used) {
		p.handoff = true
		return false
	}
	return true
}

// fresh reports whether the connection is within its lifetime and was
// made since the server was last found gone.
func (p *pgConn) fresh(now time.Time) bool {
	return p.gen == p.c.gen.Load() && (p.c.lifetime <= 0 || now.Sub(p.born) < p.c.lifetime)
}

// Close closes the connection, or hands it over to an operation waiting
// for one (see IsValid).
func (p *pgConn) Close() error {
	if p.handoff {
		p.handoff = false
		select {
		case p.c.handoff <- p:
			return nil
		default:
		}
	}
	defer func() { <-p.c.slots }()
	return p.Conn.Close()
}

// ResetSession readies an idle connection for reuse: one made before the
// server was last found gone, or past its lifetime, is refused; one idle
// for over a second (since IsValid saw it given back) is pinged, within
// the acquire timeout.
func (p *pgConn) ResetSession(ctx context.Context) error {
	now := time.Now()
	idle := now.Sub(p.used)
	if !p.fresh(now) {
		return driver.ErrBadConn
	}
	if idle > time.Second {
		pctx, cancel := context.WithTimeout(ctx, p.c.acquire)
		err := p.Conn.Conn().PgConn().Ping(pctx)
		late := ctx.Err() == nil && pctx.Err() == context.DeadlineExceeded
		cancel()
		if late {
			// database/sql would try the next connection, and the next:
			// the operation fails here instead.
			p.failed = fmt.Errorf("%w: no answer to a liveness check within %v: %w", ErrUnavailable, p.c.acquire, err)
			return nil
		}
		if err != nil {
			return driver.ErrBadConn
		}
	}
	return p.Conn.ResetSession(ctx)
}

// deadline returns the context of one statement under ctx.
func (p *pgConn) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if p.c.statement <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, p.c.statement)
}

// fail returns err of a statement that ran under sctx, the deadline
// derived from ctx: ErrUnavailable when the deadline passed, else err
// with an ended session reported as driver.ErrBadConn. A session ended
// or a connection lost makes the connections made before stale.
func (p *pgConn) fail(ctx, sctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() == nil && sctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%w: no answer within statement_timeout (%v): %w", ErrUnavailable, p.c.statement, err)
	}
	ended := isSessionEnded(err)
	if ended || pgCode(err) == "" && ctx.Err() == nil && connLost(err) {
		p.c.gen.CompareAndSwap(p.gen, p.gen+1)
	}
	if ended && !errors.Is(err, driver.ErrBadConn) {
		// database/sql sends the statement again, outside a transaction;
		// inside one InTx decides.
		return fmt.Errorf("%w: %w", driver.ErrBadConn, err)
	}
	return err
}

func (p *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if p.failed != nil {
		return nil, p.failed
	}
	sctx, cancel := p.deadline(ctx)
	defer cancel()
	res, err := p.Conn.ExecContext(sctx, query, args)
	return res, p.fail(ctx, sctx, err)
}

// QueryContext runs the query under its deadline, which holds until its
// rows are closed.
func (p *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if p.failed != nil {
		return nil, p.failed
	}
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
	if p.failed != nil {
		return p.failed
	}
	sctx, cancel := p.deadline(ctx)
	defer cancel()
	return p.fail(ctx, sctx, p.Conn.Ping(sctx))
}

// PrepareContext prepares query under a deadline; the statement runs
// through the connection, each run under its own.
func (p *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if p.failed != nil {
		return nil, p.failed
	}
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
	if p.failed != nil {
		return nil, p.failed
	}
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
