package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

// Reader runs the read queries of a PostgreSQL database on its pgx pool
// directly, without database/sql's cost per operation (a driver
// connection, a context per statement, the rows' wrappers), under the
// same rules as the statements database/sql sends (see openPostgres): a
// connection within pool_acquire_timeout, transient refusals attempted
// again within it, every statement bounded by statement_timeout (a
// cancel request at the deadline, the connection dropped past
// CancelGrace, ErrUnavailable), and a query whose session the server
// ended sent again on another connection. Its rows hold the values
// database/sql reads through pgx's driver: int64 for every integer,
// float64, bool, string (text, numeric, uuid), time.Time, []byte, nil.
type Reader struct {
	c *connector
}

// ReaderOf returns the Reader of db, a PostgreSQL database that Open or
// OpenWith opened and that is not closed; nil for any other, and for one
// opened with Options.OpenDB, whose pool (framework/telemetry's) traces
// each statement that database/sql sends: its reads stay there.
func ReaderOf(db *sqlx.DB) *Reader {
	c, ok := pools.Load(db.DB)
	if !ok || c.(*connector).traced {
		return nil
	}
	return &c.(*connector).reader
}

// maxReadAttempts is how many connections a query whose session the
// server ended, or whose connection was found closed before it was sent,
// is sent on: as many as database/sql tries.
const maxReadAttempts = 3

// resultFormats asks for binary results only for the types that pgx's
// database/sql driver reads in binary (stdlib's databaseSQLResultFormats),
// so that every value is read as it reads it.
var resultFormats = pgx.QueryResultFormatsByOID{
	pgtype.BoolOID: 1, pgtype.ByteaOID: 1, pgtype.CIDOID: 1, pgtype.DateOID: 1,
	pgtype.Float4OID: 1, pgtype.Float8OID: 1, pgtype.Int2OID: 1, pgtype.Int4OID: 1,
	pgtype.Int8OID: 1, pgtype.OIDOID: 1, pgtype.TimestampOID: 1, pgtype.TimestamptzOID: 1,
	pgtype.XIDOID: 1,
}

// pgProtocolViolation is the SQLSTATE of a Bind whose result formats do
// not fit the statement's columns.
const pgProtocolViolation = "08P01"

// Query runs query, with "$n" placeholders, and returns its rows, which
// hold a connection until they are closed (or read to their end).
func (r *Reader) Query(ctx context.Context, query string, args ...any) (*Rows, error) {
	rows := &Rows{c: r.c, ctx: ctx, query: query}
	all := append(append(rows.argv[:0], nil), args...)
	for attempt := 1; ; attempt++ {
		conn, state, err := acquire(ctx, r.c, takePool)
		if err != nil {
			return nil, err
		}
		rows.conn, rows.state, rows.rows, rows.done = conn, state, nil, false
		// The formats resultFormats chose for the columns when the
		// connection last ran the query, else resultFormats.
		cols := state.cols[query]
		if all[0] = resultFormats; cols != nil {
			all[0] = cols.formats
		}
		rows.timer = rows.state.timer.start()
		if conn.Conn().IsClosed() {
			err = pgconn.ErrConnClosed
		} else if rows.rows, err = conn.Conn().Query(ctx, query, all...); err == nil {
			// The first row, or the error, says whether the query ran.
			if rows.more = rows.rows.Next(); !rows.more {
				err = rows.rows.Err()
			}
		}
		if err == nil {
			fields := rows.rows.FieldDescriptions()
			if cols == nil {
				cols = state.columnsOf(query, conn.Conn().TypeMap(), fields)
			} else if !sameColumns(cols.convs, fields) {
				// The columns changed (a table altered, and the statement
				// prepared again without failing a run): the formats asked
				// for may not be resultFormats' for them. The query is sent
				// again, as on a connection that never ran it.
				delete(state.cols, query)
				_ = rows.finish(nil)
				attempt--
				continue
			}
			rows.convs, rows.first = cols.convs, true
			return rows, nil
		}
		// pgx prepares a statement that failed again; so are its columns
		// found again. A Bind refused for formats that no longer fit the
		// columns is sent again with resultFormats.
		resend := cols != nil && pgCode(err) == pgProtocolViolation
		if cols != nil {
			delete(state.cols, query)
		}
		retry := resend || pgconn.SafeToRetry(err) || isSessionEnded(err) || errors.Is(err, pgconn.ErrConnClosed)
		err = rows.finish(err)
		if resend && ctx.Err() == nil && !errors.Is(err, ErrUnavailable) {
			attempt--
			continue
		}
		if !retry || ctx.Err() != nil || errors.Is(err, ErrUnavailable) || attempt == maxReadAttempts {
			return nil, err
		}
	}
}

// Rows are the rows of a Reader's query.
type Rows struct {
	c     *connector
	conn  *pgxpool.Conn // until the rows are done
	state *connState    // conn's
	ctx   context.Context
	query string
	argv  [8]any          // the query's arguments, without an allocation of their own when few
	timer *statementTimer // the connection's, armed until the rows are done
	rows  pgx.Rows
	first bool // the first row was read by Query: Next returns more
	more  bool
	done  bool
	err   error
	convs []conv // of each column

	// What Time scans a timestamp into, kept here so that it costs no
	// allocation of its own.
	tstz pgtype.Timestamptz
	ts   pgtype.Timestamp
}

// Next prepares the next row for Scan, and reports whether there is one;
// at the end the rows are closed, and Err says whether they ended for an
// error.
func (r *Rows) Next() bool {
	if r.done {
		return false
	}
	if r.first {
		r.first = false
		if r.more {
			return true
		}
	} else if r.rows.Next() {
		return true
	}
	r.err = r.finish(r.rows.Err())
	return false
}

// Err returns the error that ended the rows, if any.
func (r *Rows) Err() error { return r.err }

// Close ends the rows, giving their connection back to the pool.
func (r *Rows) Close() error {
	if !r.done {
		r.err = r.finish(nil)
	}
	return nil
}

// finish closes the rows, stops the statement's deadline and gives the
// connection back, and returns err as the reader reports it: wrapping
// ErrUnavailable if the deadline passed; a session ended or a connection
// lost makes the pool's older connections stale (see connector).
func (r *Rows) finish(err error) error {
	r.done = true
	if r.rows != nil {
		r.rows.Close()
		if err == nil {
			err = r.rows.Err()
		}
	}
	timedOut := r.timer.stop()
	if err != nil {
		err = r.c.failed(r.ctx, r.conn.Conn().PgConn(), timedOut, err)
	}
	r.conn.Release()
	r.c.release()
	return err
}

// Scan copies the columns of the current row into dest, as database/sql's
// Rows.Scan: each of dest is an *any (which gets the value as
// database/sql's driver gives it), a *int, *int64, *float64, *bool,
// *string, *[]byte or *time.Time of a value of that kind, or an
// sql.Scanner.
func (r *Rows) Scan(dest ...any) error {
	if n := r.Columns(); len(dest) != n {
		return fmt.Errorf("store: Scan: %d destinations for %d columns", len(dest), n)
	}
	for i := range dest {
		v, err := r.Value(i)
		if err != nil {
			return err
		}
		if err := assign(dest[i], v); err != nil {
			return fmt.Errorf("store: Scan: column %d: %w", i, err)
		}
	}
	return nil
}

// Columns returns the number of columns of the rows.
func (r *Rows) Columns() int { return len(r.rows.FieldDescriptions()) }

// Value returns column i of the current row as database/sql's driver
// gives it (what Scan stores in an *any): int64, float64, bool, string,
// time.Time, []byte or nil.
func (r *Rows) Value(i int) (any, error) {
	src, c := r.column(i)
	if src == nil {
		return nil, nil
	}
	v, err := c.value(src)
	if err != nil {
		return nil, fmt.Errorf("store: Scan: column %d: %w", i, err)
	}
	return v, nil
}

// The typed reads of a column of the current row: each gives the value
// that Value gives, unboxed, and ok false for NULL, for a column of
// another type and for a value Value refuses (which Value then reports).

// Int reads an integer column (int2, int4, int8).
func (r *Rows) Int(i int) (n int64, ok bool) {
	src, c := r.column(i)
	return c.int(src)
}

// Float reads a float4 or float8 column.
func (r *Rows) Float(i int) (f float64, ok bool) {
	src, c := r.column(i)
	return c.float(src)
}

// Bool reads a boolean column.
func (r *Rows) Bool(i int) (b, ok bool) {
	src, c := r.column(i)
	return c.bool(src)
}

// Text reads a column that Value gives as its text: text, varchar,
// char, name, numeric, uuid.
func (r *Rows) Text(i int) (s string, ok bool) {
	src, c := r.column(i)
	if c.kind != convText || src == nil {
		return "", false
	}
	return string(src), true
}

// Time reads a timestamp or timestamptz column, in UTC; ok is false for
// infinity too.
func (r *Rows) Time(i int) (t time.Time, ok bool) {
	src, c := r.column(i)
	if src == nil || c.kind != convPlan {
		return time.Time{}, false
	}
	switch c.oid {
	case pgtype.TimestamptzOID:
		if c.plan.Scan(src, &r.tstz) == nil && r.tstz.Valid && r.tstz.InfinityModifier == pgtype.Finite {
			return r.tstz.Time.UTC(), true
		}
	case pgtype.TimestampOID:
		if c.plan.Scan(src, &r.ts) == nil && r.ts.Valid && r.ts.InfinityModifier == pgtype.Finite {
			return r.ts.Time.UTC(), true
		}
	}
	return time.Time{}, false
}

// column returns the raw value of column i of the current row (nil for
// NULL) and its conv.
func (r *Rows) column(i int) ([]byte, *conv) {
	return r.rows.RawValues()[i], &r.convs[i]
}

// assign stores v, a value of database/sql's driver, in dest.
func assign(dest, v any) error {
	switch d := dest.(type) {
	case *any:
		*d = v
		return nil
	case sql.Scanner:
		return d.Scan(v)
	}
	ok := false
	switch d := dest.(type) {
	case *int:
		var n int64
		if n, ok = v.(int64); ok && n == int64(int(n)) {
			*d = int(n)
		}
	case *int64:
		*d, ok = v.(int64)
	case *float64:
		*d, ok = v.(float64)
	case *bool:
		*d, ok = v.(bool)
	case *string:
		*d, ok = v.(string)
	case *[]byte:
		*d, ok = v.([]byte)
	case *time.Time:
		*d, ok = v.(time.Time)
	default:
		return fmt.Errorf("unsupported destination %T", dest)
	}
	if !ok {
		return fmt.Errorf("cannot store %T in %T", v, dest)
	}
	return nil
}

// The ways a column's raw value becomes database/sql's value.
const (
	convPlan   uint8 = iota // by a pgtype scan plan, as pgx's driver
	convInt8                // binary int8
	convInt4                // binary int4
	convInt2                // binary int2
	convBool                // binary bool
	convFloat8              // binary float8
	convFloat4              // binary float4
	convBytea               // binary bytea
	convText                // text of a textual type
)

// conv reads the values of one column as pgx's database/sql driver does
// (stdlib's Rows.Next): the common types decoded here, the others through
// the scan plan it would use, into the same Go type.
type conv struct {
	kind   uint8
	format int16
	oid    uint32
	plan   pgtype.ScanPlan
}

// maxCachedColumns bounds the results a connection keeps the columns of,
// as pgx bounds the statements it keeps prepared (512 by default).
const maxCachedColumns = 512

// columns is what a connection keeps of a query's result, from the run
// that found its columns, as pgx keeps the statement prepared: the convs
// of the columns, and the result formats that resultFormats chose for
// them, which the next runs ask for outright (pgx would look each
// column's type up in resultFormats again on every run).
type columns struct {
	convs   []conv
	formats any // a pgx.QueryResultFormats, boxed once
}

// columnsOf makes and keeps the columns of query's result, fields, read
// in the formats resultFormats chose.
func (st *connState) columnsOf(query string, m *pgtype.Map, fields []pgconn.FieldDescription) *columns {
	if st.cols == nil || len(st.cols) >= maxCachedColumns {
		st.cols = make(map[string]*columns)
	}
	formats := make(pgx.QueryResultFormats, len(fields))
	for i := range fields {
		formats[i] = fields[i].Format
	}
	cols := &columns{convs: newConvs(m, fields), formats: formats}
	st.cols[query] = cols
	return cols
}

// sameColumns reports whether convs were made for columns of fields' types.
func sameColumns(convs []conv, fields []pgconn.FieldDescription) bool {
	if len(convs) != len(fields) {
		return false
	}
	for i := range fields {
		if convs[i].oid != fields[i].DataTypeOID || convs[i].format != fields[i].Format {
			return false
		}
	}
	return true
}

// newConvs returns the convs of the columns fields of a result.
func newConvs(m *pgtype.Map, fields []pgconn.FieldDescription) []conv {
	convs := make([]conv, len(fields))
	for i, fd := range fields {
		c := &convs[i]
		c.oid, c.format = fd.DataTypeOID, fd.Format
		if fd.Format == pgtype.BinaryFormatCode {
			switch fd.DataTypeOID {
			case pgtype.Int8OID:
				c.kind = convInt8
			case pgtype.Int4OID:
				c.kind = convInt4
			case pgtype.Int2OID:
				c.kind = convInt2
			case pgtype.BoolOID:
				c.kind = convBool
			case pgtype.Float8OID:
				c.kind = convFloat8
			case pgtype.Float4OID:
				c.kind = convFloat4
			case pgtype.ByteaOID:
				c.kind = convBytea
			}
		} else {
			switch fd.DataTypeOID {
			case pgtype.TextOID, pgtype.VarcharOID, pgtype.BPCharOID, pgtype.NameOID, pgtype.NumericOID, pgtype.UUIDOID:
				c.kind = convText
			}
		}
		if c.kind == convPlan {
			c.plan = m.PlanScan(fd.DataTypeOID, fd.Format, target(fd.DataTypeOID))
		}
	}
	return convs
}

// target is a destination of the Go type that stdlib scans a value of
// oid into.
func target(oid uint32) any {
	switch oid {
	case pgtype.BoolOID:
		return new(bool)
	case pgtype.ByteaOID, pgtype.JSONOID, pgtype.JSONBOID, pgtype.XMLOID:
		return new([]byte)
	case pgtype.CIDOID, pgtype.OIDOID, pgtype.XIDOID:
		return new(pgtype.Uint32)
	case pgtype.DateOID:
		return new(pgtype.Date)
	case pgtype.Float4OID:
		return new(float32)
	case pgtype.Float8OID:
		return new(float64)
	case pgtype.Int2OID:
		return new(int16)
	case pgtype.Int4OID:
		return new(int32)
	case pgtype.Int8OID:
		return new(int64)
	case pgtype.TimestampOID:
		return new(pgtype.Timestamp)
	case pgtype.TimestamptzOID:
		return new(pgtype.Timestamptz)
	}
	return new(string)
}

// errLength is the error of a binary value of the wrong size.
var errLength = errors.New("binary value of the wrong length")

// value returns database/sql's value of src, a column's non-NULL raw value.
func (c *conv) value(src []byte) (any, error) {
	switch c.kind {
	case convInt8, convInt4, convInt2:
		if n, ok := c.int(src); ok {
			return n, nil
		}
		return nil, errLength
	case convFloat8, convFloat4:
		if f, ok := c.float(src); ok {
			return f, nil
		}
		return nil, errLength
	case convBool:
		if b, ok := c.bool(src); ok {
			return b, nil
		}
		return nil, errLength
	case convBytea:
		return bytes.Clone(src), nil
	case convText:
		return string(src), nil
	}
	return c.planned(src)
}

// int is the value of src, a binary integer; ok is false for NULL, a
// value of the wrong size or another type.
func (c *conv) int(src []byte) (int64, bool) {
	switch {
	case c.kind == convInt8 && len(src) == 8:
		return int64(binary.BigEndian.Uint64(src)), true
	case c.kind == convInt4 && len(src) == 4:
		return int64(int32(binary.BigEndian.Uint32(src))), true
	case c.kind == convInt2 && len(src) == 2:
		return int64(int16(binary.BigEndian.Uint16(src))), true
	}
	return 0, false
}

// float is the value of src, a binary float, as int is of an integer.
func (c *conv) float(src []byte) (float64, bool) {
	switch {
	case c.kind == convFloat8 && len(src) == 8:
		return math.Float64frombits(binary.BigEndian.Uint64(src)), true
	case c.kind == convFloat4 && len(src) == 4:
		return float64(math.Float32frombits(binary.BigEndian.Uint32(src))), true
	}
	return 0, false
}

// bool is the value of src, a binary boolean, as int is of an integer.
func (c *conv) bool(src []byte) (b, ok bool) {
	if c.kind != convBool || len(src) != 1 {
		return false, false
	}
	return src[0] == 1, true
}

// planned returns the value of src through the column's scan plan, as
// stdlib's Rows.Next does for the type.
func (c *conv) planned(src []byte) (any, error) {
	switch c.oid {
	case pgtype.BoolOID:
		var d bool
		err := c.plan.Scan(src, &d)
		return d, err
	case pgtype.ByteaOID, pgtype.JSONOID, pgtype.JSONBOID, pgtype.XMLOID:
		var d []byte
		if err := c.plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return d, nil
	case pgtype.CIDOID, pgtype.OIDOID, pgtype.XIDOID:
		var d pgtype.Uint32
		if err := c.plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return d.Value()
	case pgtype.DateOID:
		var d pgtype.Date
		if err := c.plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return d.Value()
	case pgtype.Float4OID:
		var d float32
		err := c.plan.Scan(src, &d)
		return float64(d), err
	case pgtype.Float8OID:
		var d float64
		err := c.plan.Scan(src, &d)
		return d, err
	case pgtype.Int2OID:
		var d int16
		err := c.plan.Scan(src, &d)
		return int64(d), err
	case pgtype.Int4OID:
		var d int32
		err := c.plan.Scan(src, &d)
		return int64(d), err
	case pgtype.Int8OID:
		var d int64
		err := c.plan.Scan(src, &d)
		return d, err
	case pgtype.TimestampOID:
		var d pgtype.Timestamp
		if err := c.plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return d.Value()
	case pgtype.TimestamptzOID:
		var d pgtype.Timestamptz
		if err := c.plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return d.Value()
	}
	var d string
	err := c.plan.Scan(src, &d)
	return d, err
}

// statementTimer is a connection's deadline for its statements, reused
// from one statement to the next (a context per statement costs a timer
// and a context of its own): at the deadline it has PostgreSQL cancel the
// statement and drops the connection if the server does not answer
// within CancelGrace, as the connection does when a statement's context
// ends (see openPostgres).
type statementTimer struct {
	d       time.Duration
	cancel  pgconn.CancelRequestContextWatcherHandler
	t       *time.Timer
	running sync.WaitGroup // while armed
	fired   bool           // the deadline passed; read once running is done
}

// newStatementTimer returns the stopped statementTimer of d for conn.
func newStatementTimer(conn *pgconn.PgConn, d time.Duration) *statementTimer {
	st := &statementTimer{d: d, cancel: pgconn.CancelRequestContextWatcherHandler{Conn: conn, DeadlineDelay: CancelGrace}}
	st.t = time.AfterFunc(time.Duration(math.MaxInt64), func() {
		st.cancel.HandleCancel(context.Background())
		st.fired = true
		st.running.Done()
	})
	st.t.Stop()
	return st
}

// start arms the deadline; a nil statementTimer (no statement_timeout)
// has none.
func (st *statementTimer) start() *statementTimer {
	if st != nil {
		st.fired = false
		st.running.Add(1)
		st.t.Reset(st.d)
	}
	return st
}

// stop disarms the deadline, once its cancel (if it fired) is done, and
// reports whether it fired.
func (st *statementTimer) stop() bool {
	if st == nil {
		return false
	}
	if st.t.Stop() {
		st.running.Done()
		return false
	}
	st.running.Wait()
	st.cancel.HandleUnwatchAfterCancel()
	return st.fired
}
