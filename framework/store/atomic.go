package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/jmoiron/sqlx"
)

// txKey is the context key of the transaction a context carries.
type txKey struct{}

// atomicTx is a transaction of db that contexts carry, Django's atomic
// block: begun at its first use (a request that only reads opens none),
// joined by InTx and Atomic through savepoints, ended by its outermost
// block; or one its caller began and ends (WithTx).
type atomicTx struct {
	db    *sqlx.DB
	ctx   context.Context // the outermost block's: the transaction lives under it
	outer *atomicTx       // a transaction of another database the context carried
	ended atomic.Bool

	mu         sync.Mutex
	tx         *sqlx.Tx // nil until begun
	savepoints int      // made so far, to name the next
	onCommit   []func()
	afterEnd   []func() // run once the transaction has ended, committed or not
	broken     error    // a savepoint that could not be rolled back: the transaction must be
}

// current returns the transaction of db that ctx carries, nil when it
// carries none or it has ended.
func current(ctx context.Context, db *sqlx.DB) *atomicTx {
	for t, _ := ctx.Value(txKey{}).(*atomicTx); t != nil; t = t.outer {
		if t.db == db {
			if t.ended.Load() {
				return nil
			}
			return t
		}
	}
	return nil
}

// errEnded is the error of joining a transaction that ended meanwhile.
var errEnded = errors.New("store: the transaction has ended")

// begin returns t's transaction, beginning it if it has not begun.
func (t *atomicTx) begin() (*sqlx.Tx, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended.Load() {
		return nil, errEnded
	}
	if t.tx == nil {
		tx, err := t.db.BeginTxx(t.ctx, nil)
		if err != nil {
			return nil, err
		}
		t.tx = tx
	}
	return t.tx, nil
}

// block is an atomic block of one database that enter entered: the
// outermost transaction, or a savepoint of the transaction the context
// carried (Django's nested atomic). end leaves it.
type block struct {
	t    *atomicTx
	tx   *sqlx.Tx // the savepoint's transaction; nil for the outermost block
	name string   // the savepoint's
	mark int      // how many OnCommit callbacks t had at the savepoint
}

// enter enters an atomic block of db: when ctx carries no transaction of
// db, the context returned carries a new one, begun at its first use;
// otherwise a savepoint of the transaction ctx carries, made now, and ctx
// itself. end must be called, once, with the outcome of the block's work.
func enter(ctx context.Context, db *sqlx.DB) (context.Context, *block, error) {
	if t := current(ctx, db); t != nil {
		tx, err := t.begin()
		if err != nil {
			return ctx, nil, err
		}
		t.mu.Lock()
		t.savepoints++
		b := &block{t: t, tx: tx, name: "s" + strconv.Itoa(t.savepoints), mark: len(t.onCommit)}
		t.mu.Unlock()
		if _, err := tx.ExecContext(t.ctx, "SAVEPOINT "+b.name); err != nil {
			return ctx, nil, err
		}
		return ctx, b, nil
	}
	ctx, t := carry(ctx, db, nil)
	return ctx, &block{t: t}, nil
}

// carry returns a copy of ctx that carries t, a new transaction of db
// (tx, or nil to begin at its first use), before those ctx carries.
func carry(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx) (context.Context, *atomicTx) {
	outer, _ := ctx.Value(txKey{}).(*atomicTx)
	t := &atomicTx{db: db, ctx: ctx, outer: outer, tx: tx}
	return context.WithValue(ctx, txKey{}, t), t
}

// close marks t ended and takes its transaction, the error that broke it
// and its callbacks, which it holds no more.
func (t *atomicTx) close() (tx *sqlx.Tx, broken error, onCommit, afterEnd []func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ended.Store(true)
	tx, broken, onCommit, afterEnd = t.tx, t.broken, t.onCommit, t.afterEnd
	t.onCommit, t.afterEnd = nil, nil
	return tx, broken, onCommit, afterEnd
}

// runAll calls each of fns, in order.
func runAll(fns []func()) {
	for _, fn := range fns {
		fn()
	}
}

// end leaves the block. A nil err commits it: the outermost block's
// transaction commits (as InTx commits) and then runs the OnCommit
// callbacks registered in it, in order; a savepoint is released, its work
// to commit with the transaction. A non-nil err rolls the block back,
// with the callbacks registered in it, and is returned as is. end returns
// the COMMIT's error when it fails, and an error when a savepoint of the
// transaction could not be rolled back, so that the transaction was
// rolled back instead of committed.
func (b *block) end(err error) error {
	t := b.t
	if b.tx != nil {
		return b.release(err)
	}
	tx, broken, callbacks, after := t.close()
	defer runAll(after)
	if err == nil && broken != nil {
		err = fmt.Errorf("store: the transaction was rolled back, since a savepoint of it could not be: %w", broken)
	}
	if err != nil {
		if tx != nil {
			_ = tx.Rollback()
		}
		return err
	}
	if tx != nil {
		if _, err := commit(t.ctx, t.db, tx); err != nil {
			return err
		}
	}
	runAll(callbacks)
	return nil
}

// release ends a savepoint block: released when err is nil, else (or
// when the release fails) rolled back to, with the OnCommit callbacks
// registered since; err, or the release's error, is returned.
func (b *block) release(err error) error {
	t := b.t
	if err == nil {
		if _, err = b.tx.ExecContext(t.ctx, "RELEASE SAVEPOINT "+b.name); err == nil {
			return nil
		}
	}
	t.mu.Lock()
	clear(t.onCommit[b.mark:])
	t.onCommit = t.onCommit[:b.mark]
	t.mu.Unlock()
	_, rerr := b.tx.ExecContext(t.ctx, "ROLLBACK TO SAVEPOINT "+b.name)
	if rerr == nil {
		_, rerr = b.tx.ExecContext(t.ctx, "RELEASE SAVEPOINT "+b.name)
	}
	if rerr != nil {
		t.mu.Lock()
		if t.broken == nil {
			t.broken = rerr
		}
		t.mu.Unlock()
	}
	return err
}

// errPanicked ends the block of a function that panicked.
var errPanicked = errors.New("store: the atomic block's function panicked")

// run runs fn with ctx and ends the block with its error; a panic of fn
// rolls the block back and goes on.
func (b *block) run(ctx context.Context, fn func(ctx context.Context) error) error {
	return b.end(b.guard(ctx, fn))
}

// guard runs fn, rolling the block back should it panic.
func (b *block) guard(ctx context.Context, fn func(ctx context.Context) error) error {
	defer func() {
		if p := recover(); p != nil {
			_ = b.end(errPanicked)
			panic(p)
		}
	}()
	return fn(ctx)
}

// Atomic runs fn in an atomic block of db, Django's transaction.atomic,
// with a context that carries its transaction: the writes and reads that
// fn makes with it through InTx, Atomic, TxOf and the framework's
// querysets run in it, and OnCommit defers work until it commits. A nil
// error from fn commits (and the COMMIT's error is returned), an error
// rolls back and is returned as is, a panic rolls back and goes on.
//
// When ctx carries a transaction of db (a request's under
// Settings.AtomicRequests, an outer Atomic's), the block is a savepoint
// of it, as Django's nested atomic is: fn's error undoes fn's writes and
// callbacks alone, and the transaction goes on. The transaction begins at
// its first write or nested block: a block that only reads begins none.
// As Django's, Atomic never runs fn again; InTx does, when outermost.
func Atomic(ctx context.Context, db *sqlx.DB, fn func(ctx context.Context) error) error {
	ctx, b, err := enter(ctx, db)
	if err != nil {
		return err
	}
	return b.run(ctx, fn)
}

// WithTx returns a copy of ctx that carries tx, a transaction of db its
// caller began, as db's transaction: InTx, Atomic, Write, On, TxOf and
// the framework's querysets on db run in it with that context, and the
// blocks nested in it are savepoints of it. The context does not own
// tx: the caller commits it or rolls it back, then calls end, with
// whether it committed, to run the OnCommit callbacks registered under
// the context (when it did) and the AfterEnd ones; from then on the
// context carries tx no more.
func WithTx(ctx context.Context, db *sqlx.DB, tx *sqlx.Tx) (_ context.Context, end func(committed bool)) {
	ctx, t := carry(ctx, db, tx)
	return ctx, func(committed bool) {
		_, _, callbacks, after := t.close()
		defer runAll(after)
		if committed {
			runAll(callbacks)
		}
	}
}

// inSavepoint runs fn in a savepoint of the transaction of db that ctx
// carries, with that transaction.
func inSavepoint(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	_, b, err := enter(ctx, db)
	if err != nil {
		return err
	}
	return b.run(ctx, func(context.Context) error { return fn(b.tx) })
}

// InAtomicBlock reports whether ctx carries a transaction of db that has
// not ended (Django's connection.in_atomic_block): whether InTx joins it.
func InAtomicBlock(ctx context.Context, db *sqlx.DB) bool { return current(ctx, db) != nil }

// TxOf returns the transaction of db that ctx carries once it has begun,
// nil otherwise: reads run in it to see the writes made in it (before it
// has begun there are none to see).
func TxOf(ctx context.Context, db *sqlx.DB) *sqlx.Tx {
	t := current(ctx, db)
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tx
}

// afterEnd defers fn until the transaction of db that ctx carries has
// ended, committed or rolled back, and reports whether it did; false
// when ctx carries none.
func afterEnd(ctx context.Context, db *sqlx.DB, fn func()) bool {
	t := current(ctx, db)
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended.Load() {
		return false
	}
	t.afterEnd = append(t.afterEnd, fn)
	return true
}

// AfterEnd runs fn once every transaction that ctx carries has ended,
// committed or rolled back, and at once when it carries none: a lock
// that guards a write is held until the write is committed or undone,
// as a request's transaction under Settings.AtomicRequests commits after
// its view has answered.
func AfterEnd(ctx context.Context, fn func()) {
	var last *atomicTx // the first entered: it ends last
	for t, _ := ctx.Value(txKey{}).(*atomicTx); t != nil; t = t.outer {
		if !t.ended.Load() {
			last = t
		}
	}
	if last == nil || !afterEnd(ctx, last.db, fn) {
		fn()
	}
}

// OnCommit runs fn once the innermost transaction that ctx carries has
// committed, Django's transaction.on_commit: after the outermost block's
// COMMIT, in the order registered; never when it rolls back, nor when the
// savepoint fn was registered in rolls back. When ctx carries no
// transaction, fn runs at once.
func OnCommit(ctx context.Context, fn func()) {
	for t, _ := ctx.Value(txKey{}).(*atomicTx); t != nil; t = t.outer {
		t.mu.Lock()
		live := !t.ended.Load()
		if live {
			t.onCommit = append(t.onCommit, fn)
		}
		t.mu.Unlock()
		if live {
			return
		}
	}
	fn()
}
