package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/cache"
)

// Defaults of a Lockout whose fields are zero.
const (
	// defaultFailureLimit is the FailureLimit of a Lockout that sets none.
	defaultFailureLimit = 5
	// defaultCoolOff is the CoolOff of a Lockout that sets none.
	defaultCoolOff = 15 * time.Minute
)

// Lockout is a policy against password guessing that DRF does not have,
// modelled on django-axes with AXES_LOCKOUT_PARAMETERS = ["username"] and
// AXES_RESET_ON_SUCCESS: once FailureLimit logins as one username have
// failed within CoolOff, from whatever client addresses, Authenticate
// refuses that username with a *LockedOutError, without looking the user
// up or checking the password, until the oldest of those failures is
// CoolOff old; a successful login clears the count. Set it as
// Users.Lockout, before the users are used; its zero value is ready.
//
// An attempt is counted when it begins, and uncounted when it succeeds:
// of many attempts sent at once, from any clients to any instances,
// FailureLimit get their password checked. Attempts refused while locked are
// not counted, so they do not prolong the lockout. Usernames are counted
// in NFKC form and lower case: "Admin", "admin" and "ａｄｍｉｎ" share one
// count.
//
// The counts live in Cache, which every instance of a service must share
// (a cache.Redis, the one the throttles use) for the limit to hold across
// instances. A cache that fails lets logins through uncounted, as the
// throttles do, and the failure is logged.
type Lockout struct {
	// FailureLimit is AXES_FAILURE_LIMIT, the failed logins of one
	// username allowed within CoolOff; the next attempt is refused. 0 is
	// 5.
	FailureLimit int
	// CoolOff is AXES_COOLOFF_TIME, how long a failed login counts; 0 is
	// 15 minutes. (django-axes' default, none, locks until an
	// administrator unlocks; a lockout here always ends.)
	CoolOff time.Duration
	// Cache holds the counts; nil is one cache.Memory for the process,
	// right for a single instance only.
	Cache framework.ThrottleCache
	// Logger logs a cache that fails; nil is slog.Default().
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// LockedOutError is Authenticate's answer for a username that Lockout
// holds locked. It is also ErrInvalidCredentials (errors.Is), so that a
// caller that knows only that one refuses the login as a wrong password;
// the obtain-token views answer it 429 with Retry-After.
type LockedOutError struct {
	// Wait is how long until the username may be tried again.
	Wait time.Duration
}

// Error says that the username is locked and for how long.
func (e *LockedOutError) Error() string {
	return fmt.Sprintf("auth: too many failed logins: locked out for %v", e.Wait.Round(time.Second))
}

// Is reports whether target is ErrInvalidCredentials.
func (e *LockedOutError) Is(target error) bool { return target == ErrInvalidCredentials }

// lockoutCache holds the counts of the Lockouts that name no cache.
var lockoutCache = &cache.Memory{}

func (l *Lockout) limit() int {
	if l.FailureLimit <= 0 {
		return defaultFailureLimit
	}
	return l.FailureLimit
}

func (l *Lockout) coolOff() time.Duration {
	if l.CoolOff <= 0 {
		return defaultCoolOff
	}
	return l.CoolOff
}

func (l *Lockout) cache() framework.ThrottleCache {
	if l.Cache == nil {
		return lockoutCache
	}
	return l.Cache
}

func (l *Lockout) now() time.Time {
	if l.Now == nil {
		return time.Now()
	}
	return l.Now()
}

// lockoutKey is the cache key of username's count: a digest of its NFKC,
// lower-cased form, of a fixed size however long the name sent.
func lockoutKey(username string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(NormalizeUsername(username))))
	return "lockout_" + hex.EncodeToString(sum[:16])
}

// begin counts an attempt on username, atomically with the check that
// fewer than the limit are counted within the cool-off: a *LockedOutError
// when they are not. The attempt stays counted unless succeeded clears it.
func (l *Lockout) begin(ctx context.Context, username string) error {
	now, coolOff := l.now(), l.coolOff()
	w, err := l.cache().Hit(ctx, lockoutKey(username), now, coolOff, l.limit())
	if err != nil {
		if gone := ctx.Err(); gone != nil {
			return gone // the client went away: not the cache's failure
		}
		l.unavailable(ctx, err)
		return nil
	}
	if w.Allowed {
		return nil
	}
	// The oldest attempt leaving the window unlocks: exact, since attempts
	// are counted only below the limit (the earliest the username may
	// unlock, when the limit was lowered after they were counted).
	return &LockedOutError{Wait: w.Oldest.Add(coolOff).Sub(now)}
}

// succeeded clears username's count. ThrottleCache has no delete; Hit
// forgets what was recorded at or before its now less its window, and
// records nothing under a limit of 0: with now a cool-off ahead and a
// window of a microsecond it forgets every attempt counted until now, on
// this instance's clock or one less than a cool-off ahead of it.
func (l *Lockout) succeeded(ctx context.Context, username string) {
	ahead := l.now().Add(l.coolOff())
	if _, err := l.cache().Hit(ctx, lockoutKey(username), ahead, time.Microsecond, 0); err != nil && ctx.Err() == nil {
		l.unavailable(ctx, err)
	}
}

// unavailable logs a cache failure, but not the cool-down of a Redis that
// just failed, whose first failure was logged.
func (l *Lockout) unavailable(ctx context.Context, err error) {
	if errors.Is(err, cache.ErrUnavailable) {
		return
	}
	logger := l.Logger
	if logger == nil {
		logger = slog.Default()
	}
	logger.WarnContext(ctx, "login lockout cache unavailable: login attempts not counted", "error", err)
}
