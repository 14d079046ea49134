package store

import (
	"database/sql"
	"sync"
	"time"
)

// PoolStats are the figures of a PostgreSQL database's connection pool
// (pgxpool's Stat), which holds its connections between operations:
// database/sql's own DB.Stats see only the connections operations hold
// (its Idle is always 0). The counts and durations are cumulative since
// the database was opened.
type PoolStats struct {
	// MaxConns is the pool's size (pool_max_conns).
	MaxConns int32
	// TotalConns are the connections of the pool: IdleConns,
	// AcquiredConns and ConstructingConns.
	TotalConns int32
	// IdleConns are the connections open and free.
	IdleConns int32
	// AcquiredConns are the connections an operation holds.
	AcquiredConns int32
	// ConstructingConns are the connections being opened.
	ConstructingConns int32

	// AcquireCount counts the connections taken from the pool, and
	// AcquireDuration is the time taken to take them.
	AcquireCount    int64
	AcquireDuration time.Duration
	// EmptyAcquireCount counts the connections taken that had to be
	// waited for, no connection being idle: a new one opened, or one
	// given back while the pool was at MaxConns; EmptyAcquireWaitTime is
	// the time waited.
	EmptyAcquireCount    int64
	EmptyAcquireWaitTime time.Duration
	// CanceledAcquireCount counts the operations whose context ended (the
	// request's, or pool_acquire_timeout) before they got a connection.
	CanceledAcquireCount int64

	// NewConnsCount counts the connections opened.
	NewConnsCount int64
	// MaxLifetimeDestroyCount counts the connections closed past
	// pool_max_conn_lifetime, MaxIdleDestroyCount those closed idle past
	// pool_max_conn_idle_time.
	MaxLifetimeDestroyCount int64
	MaxIdleDestroyCount     int64
}

// pools are the connectors of the PostgreSQL databases open, by their
// *sql.DB: recorded once opened (openPostgres), forgotten when closed
// (connector.Close).
var pools sync.Map // *sql.DB → *connector

// PoolStatsOf returns the figures of the pool of db, a PostgreSQL
// database that Open or OpenWith opened and that is not closed; false
// for any other (an SQLite database, whose pool is database/sql's: see
// DB.Stats). It takes no connection and sends nothing to the server.
func PoolStatsOf(db *sql.DB) (PoolStats, bool) {
	p, ok := pools.Load(db)
	if !ok {
		return PoolStats{}, false
	}
	c := p.(*connector)
	s := c.pool.Stat()
	// An operation waits for a connection given back in the connector's
	// slots, before it asks the pool (see connector).
	waited := time.Duration(c.slotWaited.Load())
	return PoolStats{
		MaxConns:                s.MaxConns(),
		TotalConns:              s.TotalConns(),
		IdleConns:               s.IdleConns(),
		AcquiredConns:           s.AcquiredConns(),
		ConstructingConns:       s.ConstructingConns(),
		AcquireCount:            s.AcquireCount(),
		AcquireDuration:         s.AcquireDuration() + waited,
		EmptyAcquireCount:       s.EmptyAcquireCount() + c.slotWaits.Load(),
		EmptyAcquireWaitTime:    s.EmptyAcquireWaitTime() + waited,
		CanceledAcquireCount:    s.CanceledAcquireCount() + c.slotCanceled.Load(),
		NewConnsCount:           s.NewConnsCount(),
		MaxLifetimeDestroyCount: s.MaxLifetimeDestroyCount(),
		MaxIdleDestroyCount:     s.MaxIdleDestroyCount(),
	}, true
}

// forgetPool forgets the database of c, closed.
func forgetPool(c *connector) {
	pools.Range(func(db, p any) bool {
		if p == c {
			pools.Delete(db)
			return false
		}
		return true
	})
}
