package simplejwt

import (
	"context"
	"time"

	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
)

// outstanding returns the id of the outstanding token of t's jti,
// recording it first when there is none (simplejwt's get_or_create):
// with userID and t.Now as created_at when a token is made for a user,
// with neither when a token is blacklisted that was not recorded. A row
// another request records meanwhile is read: the insert that loses the
// race fails in a savepoint of the transaction ctx carries, if any,
// which goes on.
func (j *JWT) outstanding(ctx context.Context, userID *int64, t *Token, encoded string, made bool) (int64, error) {
	exp, err := t.Claims.GetExpirationTime()
	if err != nil || exp == nil {
		return 0, &TokenError{msgNoExp}
	}
	o := &OutstandingToken{UserID: userID, JTI: t.Claims.Text(ClaimJTI), Token: encoded, ExpiresAt: exp.Time.UTC()}
	if made {
		created := t.Now.UTC().Truncate(time.Microsecond)
		o.CreatedAt = &created
	}
	if _, err := j.outstandings.GetOrCreate(ctx, o, "jti"); err != nil {
		return 0, err
	}
	return o.ID, nil
}

// blacklist blacklists t (encoded as raw), in one atomic block: its
// outstanding token, recorded if need be, gets its blacklisted row. That
// row's insert, on token_blacklist_blacklistedtoken's UNIQUE token_id, is
// what decides between the requests racing to use t, refreshes that
// rotate it and logouts: the one whose row is inserted goes on; to the
// others, which find the row there (on PostgreSQL once the winner's
// transaction committed), t is blacklisted, a *TokenError msgBlacklisted,
// as it is to a request that comes after.
func (j *JWT) blacklist(ctx context.Context, t *Token, raw string) error {
	return store.Atomic(ctx, j.db, func(ctx context.Context) error {
		id, err := j.outstanding(ctx, nil, t, raw, false)
		if err != nil {
			return err
		}
		created, err := j.blacklisted.GetOrCreate(ctx, &BlacklistedToken{TokenID: id}, "token")
		if err != nil {
			return err
		}
		if !created {
			return &TokenError{msgBlacklisted}
		}
		return nil
	})
}

// isBlacklisted reports whether the token of the jti is blacklisted.
func (j *JWT) isBlacklisted(ctx context.Context, jti string) (bool, error) {
	n, err := j.blacklisted.Match(queryset.Lookup("token__jti", query.Exact, jti)).Count(ctx)
	return n > 0, err
}
