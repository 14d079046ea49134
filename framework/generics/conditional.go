package generics

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
)

// Conditional makes a generic view's detail actions answer conditional
// requests (RFC 9110 §13), which DRF does not: the item's answers carry a
// strong ETag computed from its serialized representation (and the media
// type it is rendered in); a GET or HEAD whose If-None-Match names it is
// 304 Not Modified; a PUT, PATCH or DELETE whose If-Match does not name
// the stored item's is 412 Precondition Failed, checked under a lock of
// the item together with the write, so that of two writes sent with the
// same If-Match one succeeds and the other is 412.
type Conditional struct {
	// RequireIfMatch answers 428 Precondition Required to a PUT, PATCH or
	// DELETE without If-Match: clients must read the item before
	// changing it.
	RequireIfMatch bool
	// Locks serialize the check and the write of one item; nil gives
	// locks in the process's memory, which hold for one instance only.
	// store.Leases hold for every instance of the service.
	Locks Locker
}

// Locker gives named locks: Lock waits until name is free or ctx ends,
// and unlock frees it. store.Leases is one.
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

// ifMatch checks If-Match on a write of the item the URL names, found as
// obj: it takes the item's lock, reads the item again and compares its
// ETag. It returns the item as stored and the unlock to call once the
// write is done; 412 when the tag does not match, 428 without If-Match
// when the view requires one. Without If-Match (and not required) there
// is nothing to check, and obj is written as DRF writes it.
func (g *GenericAPIView[T]) ifMatch(v *framework.View, r *request.Request, obj *T) (*T, func(), error) {
	c := g.Conditional
	lines := r.Header.Values("If-Match")
	if len(lines) == 0 {
		if c.RequireIfMatch {
			return nil, nil, &exceptions.APIException{Status: http.StatusPreconditionRequired, Detail: MsgPreconditionRequired, Code: "precondition_required"}
		}
		return obj, func() {}, nil
	}
	locks := c.Locks
	if locks == nil {
		locks = processLocks
	}
	unlock, err := locks.Lock(r.Context(), "generics:"+g.DefaultBasename()+":"+g.lookupField()+":"+chi.URLParam(r.Request, g.LookupParam()))
	if err != nil {
		return nil, nil, err
	}
	stored, err := g.GetObject(v, r)
	if err == nil {
		var data json.RawMessage
		if data, err = g.serialize(r, stored); err == nil && !matches(lines, ETag(r.AcceptedMediaType, data), true) {
			err = &exceptions.APIException{Status: http.StatusPreconditionFailed, Detail: MsgPreconditionFailed, Code: "precondition_failed"}
		}
	}
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return stored, unlock, nil
}

// serialize is obj's representation for r.
func (g *GenericAPIView[T]) serialize(r *request.Request, obj *T) (json.RawMessage, error) {
	ser, err := g.GetSerializer(r)
	if err != nil {
		return nil, err
	}
	return ser.Data(obj, g.SerializerContext(r))
}

// localLocks are named locks in the process's memory: a name is held
// while its channel is in held, and closing it wakes the waiters.
type localLocks struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

// processLocks are the locks of views whose Conditional has none.
var processLocks = &localLocks{held: map[string]chan struct{}{}}

// Lock implements Locker.
func (l *localLocks) Lock(ctx context.Context, name string) (func(), error) {
	for {
		l.mu.Lock()
		busy, ok := l.held[name]
		if !ok {
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
