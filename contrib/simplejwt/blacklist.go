package simplejwt

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// outstanding returns the id of the outstanding token of t's jti,
// recording it through q (the database, or a transaction) first when
// there is none (simplejwt's get_or_create): with userID and t.Now as
// created_at when a token is made for a user, with neither when a token
// is blacklisted that was not recorded. A row another request records
// meanwhile is read, not a unique violation, which would abort a
// PostgreSQL transaction: its INSERT ... ON CONFLICT DO NOTHING waits
// for the other's transaction and, once it committed, inserts nothing.
func (j *JWT) outstanding(ctx context.Context, q sqlx.ExtContext, userID *int64, t *Token, encoded string, made bool) (int64, error) {
	jti := t.Claims.Text(ClaimJTI)
	exp, err := t.Claims.GetExpirationTime()
	if err != nil || exp == nil {
		return 0, &TokenError{MsgNoExp}
	}
	var created *string
	if made {
		c := store.FormatTime(t.Now)
		created = &c
	}
	find := q.Rebind(`SELECT "id" FROM "token_blacklist_outstandingtoken" WHERE "jti" = ?`)
	var id int64
	if err := sqlx.GetContext(ctx, q, &id, find, jti); !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	err = sqlx.GetContext(ctx, q, &id, q.Rebind(`INSERT INTO "token_blacklist_outstandingtoken" `+
		`("token", "created_at", "expires_at", "user_id", "jti") VALUES (?, ?, ?, ?, ?) `+
		`ON CONFLICT ("jti") DO NOTHING RETURNING "id"`),
		encoded, created, store.FormatTime(exp.Time), userID, jti)
	if !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	// Another request recorded it meanwhile: read its row.
	err = sqlx.GetContext(ctx, q, &id, find, jti)
	return id, err
}

// blacklist blacklists t (encoded as raw), in one transaction: its
// outstanding token, recorded if need be, gets its blacklisted row. That
// row's insert, on token_blacklist_blacklistedtoken's UNIQUE token_id, is
// what decides between the requests racing to use t, refreshes that
// rotate it and logouts: the one whose row is inserted goes on; to the
// others, which find the row there (on PostgreSQL once the winner's
// transaction committed), t is blacklisted, a *TokenError MsgBlacklisted,
// as it is to a request that comes after.
func (j *JWT) blacklist(ctx context.Context, t *Token, raw string) error {
	return store.InTx(ctx, j.db, func(tx *sqlx.Tx) error {
		id, err := j.outstanding(ctx, tx, nil, t, raw, false)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO "token_blacklist_blacklistedtoken" ("blacklisted_at", "token_id") `+
			`VALUES (?, ?) ON CONFLICT ("token_id") DO NOTHING`), store.FormatTime(time.Now()), id)
		if err != nil {
			return err
		}
		inserted, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if inserted == 0 {
			return &TokenError{MsgBlacklisted}
		}
		return nil
	})
}

// isBlacklisted reports whether the token of the jti is blacklisted.
func (j *JWT) isBlacklisted(ctx context.Context, jti string) (bool, error) {
	var n int
	q := store.On(ctx, j.db)
	err := q.GetContext(ctx, &n, q.Rebind(`SELECT count(*) FROM "token_blacklist_blacklistedtoken" b `+
		`JOIN "token_blacklist_outstandingtoken" o ON b."token_id" = o."id" WHERE o."jti" = ?`), jti)
	return n > 0, err
}
