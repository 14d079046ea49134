package store

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"
)

// LeaseTable creates the table of Leases, "drf_lease": a row per name
// held, with its holder's token and when the lease runs out (Unix
// nanoseconds). The migration drf.0001_lease (migrations.Lease) runs it.
const LeaseTable = `CREATE TABLE "drf_lease" ("name" varchar(255) NOT NULL PRIMARY KEY, "token" varchar(32) NOT NULL, "expires" bigint NOT NULL)`

// defaultLeaseTTL is how long a lease of Leases with no TTL lasts.
const defaultLeaseTTL = 30 * time.Second

// Leases are named locks kept in the database (LeaseTable), so
// that every instance of a service, on SQLite or PostgreSQL, sees them: a
// name is held by one caller at a time, the others wait for it. Holding a
// lease keeps no connection or transaction open (the holder's own
// statements run on the pool as usual, and no PgBouncer mode loses it).
// A lease its holder never released (the process died) runs out after
// TTL, and another caller may then take it: the work done under a lease
// must take less.
type Leases struct {
	DB *sqlx.DB
	// TTL is how long a lease lasts; 0 gives 30 seconds.
	TTL time.Duration
}

// Lock takes the lease of name, waiting while another holds it, until ctx
// ends; unlock gives it back. When ctx carries a transaction of DB (an
// atomic request, Atomic), unlock gives it back once that transaction has
// ended, so that the next holder reads what was written under the lease,
// and does not wait, on SQLite, for the write lock that transaction holds.
func (l Leases) Lock(ctx context.Context, name string) (unlock func(), err error) {
	ttl := l.TTL
	if ttl <= 0 {
		ttl = defaultLeaseTTL
	}
	var b [16]byte
	_, _ = crand.Read(b[:])
	token := hex.EncodeToString(b[:])
	take := l.DB.Rebind(`INSERT INTO "drf_lease" ("name", "token", "expires") VALUES (?, ?, ?) ` +
		`ON CONFLICT ("name") DO UPDATE SET "token" = excluded."token", "expires" = excluded."expires" WHERE "drf_lease"."expires" < ?`)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		now := time.Now()
		res, err := l.DB.ExecContext(ctx, take, name, token, now.Add(ttl).UnixNano(), now.UnixNano())
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 1 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause/2 + rand.N(pause)):
		}
	}
	release := l.DB.Rebind(`DELETE FROM "drf_lease" WHERE "name" = ? AND "token" = ?`)
	giveBack := func() {
		// Given back even when the request was cancelled.
		_, _ = l.DB.ExecContext(context.WithoutCancel(ctx), release, name, token)
	}
	return func() {
		if !afterEnd(ctx, l.DB, giveBack) {
			giveBack()
		}
	}, nil
}
