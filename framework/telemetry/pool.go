package telemetry

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/XSAM/otelsql"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/go-drf/drf/framework/store"
)

// Names of the pool's metrics. Those of database/sql's statistics keep
// the names otelsql gives them, so that dashboards read the same series
// on either database; the acquire and opened ones are pgxpool's alone.
const (
	metricOpen              = "db.sql.connection.open" // by status: idle, inuse
	metricMaxOpen           = "db.sql.connection.max_open"
	metricWait              = "db.sql.connection.wait"
	metricWaitDuration      = "db.sql.connection.wait_duration" // ms
	metricClosedMaxIdle     = "db.sql.connection.closed_max_idle"
	metricClosedMaxIdleTime = "db.sql.connection.closed_max_idle_time"
	metricClosedMaxLifetime = "db.sql.connection.closed_max_lifetime"
	metricAcquire           = "db.sql.connection.acquire"
	metricAcquireDuration   = "db.sql.connection.acquire_duration" // ms
	metricAcquireCanceled   = "db.sql.connection.acquire_canceled"
	metricOpened            = "db.sql.connection.opened"
)

// ObservePool reports the statistics of db's connection pool as metrics
// (docs/operations.md); nothing when t is nil or has no metrics. Call it
// once per database.
//
// For a PostgreSQL database of store.Open, whose connections pgxpool
// keeps (database/sql keeps none idle of its own), they are the pool's
// own figures (store.PoolStatsOf), read at each collection, under the
// names otelsql gives database/sql's: db.sql.connection.open by status
// (idle; inuse: taken by an operation or being opened for one),
// db.sql.connection.max_open, db.sql.connection.wait and wait_duration
// (the operations that found no connection idle and waited for one, a
// new one or one given back), db.sql.connection.closed_max_idle (0: the
// pool keeps every idle connection), closed_max_idle_time and
// closed_max_lifetime; and pgxpool's alone: db.sql.connection.acquire
// and acquire_duration (every connection taken, and the time taken),
// acquire_canceled (the operations whose context ended first) and
// opened. For any other database (SQLite) they are database/sql's,
// otelsql's RegisterDBStatsMetrics.
func (t *Telemetry) ObservePool(db *sql.DB) error {
	if t == nil || t.metrics == nil {
		return nil
	}
	if _, ok := store.PoolStatsOf(db); ok {
		return observePgxPool(t.metrics.Meter(ScopeName), db)
	}
	_, err := otelsql.RegisterDBStatsMetrics(db, otelsql.WithMeterProvider(t.metrics))
	return err
}

// The attributes of db.sql.connection.open's data points, as otelsql's.
var (
	statusIdle  = metric.WithAttributeSet(attribute.NewSet(attribute.String("status", "idle")))
	statusInUse = metric.WithAttributeSet(attribute.NewSet(attribute.String("status", "inuse")))
)

// observePgxPool registers the metrics of the pgx pool of db, a
// PostgreSQL database of store.Open, on meter: observable instruments
// read from store.PoolStatsOf at each collection, none once db is closed.
func observePgxPool(meter metric.Meter, db *sql.DB) error {
	var errs []error
	var instruments []metric.Observable
	gauge := func(name, desc string) metric.Int64ObservableGauge {
		g, err := meter.Int64ObservableGauge(name, metric.WithDescription(desc))
		errs, instruments = append(errs, err), append(instruments, g)
		return g
	}
	counter := func(name, desc string) metric.Int64ObservableCounter {
		c, err := meter.Int64ObservableCounter(name, metric.WithDescription(desc))
		errs, instruments = append(errs, err), append(instruments, c)
		return c
	}
	milliseconds := func(name, desc string) metric.Float64ObservableCounter {
		c, err := meter.Float64ObservableCounter(name, metric.WithDescription(desc), metric.WithUnit("ms"))
		errs, instruments = append(errs, err), append(instruments, c)
		return c
	}
	maxOpen := gauge(metricMaxOpen, "Maximum number of open connections to the database (pool_max_conns)")
	open := gauge(metricOpen, "The number of established connections both in use and idle")
	wait := counter(metricWait,
		"The total number of connections waited for, none being idle: a new one, or one given back")
	waitDuration := milliseconds(metricWaitDuration, "The total time blocked waiting for a connection")
	closedMaxIdle := counter(metricClosedMaxIdle,
		"The total number of connections closed because too many were idle: none, the pool keeps them")
	closedMaxIdleTime := counter(metricClosedMaxIdleTime,
		"The total number of connections closed idle past pool_max_conn_idle_time")
	closedMaxLifetime := counter(metricClosedMaxLifetime,
		"The total number of connections closed past pool_max_conn_lifetime")
	acquire := counter(metricAcquire, "The total number of connections taken from the pool")
	acquireDuration := milliseconds(metricAcquireDuration,
		"The total time taken to take connections from the pool, waits included")
	acquireCanceled := counter(metricAcquireCanceled,
		"The total number of operations whose context ended before they got a connection")
	opened := counter(metricOpened, "The total number of connections opened")
	if err := errors.Join(errs...); err != nil {
		return err
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	_, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s, ok := store.PoolStatsOf(db)
		if !ok {
			return nil // closed
		}
		o.ObserveInt64(maxOpen, int64(s.MaxConns))
		o.ObserveInt64(open, int64(s.IdleConns), statusIdle)
		o.ObserveInt64(open, int64(s.TotalConns-s.IdleConns), statusInUse)
		o.ObserveInt64(wait, s.EmptyAcquireCount)
		o.ObserveFloat64(waitDuration, ms(s.EmptyAcquireWaitTime))
		o.ObserveInt64(closedMaxIdle, 0)
		o.ObserveInt64(closedMaxIdleTime, s.MaxIdleDestroyCount)
		o.ObserveInt64(closedMaxLifetime, s.MaxLifetimeDestroyCount)
		o.ObserveInt64(acquire, s.AcquireCount)
		o.ObserveFloat64(acquireDuration, ms(s.AcquireDuration))
		o.ObserveInt64(acquireCanceled, s.CanceledAcquireCount)
		o.ObserveInt64(opened, s.NewConnsCount)
		return nil
	}, instruments...)
	return err
}
