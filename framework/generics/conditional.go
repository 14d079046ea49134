package generics

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/structs"
)

// Conditional makes a generic view's detail actions answer conditional
// requests (RFC 9110 §13), which DRF does not: the item's answers carry a
// strong ETag computed from its serialized representation (and the media
// type it is rendered in); a GET or HEAD whose If-None-Match names it is
// 304 Not Modified; a PUT, PATCH or DELETE whose If-Match does not name
// the stored item's is 412 Precondition Failed, checked under a lock of
// the item together with the write, so that of two writes sent with the
// same If-Match one succeeds and the other is 412. The lock is the row's
// (the lookup field's value as stored, whichever spelling of it the URL
// has), taken once the body is read and valid, and awaited for LockWait
// at most. A lookup value that no item can have (see GetObject) is 404
// before any query.
type Conditional struct {
	// RequireIfMatch answers 428 Precondition Required to a PUT, PATCH or
	// DELETE without If-Match: clients must read the item before
	// changing it.
	RequireIfMatch bool
	// Locks serialize the check and the write of one item; nil gives
	// locks in the process's memory, which hold for one instance only.
	// DatabaseLocks hold for every instance of the service, and their
	// waiters block rather than poll; store.Leases hold for every
	// instance too, their waiters polling the database.
	Locks Locker
	// LockWait bounds how long a write waits for the item's lock while
	// another write of the item holds it; past it the write is 503
	// Service Unavailable with Retry-After. 0 gives 5 seconds.
	LockWait time.Duration
}

// defaultLockWait is the LockWait of a Conditional that sets none.
const defaultLockWait = 5 * time.Second

// lockRetryAfter is the Retry-After of a write answered 503 because the
// item's lock was not had within LockWait.
const lockRetryAfter = time.Second

// Locker gives named locks: Lock waits until name is free or ctx ends,
// and unlock frees it. DatabaseLocks and store.Leases are two.
type Locker interface {
	Lock(ctx context.Context, name string) (unlock func(), err error)
}

// Detail messages of the conditional answers.
const (
	MsgPreconditionFailed   = "The item has changed since it was read: If-Match does not name its current ETag."
	MsgPreconditionRequired = "This request must be conditional: send If-Match with the item's ETag."
)

// ETag is the strong validator of data rendered as mediaType: a digest
// of both, quoted.
func ETag(mediaType string, data json.RawMessage) string {
	h := sha256.New()
	h.Write([]byte(mediaType))
	h.Write([]byte{0})
	h.Write(data)
	return `"` + base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18]) + `"`
}

// tagged is the answer of an item: 200 with its ETag, or 304 with it
// alone to a GET or HEAD whose If-None-Match names it (weakly).
func (c *Conditional) tagged(r *request.Request, data json.RawMessage) *framework.Response {
	tag := ETag(r.AcceptedMediaType, data)
	header := http.Header{"Etag": {tag}}
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && matches(r.Header.Values("If-None-Match"), tag, false) {
		return &framework.Response{Status: http.StatusNotModified, Header: header}
	}
	return &framework.Response{Status: http.StatusOK, Data: data, Header: header}
}

// matches reports whether the entity-tags of an If-Match or If-None-Match
// field (its lines) name tag, or are "*": strongly (a weak tag never
// matches) or weakly (W/ ignored).
func matches(lines []string, tag string, strong bool) bool {
	for _, line := range lines {
		for _, t := range strings.Split(line, ",") {
			t = strings.TrimSpace(t)
			if !strong {
				t = strings.TrimPrefix(t, "W/")
			}
			if t == "*" || t == tag {
				return true
			}
		}
	}
	return false
}

// precondition checks If-Match on a write of obj, the item the URL names
// as it was looked up, before the body is read: 428 without If-Match when
// the view requires one, 412 when If-Match does not name obj's ETag.
// checked reports that the write is conditional, to be checked again
// under the item's lock (ifMatch); without Conditional, or without
// If-Match (and none required), there is nothing to check, and obj is
// written as DRF writes it.
func (g *GenericAPIView[T]) precondition(v *framework.View, r *request.Request, obj *T) (checked bool, err error) {
	c := g.Conditional
	if c == nil {
		return false, nil
	}
	lines := r.Header.Values("If-Match")
	if len(lines) == 0 {
		if c.RequireIfMatch {
			return false, &exceptions.APIException{Status: http.StatusPreconditionRequired, Detail: MsgPreconditionRequired, Code: "precondition_required"}
		}
		return false, nil
	}
	data, err := g.serialize(v, r, obj)
	if err != nil {
		return false, err
	}
	if !matches(lines, ETag(r.AcceptedMediaType, data), true) {
		return false, preconditionFailed()
	}
	return true, nil
}

// ifMatch checks If-Match again on a conditional write of obj, once its
// body is read and valid: it takes the lock of obj's row (lockName), reads
// the item again and compares its ETag. It returns the item as stored and
// the unlock to call once the write is done; 412 when the tag does not
// match, 503 with Retry-After when the lock is not had within LockWait.
func (g *GenericAPIView[T]) ifMatch(v *framework.View, r *request.Request, obj *T) (*T, func(), error) {
	name, err := g.lockName(r, obj)
	if err != nil {
		return nil, nil, err
	}
	unlock, err := g.Conditional.lock(r.Context(), name)
	if err != nil {
		return nil, nil, err
	}
	stored, err := g.GetObject(v, r)
	if err == nil {
		var data json.RawMessage
		if data, err = g.serialize(v, r, stored); err == nil && !matches(r.Header.Values("If-Match"), ETag(r.AcceptedMediaType, data), true) {
			err = preconditionFailed()
		}
	}
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return stored, unlock, nil
}

// preconditionFailed is the 412 of a stale If-Match.
func preconditionFailed() error {
	return &exceptions.APIException{Status: http.StatusPreconditionFailed, Detail: MsgPreconditionFailed, Code: "precondition_failed"}
}

// lockName names the lock of obj's row: the view's model, its lookup field
// and the field's value as stored (the source's Position, Django's str()),
// so that every spelling of the key in URLs ("0119", "+119", "119") names
// the same lock. A value longer than 64 bytes is named by its SHA-256,
// which keeps names short enough for a lease.
func (g *GenericAPIView[T]) lockName(r *request.Request, obj *T) (string, error) {
	src, err := g.GetSource(r)
	if err != nil {
		return "", err
	}
	key, err := src.Position(obj, g.lookupField())
	if err != nil {
		return "", err
	}
	if len(key) > 64 {
		sum := sha256.Sum256([]byte(key))
		key = "sha256:" + hex.EncodeToString(sum[:])
	}
	return "generics:" + g.DefaultBasename() + ":" + g.lookupField() + ":" + key, nil
}

// lock takes the lock of name with c's Locks, waiting LockWait at most:
// past it, while the request is still wanted, 503 Service Unavailable
// with Retry-After, as the framework answers for a database that cannot
// serve.
func (c *Conditional) lock(ctx context.Context, name string) (func(), error) {
	locks := c.Locks
	if locks == nil {
		locks = processLocks
	}
	wait := c.LockWait
	if wait <= 0 {
		wait = defaultLockWait
	}
	waitCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	unlock, err := locks.Lock(waitCtx, name)
	if err != nil && waitCtx.Err() != nil && ctx.Err() == nil {
		return nil, exceptions.ServiceUnavailable(lockRetryAfter)
	}
	return unlock, err
}

// lookupKey is what a conditional view knows of its items' lookup field
// to refuse values that none can have: the struct field (nil when the
// lookup field is no column of T: the source alone knows it), and the
// length in characters of its longest value, 0 for no bound.
type lookupKey struct {
	field  *structs.Field
	maxLen int
}

// lookupKeyOf describes T's lookup field column: an integer's longest text
// is its type's widest, with its sign ("-9223372036854775808" for an
// int64); text's is the max_length that T, a declared model, gives it.
func lookupKeyOf[T any](column string) *lookupKey {
	k := &lookupKey{}
	if s, err := structs.Of[T](); err == nil {
		k.field = s.ByColumn(column)
	}
	switch f := k.field; {
	case f == nil:
	case f.Kind == structs.Int:
		k.maxLen = len(strconv.FormatInt(int64(-1)<<(f.Bits-1), 10))
	case f.Kind == structs.Uint:
		k.maxLen = len(strconv.FormatUint(uint64(1)<<f.Bits-1, 10))
	case f.Kind == structs.String:
		// Only a declared model: describing another type would register it.
		if _, declared := any((*T)(nil)).(models.Model); declared {
			if d, err := models.Of[T](); err == nil {
				for _, mf := range d.Fields {
					if mf.Column == column {
						k.maxLen = mf.MaxLength
					}
				}
			}
		}
	}
	return k
}

// refuseLookup refuses, before any query, a lookup value of a conditional
// view that no item can have. One that is not a value of the lookup
// field's type is 404 "Not found.", as GetObject answers it (DRF's
// get_object_or_404 on a ValueError); one out of an integer type's range,
// or longer than the field's longest value, is the 404 of no match, as
// Django answers an integer out of the column's range (its lookups find
// nothing without asking the database).
func (g *GenericAPIView[T]) refuseLookup(v *framework.View, value string) error {
	k := g.lookupKey
	if k == nil { // a view not set up by CheckActions
		k = lookupKeyOf[T](g.lookupField())
	}
	if k.field == nil {
		return nil
	}
	var err error
	switch k.field.Kind {
	case structs.Int:
		_, err = strconv.ParseInt(strings.TrimSpace(value), 10, k.field.Bits)
	case structs.Uint:
		_, err = strconv.ParseUint(strings.TrimSpace(value), 10, k.field.Bits)
	default:
		_, err = k.field.Parse(value)
	}
	switch {
	case errors.Is(err, strconv.ErrRange) || err == nil && k.maxLen > 0 && utf8.RuneCountInString(value) > k.maxLen:
		return g.noMatch(v)
	case err != nil:
		return exceptions.NotFound()
	}
	return nil
}

// serialize is obj's representation for r to v.
func (g *GenericAPIView[T]) serialize(v *framework.View, r *request.Request, obj *T) (json.RawMessage, error) {
	ser, err := g.GetSerializer(v, r)
	if err != nil {
		return nil, err
	}
	return ser.Data(obj, g.SerializerContext(r))
}

// localLocks are named locks in the process's memory: a name is held
// while its channel is in held, and closing it wakes the waiters. The
// zero value has none held.
type localLocks struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

// processLocks are the locks of views whose Conditional has none.
var processLocks = &localLocks{}

// Lock implements Locker.
func (l *localLocks) Lock(ctx context.Context, name string) (func(), error) {
	for {
		l.mu.Lock()
		busy, ok := l.held[name]
		if !ok {
			if l.held == nil {
				l.held = map[string]chan struct{}{}
			}
			free := make(chan struct{})
			l.held[name] = free
			l.mu.Unlock()
			return func() {
				l.mu.Lock()
				delete(l.held, name)
				l.mu.Unlock()
				close(free)
			}, nil
		}
		l.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// DatabaseLocks are named locks that hold for every instance of a service
// on one database, whose waiters block rather than poll. A name is first
// locked in the instance's memory, so that of the instance's callers one
// at a time goes on to the database's lock:
//
//   - on PostgreSQL, a transaction-scoped advisory lock of the name's
//     hash (pg_advisory_xact_lock), taken in a transaction that stays
//     open until unlock: the waiter blocks in the server, which wakes it
//     when the holder's transaction ends, by unlock or with its session
//     (a holder whose process died, as soon as the server sees its
//     connection close). The transaction keeps
//     a connection of DB's pool, under PgBouncer's transaction pooling
//     too; MaxHeld bounds how many the instance keeps at once, so that
//     the holders' own statements always find one;
//   - on SQLite, store.Leases (migrations.Lease), one caller per name
//     and instance polling while another process holds the lease: SQLite
//     has no lock to wait on that leaves the table writable by the holder.
//
// Give each instance one DatabaseLocks, used by pointer.
type DatabaseLocks struct {
	// DB is the database every instance shares.
	DB *sqlx.DB
	// MaxHeld bounds how many locks the instance holds or awaits at once
	// on PostgreSQL, each keeping a connection of DB's pool; 0 gives half
	// of store.DefaultMaxConns. Keep it below the pool's pool_max_conns.
	MaxHeld int

	local localLocks
	once  sync.Once
	slots chan struct{} // a token per transaction held, MaxHeld at most
}

// Lock implements Locker: it waits until name is free or ctx ends.
func (l *DatabaseLocks) Lock(ctx context.Context, name string) (func(), error) {
	unlockLocal, err := l.local.Lock(ctx, name)
	if err != nil {
		return nil, err
	}
	var unlock func()
	if store.DialectOf(l.DB) == store.PostgreSQL {
		unlock, err = l.advisory(ctx, name)
	} else {
		unlock, err = store.Leases{DB: l.DB}.Lock(ctx, name)
	}
	if err != nil {
		unlockLocal()
		return nil, err
	}
	return func() {
		unlock()
		unlockLocal()
	}, nil
}

// advisory takes PostgreSQL's advisory lock of name in a transaction
// that unlock rolls back.
func (l *DatabaseLocks) advisory(ctx context.Context, name string) (func(), error) {
	l.once.Do(func() {
		n := l.MaxHeld
		if n <= 0 {
			n = max(1, store.DefaultMaxConns()/2)
		}
		l.slots = make(chan struct{}, n)
	})
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	conn, err := l.DB.Conn(ctx)
	if err != nil {
		<-l.slots
		return nil, err
	}
	// The transaction outlives ctx, which bounds the wait alone.
	tx, err := conn.BeginTx(context.WithoutCancel(ctx), nil)
	unlock := func() {
		if tx != nil {
			_ = tx.Rollback()
		}
		_ = conn.Close()
		<-l.slots
	}
	if err == nil {
		sum := sha256.Sum256([]byte(name))
		_, err = tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(binary.BigEndian.Uint64(sum[:8])))
	}
	if err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}
