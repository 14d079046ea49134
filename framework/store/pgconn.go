package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL's SQLSTATEs of a session the server ended (a restart, a
// fail-over, pg_terminate_backend): the statement that gets one was not
// carried out, and a new connection may succeed.
const (
	pgAdminShutdown    = "57P01"
	pgCrashShutdown    = "57P02"
	pgCannotConnectNow = "57P03"
)

// isSessionEnded reports whether err says the server ended the session.
func isSessionEnded(err error) bool {
	switch pgCode(err) {
	case pgAdminShutdown, pgCrashShutdown, pgCannotConnectNow:
		return true
	}
	return false
}

// reconnector gives database/sql pgx's connections, whose statements
// outside a transaction that meet an ended session are sent again on a
// new connection: the session's end is reported as driver.ErrBadConn,
// which database/sql retries. A pooled connection that the server ended
// while it was idle (a restart) is otherwise noticed only by the first
// statement sent on it.
type reconnector struct{ driver.Connector }

func (c reconnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &reconnecting{conn.(*stdlib.Conn)}, nil
}

// reconnecting is a pgx connection (with all its optional interfaces)
// whose ended session is driver.ErrBadConn.
type reconnecting struct{ *stdlib.Conn }

func (c *reconnecting) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	res, err := c.Conn.ExecContext(ctx, query, args)
	return res, badConn(err)
}

func (c *reconnecting) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.Conn.QueryContext(ctx, query, args)
	return rows, badConn(err)
}

// badConn wraps an ended session's error in driver.ErrBadConn, outside a
// transaction (inside one, database/sql does not retry; InTx does).
func badConn(err error) error {
	if err != nil && isSessionEnded(err) && !errors.Is(err, driver.ErrBadConn) {
		return fmt.Errorf("%w: %w", driver.ErrBadConn, err)
	}
	return err
}
